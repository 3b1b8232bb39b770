import { DataSource } from 'typeorm';
import { ContentEvents } from '../src/common/content-events';
import { perWeek } from '../src/dashboards/dashboards.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, ok, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, createAuthor, createReader, createUser, TestUser } from './helpers/users';

const AUTH_REQUIRED = 'Authentication required. Please log in to access dashboard.';
const FORBIDDEN = 'You do not have permission to access dashboard.';
const ADMIN_AUTH_REQUIRED = 'Authentication required. Please log in to access admin dashboard.';
const FORBIDDEN_ADMIN = 'You do not have permission to access admin dashboard.';
const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/** On a database of its own, so that site totals are exact. */
describe('Dashboards API', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ databaseUrl: await createFreshDatabase('inkwell_dashboards') });
    dataSource = t.app.get(DataSource);
    admin = await createAdmin(t);
  });
  afterAll(() => t?.close());

  async function newPost(status = 'PUBLISHED'): Promise<{ id: number; slug: string; title: string }> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Dash ${token}`, slug: `dash-${token}`, content: 'Body', status })
      .expect(201);
    return res.body.data;
  }

  async function comment(userId: number, postId: number, options: { deleted?: boolean; ago?: string } = {}): Promise<void> {
    await dataSource.query(
      `INSERT INTO comments (post_id, user_id, content, created_at, updated_at, deleted_at)
       VALUES ($1, $2, $3, now() - $4::interval, now() - $4::interval, CASE WHEN $5 THEN now() END)`,
      [postId, userId, options.deleted ? '' : `Comment ${uid()}`, options.ago ?? '0 seconds', options.deleted ?? false],
    );
  }

  const like = (user: TestUser, postId: number) =>
    t.http
      .post(api(`/likes/post/${postId}`))
      .set(user.auth)
      .expect(200);

  describe('GET /dashboard/stats and /dashboard/user/stats (reader)', () => {
    it.each(['/dashboard/stats', '/dashboard/user/stats'])(
      "%s: 401 'Authentication required. Please log in to access dashboard.' without a session",
      async (path) => {
        expect((await t.http.get(api(path)).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
        expect((await t.http.get(api(path)).set('Authorization', 'Bearer forged').expect(401)).body).toEqual(
          err(401, 'Authentication failed. Please log in again.'),
        );
      },
    );

    it('a new reader: zeros and no activity', async () => {
      const reader = await createUser(t, [], { fullName: 'Nguyễn Văn Đọc' });
      const res = await t.http.get(api('/dashboard/stats')).set(reader.auth).expect(200);
      expect(res.body).toEqual(
        ok({
          user: { joinDate: ISO, displayName: 'Nguyễn Văn Đọc' },
          statistics: {
            totalLikes: 0,
            totalComments: 0,
            totalPostsLiked: 0,
            totalPostsCommented: 0,
            averageLikesPerWeek: 0,
            averageCommentsPerWeek: 0,
          },
          recentActivity: [],
        }),
      );
    });

    it('counts real likes and comments, weekly averages to one decimal, the last 7 days of activity (at most 5)', async () => {
      const reader = await createReader(t);
      const other = await createReader(t);
      const [a, b, c, d, archived] = [await newPost(), await newPost(), await newPost(), await newPost(), await newPost()];
      const draft = await newPost('DRAFT');
      for (const post of [a, b, c, d, archived]) await like(reader, post.id);
      await like(other, a.id);
      await t.http
        .put(api(`/blog/posts/${archived.id}`))
        .set(admin.auth)
        .send({ status: 'ARCHIVED' })
        .expect(200);
      // d was liked 8 days ago: counted, but not recent activity.
      await dataSource.query(`UPDATE likes SET created_at = now() - interval '8 days' WHERE user_id = $1 AND post_id = $2`, [
        reader.id,
        d.id,
      ]);
      await comment(reader.id, a.id, { ago: '3 seconds' });
      await comment(reader.id, a.id, { ago: '2 seconds' });
      await comment(reader.id, b.id, { ago: '9 days' });
      await comment(reader.id, c.id, { deleted: true });
      await comment(reader.id, draft.id, { ago: '1 second' });
      await comment(other.id, b.id);
      // The recent likes a, b, c newer than every comment whatever the machine's speed (the comments
      // are dated 1 s or more before their own insert, which came before this statement).
      await dataSource.query(
        `UPDATE likes SET created_at = now() - CASE post_id WHEN $2 THEN interval '300 ms' WHEN $3 THEN interval '200 ms' ELSE interval '100 ms' END
          WHERE user_id = $1 AND post_id IN ($2, $3, $4)`,
        [reader.id, a.id, b.id, c.id],
      );
      // Joined three weeks ago: 4 likes / 3 weeks = 1.3, 4 comments / 3 weeks = 1.3.
      await dataSource.query(`UPDATE users SET created_at = now() - interval '21 days' WHERE id = $1`, [reader.id]);

      for (const path of ['/dashboard/stats', '/dashboard/user/stats']) {
        const res = await t.http.get(api(path)).set(reader.auth).expect(200);
        expect(res.body.data.user).toEqual({ joinDate: ISO, displayName: reader.fullName });
        expect(res.body.data.statistics).toEqual({
          totalLikes: 4,
          totalComments: 4,
          totalPostsLiked: 4,
          totalPostsCommented: 3,
          averageLikesPerWeek: 1.3,
          averageCommentsPerWeek: 1.3,
        });
        const activity = res.body.data.recentActivity as {
          type: string;
          postId: number;
          postTitle: string;
          postSlug: string;
          timestamp: string;
        }[];
        expect(activity).toHaveLength(5);
        expect(activity.map((entry) => `${entry.type} ${entry.postId}`)).toEqual([
          `LIKE ${c.id}`,
          `LIKE ${b.id}`,
          `LIKE ${a.id}`,
          `COMMENT ${draft.id}`,
          `COMMENT ${a.id}`,
        ]);
        expect(activity[0]).toEqual({ type: 'LIKE', postId: c.id, postTitle: c.title, postSlug: c.slug, timestamp: ISO });
        const times = activity.map((entry) => Date.parse(entry.timestamp));
        expect([...times].sort((x, y) => y - x)).toEqual(times);
      }
    });

    it('perWeek: at least one week, one decimal', () => {
      const now = Date.parse('2026-11-23T12:00:00Z');
      expect(perWeek(3, new Date(now - 2 * 24 * 3600 * 1000), now)).toBe(3);
      expect(perWeek(10, new Date(now - 21 * 24 * 3600 * 1000), now)).toBe(3.3);
      expect(perWeek(1, new Date(now - 70 * 24 * 3600 * 1000), now)).toBe(0.1);
      expect(perWeek(0, new Date(now), now)).toBe(0);
    });
  });

  describe('GET /dashboard/quick-stats (public)', () => {
    it('site totals and today’s figures, published posts only, for anyone', async () => {
      const quick = async (auth?: TestUser) => {
        t.app.get(ContentEvents).changed({ kind: 'resync' }); // the answer is kept 5 s: start afresh
        const call = t.http.get(api('/dashboard/quick-stats'));
        return (await (auth ? call.set(auth.auth) : call).expect(200)).body;
      };
      const before = (await quick()).data;
      const fromSql = async () => {
        const [row] = (await dataSource.query(`SELECT
            (SELECT count(*)::int FROM users) AS users,
            (SELECT count(*)::int FROM posts WHERE status = 'PUBLISHED') AS posts,
            (SELECT count(*)::int FROM comments c JOIN posts p ON p.id = c.post_id WHERE p.status = 'PUBLISHED' AND c.deleted_at IS NULL) AS comments,
            (SELECT COALESCE(sum(like_count), 0)::int FROM posts WHERE status = 'PUBLISHED') AS likes`)) as {
          users: number;
          posts: number;
          comments: number;
          likes: number;
        }[];
        return row;
      };
      const sql = await fromSql();
      expect(before).toMatchObject({ totalUsers: sql.users, totalPosts: sql.posts, totalComments: sql.comments, totalLikes: sql.likes });

      const reader = await createReader(t);
      const oldUser = await createReader(t);
      await dataSource.query(`UPDATE users SET created_at = now() - interval '3 days' WHERE id = $1`, [oldUser.id]);
      const today = await newPost();
      const older = await newPost();
      await dataSource.query(`UPDATE posts SET published_at = now() - interval '3 days' WHERE id = $1`, [older.id]);
      const draft = await newPost('DRAFT');
      await like(reader, today.id);
      await like(oldUser, today.id);
      await like(reader, older.id);
      await dataSource.query(`UPDATE likes SET created_at = now() - interval '3 days' WHERE user_id = $1 AND post_id = $2`, [
        reader.id,
        older.id,
      ]);
      await dataSource.query(`INSERT INTO likes (user_id, post_id) VALUES ($1, $2)`, [reader.id, draft.id]);
      await comment(reader.id, today.id);
      await comment(reader.id, older.id, { ago: '3 days' });
      await comment(reader.id, today.id, { deleted: true });
      await comment(reader.id, draft.id);

      const after = await quick(reader);
      expect(after).toEqual(ok(expect.any(Object)));
      expect(after.data).toEqual({
        totalUsers: before.totalUsers + 2,
        totalPosts: before.totalPosts + 2,
        totalComments: before.totalComments + 2,
        totalLikes: before.totalLikes + 3,
        todayStats: {
          newUsers: before.todayStats.newUsers + 1,
          newPosts: before.todayStats.newPosts + 1,
          newComments: before.todayStats.newComments + 1,
          newLikes: before.todayStats.newLikes + 2,
        },
      });
      const now = await fromSql();
      expect(after.data).toMatchObject({
        totalUsers: now.users,
        totalPosts: now.posts,
        totalComments: now.comments,
        totalLikes: now.likes,
      });
    });
  });

  describe('GET /dashboard/author/stats', () => {
    const stats = async (user: TestUser) => (await t.http.get(api('/dashboard/author/stats')).set(user.auth).expect(200)).body;
    const systemTotals = async () =>
      (
        (await dataSource.query(
          `SELECT (SELECT count(*)::int FROM posts) AS posts, (SELECT count(*)::int FROM tags WHERE is_active) AS tags`,
        )) as {
          posts: number;
          tags: number;
        }[]
      )[0];

    it("401 'Authentication required. Please log in to access dashboard.' without a session, 403 for a USER", async () => {
      expect((await t.http.get(api('/dashboard/author/stats')).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
      const reader = await createReader(t);
      expect((await t.http.get(api('/dashboard/author/stats')).set(reader.auth).expect(403)).body).toEqual(err(403, FORBIDDEN));
    });

    it("counts every post, the caller's posts by status and the active tags; the newest 10 events on the caller's own posts with links", async () => {
      const before = await systemTotals();
      const [a, b] = [await createAuthor(t), await createAuthor(t)];
      const write = async (author: TestUser, name: string) => {
        const token = uid();
        const res = await t.http
          .post(api('/blog/posts/author/create'))
          .set(author.auth)
          .send({ title: `${name} ${token}`, slug: `${name.toLowerCase().replace(/ /g, '-')}-${token}`, content: 'Body' })
          .expect(201);
        return res.body.data as { id: number; slug: string; title: string };
      };
      const submit = (author: TestUser, id: number) =>
        t.http
          .post(api(`/blog/posts/author/${id}/submit-for-review`))
          .set(author.auth)
          .expect(200);
      const review = (id: number, body: Record<string, string>) =>
        t.http
          .put(api(`/blog/posts/admin/${id}/review`))
          .set(admin.auth)
          .send(body)
          .expect(200);
      const setStatus = (id: number, status: string) =>
        t.http
          .put(api(`/blog/posts/${id}`))
          .set(admin.auth)
          .send({ status })
          .expect(200);

      // Author a: one post in each status (and an older draft), through the API.
      const old = await write(a, 'Old');
      const draft = await write(a, 'Draft');
      const pending = await write(a, 'Pending');
      await submit(a, pending.id);
      const published = await write(a, 'Published');
      await submit(a, published.id);
      await review(published.id, { status: 'APPROVED' });
      const rejected = await write(a, 'Rejected');
      await submit(a, rejected.id);
      await review(rejected.id, { status: 'REJECTED', rejectionReason: 'First reason' });
      await submit(a, rejected.id);
      await review(rejected.id, { status: 'REJECTED', rejectionReason: 'Needs sources' });
      const archived = await write(a, 'Archived');
      await setStatus(archived.id, 'ARCHIVED');
      const secret = await write(a, 'Private');
      await setStatus(secret.id, 'PRIVATE');
      // Author b: a published post and a draft; an inactive tag and an active one.
      const bPublished = await write(b, 'Other');
      await submit(b, bPublished.id);
      await review(bPublished.id, { status: 'APPROVED' });
      const bDraft = await write(b, 'Other draft');
      for (const isActive of [true, false]) {
        const token = uid();
        await dataSource.query(`INSERT INTO tags (name, slug, is_active) VALUES ($1, $2, $3)`, [
          `Dash tag ${token}`,
          `dash-tag-${token}`,
          isActive,
        ]);
      }

      // Known times (hours ago), so that the order of the events is exact.
      const now = Date.now();
      const at = (hours: number) => new Date(now - hours * HOUR);
      const times: [{ id: number }, number, number, number | null][] = [
        // post, created, updated (the submission of a pending post), published
        [old, 11, 11, null],
        [draft, 10, 10, null],
        [pending, 9, 8, null],
        [published, 7, 6, 6],
        [rejected, 5, 4, null],
        [archived, 3, 3, null],
        [secret, 2, 2, null],
      ];
      for (const [post, created, updated, publishedAgo] of times) {
        await dataSource.query(`UPDATE posts SET created_at = $2, updated_at = $3, published_at = $4 WHERE id = $1`, [
          post.id,
          at(created),
          at(updated),
          publishedAgo === null ? null : at(publishedAgo),
        ]);
      }
      await dataSource.query(`UPDATE post_reviews SET created_at = $2 WHERE post_id = $1 AND status = 'APPROVED'`, [published.id, at(6)]);
      await dataSource.query(
        `UPDATE post_reviews SET created_at = CASE WHEN rejection_reason = 'First reason' THEN $2::timestamptz ELSE $3::timestamptz END WHERE post_id = $1`,
        [rejected.id, at(4.5), at(4)],
      );

      const body = await stats(a);
      expect(body).toEqual(ok(expect.any(Object)));
      const { recentActivities, lastUpdated, ...figures } = body.data;
      expect(figures).toEqual({ totalPosts: before.posts + 9, myPosts: 7, publishedPosts: 1, myDrafts: 2, totalTags: before.tags + 1 });
      expect(Date.parse(lastUpdated)).toBeGreaterThanOrEqual(now);
      const edit = (post: { id: number }) => `/author/posts/${post.id}/edit`;
      expect(recentActivities).toEqual([
        { type: 'POST_CREATED', title: 'Post created', description: `You created "${secret.title}".`, timestamp: at(2).toISOString() },
        { type: 'POST_CREATED', title: 'Post created', description: `You created "${archived.title}".`, timestamp: at(3).toISOString() },
        {
          type: 'POST_CREATED',
          title: 'Post rejected',
          description: `"${rejected.title}" was rejected: Needs sources`,
          timestamp: at(4).toISOString(),
          link: edit(rejected),
        },
        {
          type: 'POST_CREATED',
          title: 'Post rejected',
          description: `"${rejected.title}" was rejected: First reason`,
          timestamp: at(4.5).toISOString(),
          link: edit(rejected),
        },
        {
          type: 'POST_CREATED',
          title: 'Post created',
          description: `You created "${rejected.title}".`,
          timestamp: at(5).toISOString(),
          link: edit(rejected),
        },
        {
          type: 'POST_PUBLISHED',
          title: 'Post published',
          description: `"${published.title}" was published.`,
          timestamp: at(6).toISOString(),
          link: `/blog/${published.slug}`,
        },
        {
          type: 'POST_CREATED',
          title: 'Post created',
          description: `You created "${published.title}".`,
          timestamp: at(7).toISOString(),
          link: `/blog/${published.slug}`,
        },
        {
          type: 'POST_CREATED',
          title: 'Submitted for review',
          description: `"${pending.title}" is waiting for review.`,
          timestamp: at(8).toISOString(),
        },
        { type: 'POST_CREATED', title: 'Post created', description: `You created "${pending.title}".`, timestamp: at(9).toISOString() },
        {
          type: 'POST_CREATED',
          title: 'Post created',
          description: `You created "${draft.title}".`,
          timestamp: at(10).toISOString(),
          link: edit(draft),
        },
      ]);

      const other = (await stats(b)).data;
      expect(other).toMatchObject({ totalPosts: before.posts + 9, myPosts: 2, publishedPosts: 1, myDrafts: 1, totalTags: before.tags + 1 });
      // Only b's own posts (real times: the draft was written after the other post was published).
      expect(other.recentActivities.map((entry: { type: string; description: string }) => `${entry.type} ${entry.description}`)).toEqual([
        `POST_CREATED You created "${bDraft.title}".`,
        `POST_PUBLISHED "${bPublished.title}" was published.`,
        `POST_CREATED You created "${bPublished.title}".`,
      ]);
    });

    it('admins have one too (their own posts); a new author has zeros and no activity', async () => {
      const fresh = await createAuthor(t);
      const { posts, tags } = await systemTotals();
      expect((await stats(fresh)).data).toEqual({
        totalPosts: posts,
        myPosts: 0,
        publishedPosts: 0,
        myDrafts: 0,
        totalTags: tags,
        recentActivities: [],
        lastUpdated: ISO,
      });
      const boss = await createAdmin(t);
      const token = uid();
      const made = (
        await t.http
          .post(api('/blog/posts'))
          .set(boss.auth)
          .send({ title: `Boss ${token}`, slug: `boss-${token}`, content: 'Body', status: 'PUBLISHED' })
          .expect(201)
      ).body.data;
      expect(made.createdAt).toBe(made.publishedAt);
      const mine = (await stats(boss)).data;
      expect(mine).toMatchObject({ myPosts: 1, publishedPosts: 1, myDrafts: 0 });
      // Created and published in the same instant: the publication is listed first.
      expect(mine.recentActivities.map((entry: { type: string; link?: string }) => `${entry.type} ${entry.link}`)).toEqual([
        `POST_PUBLISHED /blog/${made.slug}`,
        `POST_CREATED /blog/${made.slug}`,
      ]);
    });
  });

  describe('GET /dashboard/admin/activity', () => {
    type Day = { date: string; users: number; posts: number; comments: number; likes: number };
    const activity = async (query = '') => {
      t.app.get(ContentEvents).changed({ kind: 'resync' }); // answers are kept 5 s: start afresh
      return (
        await t.http
          .get(api(`/dashboard/admin/activity${query}`))
          .set(admin.auth)
          .expect(200)
      ).body.data.days as Day[];
    };
    const utcDay = (offset: number) =>
      new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - offset * DAY);

    it("401 and 403 with the admin dashboard's texts", async () => {
      expect((await t.http.get(api('/dashboard/admin/activity')).expect(401)).body).toEqual(err(401, ADMIN_AUTH_REQUIRED));
      for (const user of [await createReader(t), await createAuthor(t)]) {
        expect((await t.http.get(api('/dashboard/admin/activity')).set(user.auth).expect(403)).body).toEqual(err(403, FORBIDDEN_ADMIN));
      }
    });

    it("400 'days must be a whole number from 1 to 365' for anything else", async () => {
      for (const days of ['0', '366', '-1', '1.5', 'abc', '', '99999999999']) {
        expect(
          (
            await t.http
              .get(api(`/dashboard/admin/activity?days=${encodeURIComponent(days)}`))
              .set(admin.auth)
              .expect(400)
          ).body,
        ).toEqual(err(400, 'days must be a whole number from 1 to 365', { days: ['days must be a whole number from 1 to 365'] }));
      }
    });

    it('30 UTC days by default, oldest first, ending today, every day present', async () => {
      const days = await activity();
      expect(days).toHaveLength(30);
      expect(days.map((day) => day.date)).toEqual(
        Array.from({ length: 30 }, (_v, i) =>
          utcDay(29 - i)
            .toISOString()
            .slice(0, 10),
        ),
      );
      expect((await activity('?days=1')).map((day) => day.date)).toEqual([utcDay(0).toISOString().slice(0, 10)]);
      expect(await activity('?days=365')).toHaveLength(365);
    });

    it('counts new users, posts, comments (not deleted) and likes per UTC day, zero-filled', async () => {
      const before = await activity('?days=40');
      const author = await createAuthor(t);
      // Rows on known days: today, 1 day ago at exactly 00:00 UTC and 1 ms before it (2 days ago), 5 and 35 days ago.
      const when = {
        today: new Date(Math.max(utcDay(0).getTime(), Date.now() - 1000)),
        midnight1: utcDay(1),
        late2: new Date(utcDay(1).getTime() - 1),
        d5: new Date(utcDay(5).getTime() + 12 * HOUR),
        d35: new Date(utcDay(35).getTime() + 12 * HOUR),
      };
      const user = async (created: Date) => {
        const token = uid();
        const [{ id }] = (await dataSource.query(
          `INSERT INTO users (full_name, email, password_hash, status, created_at) VALUES ($1, $2, '!', 'ACTIVE', $3) RETURNING id`,
          [`Chart ${token}`, `chart-${token}@test.inkwell.test`, created],
        )) as { id: number }[];
        return id;
      };
      const post = async (created: Date, status = 'DRAFT') => {
        const token = uid();
        const [{ id }] = (await dataSource.query(
          `INSERT INTO posts (title, slug, content, content_html, status, author_id, created_at, updated_at) VALUES ($1, $2, 'x', '<p>x</p>', $3, $4, $5, $5) RETURNING id`,
          [`Chart ${token}`, `chart-${token}`, status, author.id, created],
        )) as { id: number }[];
        return id;
      };
      const target = await post(when.d35, 'PUBLISHED');
      const comment = (created: Date, deleted = false) =>
        dataSource.query(
          `INSERT INTO comments (post_id, user_id, content, created_at, updated_at, deleted_at) VALUES ($1, $2, 'c', $3, $3, $4)`,
          [target, author.id, created, deleted ? created : null],
        );
      const like = async (created: Date) =>
        dataSource.query(`INSERT INTO likes (user_id, post_id, created_at) VALUES ($1, $2, $3)`, [await user(when.d35), target, created]);

      await user(when.today);
      await user(when.midnight1);
      await user(when.midnight1);
      await user(when.late2);
      await user(when.d5);
      await post(when.today);
      await post(when.late2, 'PUBLISHED');
      await post(when.d5, 'REJECTED');
      await comment(when.today);
      await comment(when.today, true);
      await comment(when.midnight1);
      await comment(when.d5);
      await comment(when.d5);
      await like(when.today);
      await like(when.late2);
      await like(when.d35);

      const after = await activity('?days=40');
      const added = after.map((day, i) => ({
        date: day.date,
        users: day.users - before[i].users,
        posts: day.posts - before[i].posts,
        comments: day.comments - before[i].comments,
        likes: day.likes - before[i].likes,
      }));
      const expected = (offset: number, counts: Partial<Day>) => ({
        date: utcDay(offset).toISOString().slice(0, 10),
        users: 0,
        posts: 0,
        comments: 0,
        likes: 0,
        ...counts,
      });
      // The author, the liking users and the commented post are dated 35 days ago, except the author (today, by createAuthor).
      const wanted = Array.from({ length: 40 }, (_v, i) => expected(39 - i, {}));
      wanted[39] = expected(0, { users: 2, posts: 1, comments: 1, likes: 1 });
      wanted[38] = expected(1, { users: 2, comments: 1 });
      wanted[37] = expected(2, { users: 1, posts: 1, likes: 1 });
      wanted[34] = expected(5, { users: 1, posts: 1, comments: 2 });
      wanted[4] = expected(35, { users: 3, posts: 1, likes: 1 });
      expect(added).toEqual(wanted);

      // The same rows seen by a plain count per day.
      const [plain] = (await dataSource.query(
        `SELECT (SELECT count(*)::int FROM users WHERE created_at >= $1 AND created_at < $2) AS users,
                (SELECT count(*)::int FROM comments WHERE created_at >= $1 AND created_at < $2 AND deleted_at IS NULL) AS comments`,
        [utcDay(5), utcDay(4)],
      )) as { users: number; comments: number }[];
      expect(after[34]).toMatchObject(plain);
      // A shorter window is the tail of the longer one.
      expect(await activity('?days=7')).toEqual(after.slice(-7));
    });
  });

  describe('GET /comments/admin/recent (the moderation list)', () => {
    it('the newest comments across all posts with their post (id, title, slug) and author, size 20 by default', async () => {
      const [first, second] = [await newPost(), await newPost()];
      const reader = await createReader(t);
      for (const [i, post] of [first, second, first].entries()) {
        await t.http
          .post(api('/comments'))
          .set(reader.auth)
          .send({ postId: post.id, content: `Moderate ${i}` })
          .expect(201);
      }
      const page = (await t.http.get(api('/comments/admin/recent')).set(admin.auth).expect(200)).body.data;
      expect(page).toMatchObject({ size: 20, number: 0 });
      expect(
        page.content
          .slice(0, 3)
          .map((row: { content: string; post: unknown; author: { id: number; fullName: string } }) => [
            row.content,
            row.post,
            row.author.id,
          ]),
      ).toEqual([
        ['Moderate 2', { id: first.id, title: first.title, slug: first.slug }, reader.id],
        ['Moderate 1', { id: second.id, title: second.title, slug: second.slug }, reader.id],
        ['Moderate 0', { id: first.id, title: first.title, slug: first.slug }, reader.id],
      ]);
      const next = (await t.http.get(api('/comments/admin/recent?page=1&size=1')).set(admin.auth).expect(200)).body.data;
      expect(next.content.map((row: { content: string }) => row.content)).toEqual(['Moderate 1']);
    });
  });

  describe('indexes', () => {
    async function plan(sql: string, params: unknown[]): Promise<string> {
      return dataSource.transaction(async (manager) => {
        await manager.query('SET LOCAL enable_seqscan = off');
        const rows = (await manager.query(`EXPLAIN ${sql}`, params)) as { 'QUERY PLAN': string }[];
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    }

    it("a reader's activity reads IDX_likes_user_created and IDX_comments_user_created", async () => {
      const text = await plan(
        `(SELECT l.id FROM likes l WHERE l.user_id = $1 AND l.created_at >= $2 ORDER BY l.created_at DESC, l.id DESC LIMIT 5)
         UNION ALL (SELECT c.id FROM comments c WHERE c.user_id = $1 AND c.created_at >= $2 AND c.deleted_at IS NULL ORDER BY c.created_at DESC, c.id DESC LIMIT 5)`,
        [1, new Date()],
      );
      expect(text).toContain('IDX_likes_user_created');
      expect(text).toContain('IDX_comments_user_created');
    });

    it('the activity chart counts each table over its created_at index', async () => {
      for (const [table, index, extra] of [
        ['users', 'IDX_users_created_at', ''],
        ['posts', 'IDX_posts_created', ''],
        ['comments', 'IDX_comments_live_created', 'AND deleted_at IS NULL'],
        ['likes', 'IDX_likes_created', ''],
      ]) {
        const text = await plan(
          `SELECT date_trunc('day', created_at AT TIME ZONE 'UTC'), count(*) FROM ${table} WHERE created_at >= $1 ${extra} GROUP BY 1`,
          [new Date()],
        );
        expect(text).toContain(index);
      }
    });

    it("today's likes read IDX_likes_created", async () => {
      expect(await plan(`SELECT count(*) FROM likes WHERE created_at >= now() - interval '1 day'`, [])).toContain('IDX_likes_created');
    });
  });
});

import { DataSource } from 'typeorm';
import { ContentEvents } from '../src/common/content-events';
import { perWeek } from '../src/dashboards/dashboards.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, ok, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, createReader, createUser, TestUser } from './helpers/users';

const AUTH_REQUIRED = 'Authentication required. Please log in to access dashboard.';

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
    const res = await t.http.post(api('/blog/posts')).set(admin.auth).send({ title: `Dash ${token}`, slug: `dash-${token}`, content: 'Body', status }).expect(201);
    return res.body.data;
  }

  async function comment(userId: number, postId: number, options: { deleted?: boolean; ago?: string } = {}): Promise<void> {
    await dataSource.query(
      `INSERT INTO comments (post_id, user_id, content, created_at, updated_at, deleted_at)
       VALUES ($1, $2, $3, now() - $4::interval, now() - $4::interval, CASE WHEN $5 THEN now() END)`,
      [postId, userId, options.deleted ? '' : `Comment ${uid()}`, options.ago ?? '0 seconds', options.deleted ?? false],
    );
  }

  const like = (user: TestUser, postId: number) => t.http.post(api(`/likes/post/${postId}`)).set(user.auth).expect(200);

  describe('GET /dashboard/stats and /dashboard/user/stats (reader)', () => {
    it.each(['/dashboard/stats', '/dashboard/user/stats'])("%s: 401 'Authentication required. Please log in to access dashboard.' without a session", async (path) => {
      expect((await t.http.get(api(path)).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
      expect((await t.http.get(api(path)).set('Authorization', 'Bearer forged').expect(401)).body).toEqual(err(401, 'Authentication failed. Please log in again.'));
    });

    it('a new reader: zeros and no activity', async () => {
      const reader = await createUser(t, [], { fullName: 'Nguyễn Văn Đọc' });
      const res = await t.http.get(api('/dashboard/stats')).set(reader.auth).expect(200);
      expect(res.body).toEqual(
        ok({
          user: { joinDate: ISO, displayName: 'Nguyễn Văn Đọc' },
          statistics: { totalLikes: 0, totalComments: 0, totalPostsLiked: 0, totalPostsCommented: 0, averageLikesPerWeek: 0, averageCommentsPerWeek: 0 },
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
      await t.http.put(api(`/blog/posts/${archived.id}`)).set(admin.auth).send({ status: 'ARCHIVED' }).expect(200);
      // d was liked 8 days ago: counted, but not recent activity.
      await dataSource.query(`UPDATE likes SET created_at = now() - interval '8 days' WHERE user_id = $1 AND post_id = $2`, [reader.id, d.id]);
      await comment(reader.id, a.id, { ago: '3 seconds' });
      await comment(reader.id, a.id, { ago: '2 seconds' });
      await comment(reader.id, b.id, { ago: '9 days' });
      await comment(reader.id, c.id, { deleted: true });
      await comment(reader.id, draft.id, { ago: '1 second' });
      await comment(other.id, b.id);
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
        const activity = res.body.data.recentActivity as { type: string; postId: number; postTitle: string; postSlug: string; timestamp: string }[];
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
        t.app.get(ContentEvents).changed({ kind: 'test' }); // the answer is kept 5 s: start afresh
        const call = t.http.get(api('/dashboard/quick-stats'));
        return (await (auth ? call.set(auth.auth) : call).expect(200)).body;
      };
      const before = (await quick()).data;
      const fromSql = async () => {
        const [row] = (await dataSource.query(`SELECT
            (SELECT count(*)::int FROM users) AS users,
            (SELECT count(*)::int FROM posts WHERE status = 'PUBLISHED') AS posts,
            (SELECT count(*)::int FROM comments c JOIN posts p ON p.id = c.post_id WHERE p.status = 'PUBLISHED' AND c.deleted_at IS NULL) AS comments,
            (SELECT COALESCE(sum(like_count), 0)::int FROM posts WHERE status = 'PUBLISHED') AS likes`)) as { users: number; posts: number; comments: number; likes: number }[];
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
      await dataSource.query(`UPDATE likes SET created_at = now() - interval '3 days' WHERE user_id = $1 AND post_id = $2`, [reader.id, older.id]);
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
      expect(after.data).toMatchObject({ totalUsers: now.users, totalPosts: now.posts, totalComments: now.comments, totalLikes: now.likes });
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

    it("today's likes read IDX_likes_created", async () => {
      expect(await plan(`SELECT count(*) FROM likes WHERE created_at >= now() - interval '1 day'`, [])).toContain('IDX_likes_created');
    });
  });
});

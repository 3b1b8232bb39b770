import { DataSource } from 'typeorm';
import { ContentChange, ContentEvents } from '../src/common/content-events';
import { PostViewsService } from '../src/post-views/post-views.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, ok, uid } from './helpers/envelope';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';
import { sitemapEntries, sitemapSlugs } from './helpers/sitemap';

const AUTH_REQUIRED = 'Authentication required. Please log in to continue.';
const AUTH_REQUIRED_SAVE = 'Authentication required: Please log in to create/update posts.';

describe('Posts API', () => {
  let t: TestApp;
  let admin: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let reader: TestUser;
  let tagSlug: string;
  let tagId: number;
  const events: ContentChange[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    t.app.get(ContentEvents).onChange((change) => events.push(change));
    admin = await createAdmin(t);
    author = await createAuthor(t, { fullName: `Ann Author ${uid()}`, bio: 'Writes about tests.' });
    otherAuthor = await createAuthor(t);
    reader = await createReader(t);
    tagSlug = `tag-${uid()}`;
    const res = await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Tag ${tagSlug}`, slug: tagSlug, color: '#112233' })
      .expect(201);
    tagId = res.body.data.id;
  });
  afterAll(() => t.close());

  /** An admin-created post (PUBLISHED by default) with the shared tag. */
  async function adminPost(overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({
        title: `Post ${token}`,
        slug: `post-${token}`,
        content: `# Heading\n\nBody of ${token}`,
        status: 'PUBLISHED',
        tagSlugs: [tagSlug],
        ...overrides,
      })
      .expect(201);
    return res.body.data;
  }

  async function authorDraft(user: TestUser = author, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts/author/create'))
      .set(user.auth)
      .send({ title: `Draft ${token}`, slug: `draft-${token}`, content: 'Draft body words', tagSlugs: [tagSlug], ...overrides })
      .expect(201);
    return res.body.data;
  }

  describe('POST /blog/posts (admin create)', () => {
    it('401 without a session', async () => {
      const res = await t.http.post(api('/blog/posts')).send({ title: 'x', content: 'y' }).expect(401);
      expect(res.body).toEqual(err(401, AUTH_REQUIRED_SAVE));
      const expired = await t.http.post(api('/blog/posts')).set('Authorization', 'Bearer not.a.token').send({}).expect(401);
      expect(expired.body).toEqual(err(401, 'Authentication failed. Please log in again.'));
    });

    it('403 for authors and readers, before the body is checked', async () => {
      for (const user of [author, reader]) {
        const res = await t.http.post(api('/blog/posts')).set(user.auth).send({}).expect(403);
        expect(res.body).toEqual(err(403, 'You do not have permission to create posts.'));
      }
    });

    it('checks title, content, slug and slug format in that order', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{}, 'title', 'Title is required'],
        [{ title: '   ', content: '', slug: 'BAD SLUG' }, 'title', 'Title is required'],
        [{ title: 'A title', slug: 'BAD SLUG' }, 'content', 'Content is required'],
        [{ title: 'A title', content: '  ', slug: '' }, 'content', 'Content is required'],
        [{ title: 'A title', content: 'Body', slug: '  ' }, 'slug', 'Slug is required'],
        [
          { title: 'A title', content: 'Body', slug: 'Bad Slug' },
          'slug',
          'Invalid slug format: Slug must contain only lowercase letters, numbers, and hyphens.',
        ],
        [
          { title: 'A title', content: 'Body', slug: 'bad_slug' },
          'slug',
          'Invalid slug format: Slug must contain only lowercase letters, numbers, and hyphens.',
        ],
      ];
      for (const [body, field, message] of cases) {
        const res = await t.http.post(api('/blog/posts')).set(admin.auth).send(body).expect(400);
        expect(res.body).toEqual(err(400, message, { [field]: [message] }));
      }
    });

    it('400 for over-long fields, unknown fields and bad values', async () => {
      let res = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: 'x'.repeat(201), content: 'b' })
        .expect(400);
      expect(res.body).toEqual(err(400, 'Title must be at most 200 characters', { title: ['Title must be at most 200 characters'] }));
      res = await t.http.post(api('/blog/posts')).set(admin.auth).send({ title: 't', content: 'b', authorId: 5 }).expect(400);
      expect(res.body.errors).toEqual({ authorId: ['property authorId should not exist'] });
      res = await t.http.post(api('/blog/posts')).set(admin.auth).send({ title: 't', content: 'b', status: 'LIVE' }).expect(400);
      expect(res.body.message).toBe('Status must be one of DRAFT, PENDING_REVIEW, PUBLISHED, REJECTED, ARCHIVED, PRIVATE');
      res = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: 't', content: 'b', thumbnail: 'javascript:alert(1)' })
        .expect(400);
      expect(res.body.message).toBe('Thumbnail must be an http(s) URL or a path starting with /');
      res = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: 't', content: 'x'.repeat(200001) })
        .expect(400);
      expect(res.body.message).toBe('Content must be at most 200000 characters');
    });

    it('creates a post: trimmed fields, rendered HTML, reading time, PUBLISHED sets publishedAt', async () => {
      const token = uid();
      const content = `## Intro\n\n${Array(450).fill('word').join(' ')}\n\n<script>alert(1)</script>`;
      const res = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({
          title: `  Trimmed ${token}  `,
          slug: ` trimmed-${token} `,
          summary: '  A summary.  ',
          content: `  ${content}  `,
          thumbnail: ' /images/thumb.webp ',
          status: 'PUBLISHED',
          isFeatured: true,
          tagSlugs: [tagSlug],
        })
        .expect(201);
      expect(res.body).toEqual(
        ok(
          {
            id: expect.any(Number),
            title: `Trimmed ${token}`,
            slug: `trimmed-${token}`,
            summary: 'A summary.',
            content,
            contentHtml: `<h3 id="intro">Intro</h3>\n<p>${Array(450).fill('word').join(' ')}</p>\n`,
            status: 'PUBLISHED',
            thumbnail: '/images/thumb.webp',
            publishedAt: ISO,
            createdAt: ISO,
            updatedAt: ISO,
            userId: admin.id,
            authorName: admin.fullName,
            authorEmail: admin.email,
            author: { id: admin.id, slug: admin.slug, fullName: admin.fullName, avatar: null, bio: null },
            tags: [{ id: tagId, name: `Tag ${tagSlug}`, slug: tagSlug, color: '#112233' }],
            likeCount: 0,
            viewCount: 0,
            commentCount: 0,
            isFeatured: true,
            readingTime: 3,
            // '##', 'Intro', 450 words and the script tag's one run of non-space characters.
            wordCount: 453,
            version: 1,
            seo: { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null },
            scheduledAt: null,
            requestedPublishAt: null,
            // The post lifecycle's answer for an admin on a PUBLISHED post (post-transitions.spec.ts walks every case).
            allowedActions: ['edit', 'delete', 'setStatus:DRAFT', 'setStatus:PRIVATE', 'setStatus:ARCHIVED'],
          },
          'Post created.',
          201,
        ),
      );
    });

    it('defaults to DRAFT without publishedAt', async () => {
      const res = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Plain ${uid()}`, content: 'c' })
        .expect(201);
      expect(res.body.data).toMatchObject({
        status: 'DRAFT',
        publishedAt: null,
        isFeatured: false,
        tags: [],
        summary: null,
        thumbnail: null,
      });
    });

    it('derives the slug from the title (accents and đ removed) and makes it unique with -2, -3', async () => {
      const token = uid();
      const slugs: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await t.http
          .post(api('/blog/posts'))
          .set(admin.auth)
          .send({ title: `Xin chào Đà Nẵng ${token}!`, content: 'c' })
          .expect(201);
        slugs.push(res.body.data.slug);
      }
      expect(slugs).toEqual([`xin-chao-da-nang-${token}`, `xin-chao-da-nang-${token}-2`, `xin-chao-da-nang-${token}-3`]);
    });

    it('409 for a slug already in use', async () => {
      const post = await adminPost();
      const res = await t.http.post(api('/blog/posts')).set(admin.auth).send({ title: 'Again', content: 'c', slug: post.slug }).expect(409);
      const taken = `Slug "${post.slug}" is already used by another post. Choose another slug.`;
      expect(res.body).toEqual(err(409, taken, { slug: [taken] }));
    });

    it('skips unknown and inactive tags with a warning', async () => {
      const inactive = `inactive-${uid()}`;
      await t.http
        .post(api('/blog/tags'))
        .set(admin.auth)
        .send({ name: `Tag ${inactive}`, slug: inactive, isActive: false })
        .expect(201);
      const res = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Tagged ${uid()}`, content: 'c', tagSlugs: [tagSlug, inactive, 'no-such-tag', tagSlug] })
        .expect(201);
      expect(res.body.message).toBe(`Post created. Skipped unknown or inactive tags: ${inactive}, no-such-tag`);
      expect(res.body.data.tags.map((tag: { slug: string }) => tag.slug)).toEqual([tagSlug]);
    });

    it('announces a published post to the page caches', async () => {
      events.length = 0;
      const post = await adminPost();
      expect(events).toEqual([{ kind: 'post', postId: post.id, slugs: [post.slug] }]);
      events.length = 0;
      // A draft: no public page shows it; only the back office's post counts are told.
      const draft = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Quiet ${uid()}`, content: 'c' })
        .expect(201);
      expect(events).toEqual([{ kind: 'unpublished-post', postId: draft.body.data.id }]);
    });
  });

  describe('GET /blog/posts/{id}', () => {
    it('401 without a session, 400 for a malformed id, 404 for an unknown one', async () => {
      expect((await t.http.get(api('/blog/posts/1')).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
      expect((await t.http.get(api('/blog/posts/abc')).set(admin.auth).expect(400)).body).toEqual(
        err(400, 'Invalid id: it must be a positive whole number.'),
      );
      expect((await t.http.get(api('/blog/posts/999999')).set(admin.auth).expect(404)).body).toEqual(
        err(404, 'Post with id 999999 not found'),
      );
    });

    it('admins read any post, authors their own, others get 403', async () => {
      const draft = await authorDraft();
      const own = await t.http
        .get(api(`/blog/posts/${draft.id}`))
        .set(author.auth)
        .expect(200);
      expect(own.body.data).toMatchObject({
        id: draft.id,
        status: 'DRAFT',
        authorEmail: author.email,
        userId: author.id,
        readingTime: 1,
        wordCount: 3,
      });
      await t.http
        .get(api(`/blog/posts/${draft.id}`))
        .set(admin.auth)
        .expect(200);
      for (const user of [otherAuthor, reader]) {
        const res = await t.http
          .get(api(`/blog/posts/${draft.id}`))
          .set(user.auth)
          .expect(403);
        expect(res.body).toEqual(err(403, 'You do not have permission to access this post.'));
      }
    });
  });

  describe('GET /blog/posts/admin/all and GET /blog/posts', () => {
    it('401, then 403 for authors and readers', async () => {
      for (const path of ['/blog/posts/admin/all', '/blog/posts']) {
        expect((await t.http.get(api(path)).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
        for (const user of [author, reader]) {
          expect((await t.http.get(api(path)).set(user.auth).expect(403)).body).toEqual(
            err(403, 'You do not have permission to access posts.'),
          );
        }
      }
    });

    it('400 for an unknown sort field, direction or status', async () => {
      let res = await t.http.get(api('/blog/posts/admin/all?sortBy=author')).set(admin.auth).expect(400);
      expect(res.body.message).toBe('sortBy must be one of createdAt, updatedAt, publishedAt, title, viewCount');
      res = await t.http.get(api('/blog/posts?sortDir=up')).set(admin.auth).expect(400);
      expect(res.body.message).toBe('sortDir must be asc or desc');
      res = await t.http.get(api('/blog/posts?status=LIVE')).set(admin.auth).expect(400);
      expect(res.body.message).toBe('Status must be one of DRAFT, PENDING_REVIEW, PUBLISHED, REJECTED, ARCHIVED, PRIVATE');
    });

    it('a held total follows every change at once: drafts created, moved to PRIVATE, renamed, published and deleted', async () => {
      // Each total is held per filter (status, search); the search names only this test's posts, so
      // other suites' posts (the run shares one database) cannot move these counts. Pages of one
      // row: a held total of 2 still 'fits' a page of 1, so only the change's notice makes it 1.
      const token = uid();
      const total = async (query: string) =>
        (
          await t.http
            .get(api(`/blog/posts/admin/all?${query}&size=1`))
            .set(admin.auth)
            .expect(200)
        ).body.data.totalElements as number;
      const [drafts, privates, published, found] = [
        `status=DRAFT&search=${token}`,
        `status=PRIVATE&search=${token}`,
        `status=PUBLISHED&search=${token}`,
        `search=${token}`,
      ];
      const create = async () =>
        (
          await t.http
            .post(api('/blog/posts'))
            .set(admin.auth)
            .send({ title: `Held ${token} ${uid()}`, content: 'c' })
            .expect(201)
        ).body.data as { id: number };
      const [first, second] = [await create(), await create()];
      expect([await total(drafts), await total(privates), await total(found)]).toEqual([2, 0, 2]);
      // Statuses no reader sees: the move still reaches the back office's totals.
      await t.http
        .put(api(`/blog/posts/${first.id}`))
        .set(admin.auth)
        .send({ status: 'PRIVATE' })
        .expect(200);
      expect([await total(drafts), await total(privates)]).toEqual([1, 1]);
      await t.http
        .put(api(`/blog/posts/${first.id}`))
        .set(admin.auth)
        .send({ title: `Renamed ${uid()}`, slug: `renamed-${uid()}` })
        .expect(200);
      expect([await total(found), await total(privates)]).toEqual([1, 0]);
      await t.http
        .put(api(`/blog/posts/${second.id}`))
        .set(admin.auth)
        .send({ status: 'PUBLISHED' })
        .expect(200);
      expect([await total(drafts), await total(published), await total(found)]).toEqual([0, 1, 1]);
      await t.http
        .delete(api(`/blog/posts/${second.id}`))
        .set(admin.auth)
        .expect(204);
      expect([await total(published), await total(found)]).toEqual([0, 0]);
    });

    it('lists every status with search, filter, sort and the admin paging fields', async () => {
      const token = uid();
      const a = await adminPost({ title: `Zeta ${token}`, slug: `zeta-${token}` });
      const b = await adminPost({ title: `Alpha ${token}`, slug: `alpha-${token}`, status: 'DRAFT' });
      const c = await authorDraft(author, { title: `Mid ${token}`, slug: `mid-${token}` });

      let res = await t.http
        .get(api(`/blog/posts/admin/all?search=${token}&sortBy=title&sortDir=asc&size=2`))
        .set(admin.auth)
        .expect(200);
      expect(res.body.data).toMatchObject({
        totalElements: 3,
        totalPages: 2,
        number: 0,
        currentPage: 0,
        size: 2,
        first: true,
        last: false,
        empty: false,
        numberOfElements: 2,
        pageable: { pageNumber: 0, pageSize: 2, offset: 0, paged: true, unpaged: false },
      });
      expect(res.body.data.content.map((p: { id: number }) => p.id)).toEqual([b.id, c.id]);
      expect(res.body.data.posts).toEqual(res.body.data.content);
      expect(res.body.data.content[1]).toEqual({
        id: c.id,
        title: `Mid ${token}`,
        slug: `mid-${token}`,
        summary: null,
        status: 'DRAFT',
        thumbnail: null,
        publishedAt: null,
        createdAt: ISO,
        updatedAt: ISO,
        userId: author.id,
        authorName: author.fullName,
        authorEmail: author.email,
        tags: [{ id: tagId, name: `Tag ${tagSlug}`, slug: tagSlug, color: '#112233' }],
        likeCount: 0,
        viewCount: 0,
        commentCount: 0,
        isFeatured: false,
        readingTime: 1,
        wordCount: 3,
        version: 1,
        seo: { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null },
        scheduledAt: null,
        requestedPublishAt: null,
        lastRejection: null,
        // An admin's actions on an author's DRAFT (never 'submit': that is its author's).
        allowedActions: ['edit', 'delete', 'preview', 'autosave', 'setStatus:PUBLISHED', 'setStatus:PRIVATE', 'setStatus:ARCHIVED'],
      });

      res = await t.http
        .get(api(`/blog/posts?search=${token}&status=published`))
        .set(admin.auth)
        .expect(200);
      expect(res.body.data.content.map((p: { id: number }) => p.id)).toEqual([a.id]);

      res = await t.http
        .get(api(`/blog/posts?search=${token}&sortBy=createdAt&sortDir=desc&page=1&size=2`))
        .set(admin.auth)
        .expect(200);
      expect(res.body.data).toMatchObject({ number: 1, currentPage: 1, last: true, first: false, numberOfElements: 1 });
      expect(res.body.data.content.map((p: { id: number }) => p.id)).toEqual([a.id]);
    });
    it('a status page in order with its exact total; publishedAt puts never-published posts last both ways', async () => {
      const token = uid();
      const made = [
        await adminPost({ title: `Order ${token} 1`, status: 'DRAFT' }),
        await adminPost({ title: `Order ${token} 2`, status: 'DRAFT' }),
      ];
      made.push(await adminPost({ title: `Order ${token} 3`, status: 'DRAFT' }), await adminPost({ title: `Order ${token} 4` }));
      // Two drafts written in the same instant: the id breaks the tie.
      await t.app
        .get(DataSource)
        .query(`UPDATE posts SET created_at = $2 WHERE id = ANY($1::int[])`, [[made[0].id, made[1].id], new Date(Date.now() - 60_000)]);
      const ids = async (query: string) => {
        const res = await t.http
          .get(api(`/blog/posts/admin/all?search=${token}&${query}`))
          .set(admin.auth)
          .expect(200);
        return { ids: res.body.data.content.map((p: { id: number }) => p.id), total: res.body.data.totalElements };
      };
      expect(await ids('status=DRAFT')).toEqual({ ids: [made[2].id, made[1].id, made[0].id], total: 3 });
      expect(await ids('status=DRAFT&sortDir=asc')).toEqual({ ids: [made[0].id, made[1].id, made[2].id], total: 3 });
      expect(await ids('status=DRAFT&size=1&page=2')).toEqual({ ids: [made[0].id], total: 3 });
      expect((await ids('sortBy=publishedAt&sortDir=desc')).ids).toEqual([made[3].id, made[2].id, made[1].id, made[0].id]);
      expect((await ids('sortBy=publishedAt&sortDir=asc')).ids).toEqual([made[3].id, made[0].id, made[1].id, made[2].id]);
    });

    it('a status page is read from an index in order instead of sorting the status', async () => {
      // The page query's shape (the list's SQL); with scans and sorts priced out, as on a large table.
      const plan = await t.app.get(DataSource).transaction(async (manager) => {
        await manager.query('SET LOCAL enable_seqscan = off');
        await manager.query('SET LOCAL enable_sort = off');
        const rows = (await manager.query(
          `EXPLAIN SELECT p.id FROM posts p INNER JOIN users a ON a.id = p.author_id WHERE p.status = $1 ORDER BY p.created_at DESC, p.id DESC LIMIT 10`,
          ['PUBLISHED'],
        )) as { 'QUERY PLAN': string }[];
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      // On this small shared table the planner may also walk IDX_posts_created and filter; either way
      // the page comes from an index in order, never from sorting every post of the status.
      expect(plan).toMatch(/Index Scan Backward using "IDX_posts_(status_)?created"/);
      expect(plan).not.toMatch(/\bSort\b/);
    });
  });

  describe('PUT /blog/posts/{id}', () => {
    it('401, 403 for readers and other authors, 404 unknown', async () => {
      const draft = await authorDraft();
      expect(
        (
          await t.http
            .put(api(`/blog/posts/${draft.id}`))
            .send({})
            .expect(401)
        ).body,
      ).toEqual(err(401, AUTH_REQUIRED_SAVE));
      for (const user of [reader, otherAuthor]) {
        const res = await t.http
          .put(api(`/blog/posts/${draft.id}`))
          .set(user.auth)
          .send({ title: 'Mine now' })
          .expect(403);
        expect(res.body).toEqual(err(403, 'You do not have permission to update this post.'));
      }
      expect((await t.http.put(api('/blog/posts/999999')).set(admin.auth).send({}).expect(404)).body).toEqual(
        err(404, 'Post with id 999999 not found'),
      );
    });

    it('updates partially; an empty title or slug is refused', async () => {
      const post = await adminPost({ summary: 'Keep me' });
      let res = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ content: '# New' })
        .expect(200);
      expect(res.body.message).toBe('Post updated.');
      expect(res.body.data).toMatchObject({
        title: post.title,
        slug: post.slug,
        summary: 'Keep me',
        content: '# New',
        contentHtml: '<h2 id="new">New</h2>\n',
        wordCount: 2,
      });
      expect(res.body.data.tags).toEqual(post.tags);
      res = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ title: ' ' })
        .expect(400);
      expect(res.body.message).toBe('Title is required');
      res = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ slug: '' })
        .expect(400);
      expect(res.body.message).toBe('Slug is required');
      res = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ tagSlugs: [] })
        .expect(200);
      expect(res.body.data.tags).toEqual([]);
    });

    it('wordCount: counted on create and on every content change (any Unicode space separates), kept when the content is left out, in lists too', async () => {
      const draft = await authorDraft(author, { content: 'one\u00a0two\u3000three\tfour\n\n five\u2028six' });
      expect(draft).toMatchObject({ wordCount: 6, readingTime: 1 });
      const long = Array(401).fill('w').join(' ');
      let res = await t.http
        .put(api(`/blog/posts/author/${draft.id}`))
        .set(author.auth)
        .send({ content: long })
        .expect(200);
      expect(res.body.data).toMatchObject({ wordCount: 401, readingTime: 3 });
      res = await t.http
        .put(api(`/blog/posts/author/${draft.id}`))
        .set(author.auth)
        .send({ title: `Renamed ${uid()}`, slug: `renamed-${uid()}` })
        .expect(200);
      expect(res.body.data).toMatchObject({ wordCount: 401, readingTime: 3 });
      res = await t.http
        .put(api(`/blog/posts/${draft.id}`))
        .set(admin.auth)
        .send({ content: 'Now three words' })
        .expect(200);
      expect(res.body.data).toMatchObject({ wordCount: 3, readingTime: 1 });

      expect(
        (
          await t.http
            .get(api(`/blog/posts/${draft.id}`))
            .set(author.auth)
            .expect(200)
        ).body.data,
      ).toMatchObject({ wordCount: 3 });
      const mine = await t.http.get(api('/blog/posts/author/my-posts?status=DRAFT&size=1000')).set(author.auth).expect(200);
      expect(mine.body.data.content.find((p: { id: number }) => p.id === draft.id)).toMatchObject({ wordCount: 3, readingTime: 1 });
      const all = await t.http
        .get(api(`/blog/posts/admin/all?search=${encodeURIComponent(res.body.data.title)}`))
        .set(admin.auth)
        .expect(200);
      expect(all.body.data.content).toEqual([expect.objectContaining({ id: draft.id, wordCount: 3 })]);
    });

    it('admin status changes follow the allowed transitions; illegal ones are 409', async () => {
      const post = await adminPost({ status: 'DRAFT' });
      let res = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'PENDING_REVIEW' })
        .expect(409);
      expect(res.body).toEqual(err(409, 'Cannot change the post status from DRAFT to PENDING_REVIEW. Authors submit posts for review.'));
      res = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'REJECTED' })
        .expect(409);
      expect(res.body.message).toBe(
        'Cannot change the post status from DRAFT to REJECTED. Reject a post through its review, with a reason.',
      );

      events.length = 0;
      res = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'PUBLISHED' })
        .expect(200);
      expect(res.body.data).toMatchObject({ status: 'PUBLISHED', publishedAt: ISO });
      const publishedAt = res.body.data.publishedAt;
      expect(events).toEqual([{ kind: 'post', postId: post.id, slugs: [post.slug] }]);
      await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200);

      events.length = 0;
      res = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'ARCHIVED', slug: `${post.slug}-old` })
        .expect(200);
      expect(res.body.data.status).toBe('ARCHIVED');
      expect(events).toEqual([{ kind: 'post', postId: post.id, slugs: [post.slug, `${post.slug}-old`] }]);
      await t.http.get(api(`/blog/posts/public/${post.slug}-old`)).expect(404);

      res = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'PUBLISHED' })
        .expect(200);
      expect(res.body.data.publishedAt).toBe(publishedAt);
    });

    it('authors edit their DRAFT posts (kept DRAFT, status and isFeatured ignored) but not PUBLISHED ones', async () => {
      const draft = await authorDraft();
      let res = await t.http
        .put(api(`/blog/posts/${draft.id}`))
        .set(author.auth)
        .send({ title: 'Renamed', status: 'PUBLISHED', isFeatured: true })
        .expect(200);
      expect(res.body.message).toBe('Post saved as a draft. Submit it for review to publish it.');
      expect(res.body.data).toMatchObject({ title: 'Renamed', status: 'DRAFT', isFeatured: false, publishedAt: null });

      await t.http
        .put(api(`/blog/posts/${draft.id}`))
        .set(admin.auth)
        .send({ status: 'PUBLISHED' })
        .expect(200);
      res = await t.http
        .put(api(`/blog/posts/${draft.id}`))
        .set(author.auth)
        .send({ title: 'Sneaky' })
        .expect(409);
      expect(res.body).toEqual(
        err(
          409,
          'This post is PUBLISHED and can no longer be edited by its author. Only DRAFT and REJECTED posts can be edited; ask an administrator for changes.',
        ),
      );
    });
  });

  describe('DELETE /blog/posts/{id}', () => {
    it('401 and 403 for readers', async () => {
      const draft = await authorDraft();
      expect((await t.http.delete(api(`/blog/posts/${draft.id}`)).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
      expect(
        (
          await t.http
            .delete(api(`/blog/posts/${draft.id}`))
            .set(reader.auth)
            .expect(403)
        ).body,
      ).toEqual(err(403, 'You do not have permission to delete this post.'));
    });

    it('authors delete their own drafts only; admins delete any post', async () => {
      const draft = await authorDraft();
      expect(
        (
          await t.http
            .delete(api(`/blog/posts/${draft.id}`))
            .set(otherAuthor.auth)
            .expect(403)
        ).body,
      ).toEqual(err(403, 'You do not have permission to delete this post.'));
      const res = await t.http
        .delete(api(`/blog/posts/${draft.id}`))
        .set(author.auth)
        .expect(204);
      expect(res.text).toBe('');
      await t.http
        .get(api(`/blog/posts/${draft.id}`))
        .set(admin.auth)
        .expect(404);

      const published = await authorDraft();
      await t.http
        .put(api(`/blog/posts/${published.id}`))
        .set(admin.auth)
        .send({ status: 'PUBLISHED' })
        .expect(200);
      await t.http
        .delete(api(`/blog/posts/${published.id}`))
        .set(author.auth)
        .expect(403);
      events.length = 0;
      await t.http
        .delete(api(`/blog/posts/${published.id}`))
        .set(admin.auth)
        .expect(204);
      expect(events).toEqual([{ kind: 'post', postId: published.id, slugs: [published.slug] }]);
      await t.http.get(api(`/blog/posts/public/${published.slug}`)).expect(404);
      await t.http
        .delete(api(`/blog/posts/${published.id}`))
        .set(admin.auth)
        .expect(404);
    });
  });

  describe('author endpoints', () => {
    it('POST /blog/posts/author/create: 401, 403 for readers, 400 checks, always a DRAFT', async () => {
      expect((await t.http.post(api('/blog/posts/author/create')).send({}).expect(401)).body).toEqual(err(401, AUTH_REQUIRED_SAVE));
      expect((await t.http.post(api('/blog/posts/author/create')).set(reader.auth).send({}).expect(403)).body).toEqual(
        err(403, 'You do not have permission to create posts.'),
      );
      const bad = await t.http.post(api('/blog/posts/author/create')).set(author.auth).send({ title: 'Only a title' }).expect(400);
      expect(bad.body).toEqual(err(400, 'Content is required', { content: ['Content is required'] }));
      const token = uid();
      const res = await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: `Mine ${token}`, content: 'Hello', status: 'PUBLISHED', isFeatured: true })
        .expect(201);
      expect(res.body.message).toBe('Post saved as a draft. Submit it for review to publish it.');
      expect(res.body.data).toMatchObject({
        slug: `mine-${token}`,
        status: 'DRAFT',
        isFeatured: false,
        publishedAt: null,
        userId: author.id,
        authorEmail: author.email,
      });
      await t.http.get(api(`/blog/posts/public/mine-${token}`)).expect(404);
    });

    it('PUT /blog/posts/author/{id}: own DRAFT/REJECTED only', async () => {
      const draft = await authorDraft();
      expect(
        (
          await t.http
            .put(api(`/blog/posts/author/${draft.id}`))
            .send({})
            .expect(401)
        ).body,
      ).toEqual(err(401, AUTH_REQUIRED_SAVE));
      expect(
        (
          await t.http
            .put(api(`/blog/posts/author/${draft.id}`))
            .set(reader.auth)
            .send({})
            .expect(403)
        ).body,
      ).toEqual(err(403, 'You do not have permission to update this post.'));
      expect(
        (
          await t.http
            .put(api(`/blog/posts/author/${draft.id}`))
            .set(otherAuthor.auth)
            .send({ title: 'x' })
            .expect(403)
        ).body,
      ).toEqual(err(403, 'You do not have permission to update this post.'));
      expect(
        (
          await t.http
            .put(api(`/blog/posts/author/${draft.id}`))
            .set(author.auth)
            .send({ slug: 'Nope!' })
            .expect(400)
        ).body.message,
      ).toBe('Invalid slug format: Slug must contain only lowercase letters, numbers, and hyphens.');
      const res = await t.http
        .put(api(`/blog/posts/author/${draft.id}`))
        .set(author.auth)
        .send({ summary: 'Now with a summary' })
        .expect(200);
      expect(res.body.data).toMatchObject({ summary: 'Now with a summary', status: 'DRAFT', title: draft.title });
      await t.http.put(api('/blog/posts/author/999999')).set(author.auth).send({}).expect(404);

      await t.http
        .post(api(`/blog/posts/author/${draft.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      const pending = await t.http
        .put(api(`/blog/posts/author/${draft.id}`))
        .set(author.auth)
        .send({ title: 'Edit while pending' })
        .expect(409);
      expect(pending.body.message).toBe(
        'This post is PENDING_REVIEW and can no longer be edited by its author. Only DRAFT and REJECTED posts can be edited; ask an administrator for changes.',
      );
    });

    it('GET /blog/posts/author/my-posts: own posts only, status filter, size up to 1000', async () => {
      expect((await t.http.get(api('/blog/posts/author/my-posts')).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
      expect((await t.http.get(api('/blog/posts/author/my-posts')).set(reader.auth).expect(403)).body).toEqual(
        err(403, 'You do not have permission to access posts.'),
      );
      const writer = await createAuthor(t);
      const first = await authorDraft(writer);
      const second = await authorDraft(writer);
      await t.http
        .post(api(`/blog/posts/author/${second.id}/submit-for-review`))
        .set(writer.auth)
        .expect(200);
      await authorDraft(otherAuthor);

      let res = await t.http.get(api('/blog/posts/author/my-posts?size=1000')).set(writer.auth).expect(200);
      expect(res.body.data).toMatchObject({ totalElements: 2, size: 1000, currentPage: 0 });
      expect(res.body.data.content.map((p: { id: number }) => p.id)).toEqual([second.id, first.id]);
      res = await t.http.get(api('/blog/posts/author/my-posts?status=DRAFT')).set(writer.auth).expect(200);
      expect(res.body.data.content.map((p: { id: number }) => p.id)).toEqual([first.id]);
      res = await t.http.get(api('/blog/posts/author/my-posts?size=5000')).set(writer.auth).expect(200);
      expect(res.body.data.size).toBe(1000);
      await t.http.get(api('/blog/posts/author/my-posts?status=NOPE')).set(writer.auth).expect(400);
    });

    it("GET /blog/posts/author/my-posts/counts: the caller's posts per status and in all, 0 for an empty status", async () => {
      expect((await t.http.get(api('/blog/posts/author/my-posts/counts')).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
      expect((await t.http.get(api('/blog/posts/author/my-posts/counts')).set(reader.auth).expect(403)).body).toEqual(
        err(403, 'You do not have permission to access posts.'),
      );
      const writer = await createAuthor(t);
      let res = await t.http.get(api('/blog/posts/author/my-posts/counts')).set(writer.auth).expect(200);
      expect(res.body.data).toEqual({ DRAFT: 0, PENDING_REVIEW: 0, PUBLISHED: 0, REJECTED: 0, ARCHIVED: 0, PRIVATE: 0, total: 0 });
      await authorDraft(writer);
      await authorDraft(writer);
      const submitted = await authorDraft(writer);
      await t.http
        .post(api(`/blog/posts/author/${submitted.id}/submit-for-review`))
        .set(writer.auth)
        .expect(200);
      await authorDraft(otherAuthor);
      res = await t.http.get(api('/blog/posts/author/my-posts/counts')).set(writer.auth).expect(200);
      expect(res.body.data).toEqual({ DRAFT: 2, PENDING_REVIEW: 1, PUBLISHED: 0, REJECTED: 0, ARCHIVED: 0, PRIVATE: 0, total: 3 });
      // The same numbers as the list's own totals, status by status.
      const listed = await t.http.get(api('/blog/posts/author/my-posts?status=DRAFT&size=1')).set(writer.auth).expect(200);
      expect(listed.body.data.totalElements).toBe(res.body.data.DRAFT);
    });

    it('POST /blog/posts/author/{id}/submit-for-review: DRAFT/REJECTED → PENDING_REVIEW, else 409', async () => {
      const draft = await authorDraft();
      expect((await t.http.post(api(`/blog/posts/author/${draft.id}/submit-for-review`)).expect(401)).body).toEqual(
        err(401, AUTH_REQUIRED),
      );
      expect(
        (
          await t.http
            .post(api(`/blog/posts/author/${draft.id}/submit-for-review`))
            .set(reader.auth)
            .expect(403)
        ).body,
      ).toEqual(err(403, 'You do not have permission to update this post.'));
      expect(
        (
          await t.http
            .post(api(`/blog/posts/author/${draft.id}/submit-for-review`))
            .set(otherAuthor.auth)
            .expect(403)
        ).body,
      ).toEqual(err(403, 'You do not have permission to update this post.'));
      await t.http.post(api('/blog/posts/author/0/submit-for-review')).set(author.auth).expect(400);
      await t.http.post(api('/blog/posts/author/999999/submit-for-review')).set(author.auth).expect(404);
      const res = await t.http
        .post(api(`/blog/posts/author/${draft.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        message: 'Post submitted for review.',
        data: { id: draft.id, status: 'PENDING_REVIEW' },
      });
      const again = await t.http
        .post(api(`/blog/posts/author/${draft.id}/submit-for-review`))
        .set(author.auth)
        .expect(409);
      expect(again.body).toEqual(err(409, 'Only DRAFT or REJECTED posts can be submitted for review; this post is PENDING_REVIEW.'));
    });

    it("the author endpoints act for the post's author only: an admin gets PUT's 403 on someone else's submit-for-review too", async () => {
      const draft = await authorDraft();
      const put = await t.http
        .put(api(`/blog/posts/author/${draft.id}`))
        .set(admin.auth)
        .send({ summary: 'by the admin' })
        .expect(403);
      const submit = await t.http
        .post(api(`/blog/posts/author/${draft.id}/submit-for-review`))
        .set(admin.auth)
        .expect(403);
      expect(put.body).toEqual(err(403, 'You do not have permission to update this post.'));
      expect(submit.body).toEqual(err(403, 'You do not have permission to update this post.'));
      // Nothing moved: the draft is still the author's to submit.
      expect(
        (
          await t.http
            .get(api(`/blog/posts/${draft.id}`))
            .set(admin.auth)
            .expect(200)
        ).body.data,
      ).toMatchObject({ status: 'DRAFT', summary: draft.summary });
      await t.http
        .post(api(`/blog/posts/author/${draft.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);

      // An admin's own draft is theirs: both author endpoints accept it.
      const own = await authorDraft(admin);
      await t.http
        .put(api(`/blog/posts/author/${own.id}`))
        .set(admin.auth)
        .send({ summary: 'mine' })
        .expect(200);
      const mine = await t.http
        .post(api(`/blog/posts/author/${own.id}/submit-for-review`))
        .set(admin.auth)
        .expect(200);
      expect(mine.body.data).toMatchObject({ id: own.id, status: 'PENDING_REVIEW' });
    });
  });

  describe('slug history: GET /blog/posts/public/moved/{slug}', () => {
    it("a published post's earlier slugs lead to its current one; the read by slug stays 404 for them; sitemap lists only the current slug", async () => {
      const post = await adminPost();
      const second = `second-${uid()}`;
      const third = `third-${uid()}`;
      expect((await t.http.get(api(`/blog/posts/public/moved/${post.slug}`)).expect(404)).body).toEqual(
        err(404, `Post with slug "${post.slug}" not found`),
      );
      await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ slug: second })
        .expect(200);
      await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ slug: third })
        .expect(200);
      for (const old of [post.slug, second]) {
        expect((await t.http.get(api(`/blog/posts/public/moved/${old}`)).expect(200)).body).toEqual({
          success: true,
          status: 200,
          message: 'OK',
          errors: null,
          data: { slug: third },
        });
        await t.http.get(api(`/blog/posts/public/${old}`)).expect(404);
      }
      const sitemap = await sitemapSlugs(t, 'posts');
      expect(sitemap).toContain(third);
      expect(sitemap).not.toContain(second);
      expect(sitemap).not.toContain(post.slug);

      // Another post taking an old slug owns it: no redirect any more.
      await adminPost({ slug: second });
      await t.http.get(api(`/blog/posts/public/moved/${second}`)).expect(404);
      // An unpublished post is not led to.
      await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'DRAFT' })
        .expect(200);
      await t.http.get(api(`/blog/posts/public/moved/${post.slug}`)).expect(404);
    });

    it("an author's draft renamed before publication leads there once published", async () => {
      const draft = await authorDraft();
      const renamed = `renamed-${uid()}`;
      await t.http
        .put(api(`/blog/posts/author/${draft.id}`))
        .set(author.auth)
        .send({ slug: renamed })
        .expect(200);
      await t.http.get(api(`/blog/posts/public/moved/${draft.slug}`)).expect(404);
      await t.http
        .put(api(`/blog/posts/${draft.id}`))
        .set(admin.auth)
        .send({ status: 'PUBLISHED' })
        .expect(200);
      expect((await t.http.get(api(`/blog/posts/public/moved/${draft.slug}`)).expect(200)).body.data).toEqual({ slug: renamed });
    });

    it('404 for malformed slugs without a lookup', async () => {
      for (const slug of ['Bad_Slug', 'x'.repeat(300)]) {
        expect((await t.http.get(api(`/blog/posts/public/moved/${slug}`)).expect(404)).body).toEqual(
          err(404, `Post with slug "${slug}" not found`),
        );
      }
    });
  });

  describe('public endpoints', () => {
    it('GET /blog/posts/public: published cards newest first, no drafts, paging and size clamps', async () => {
      const older = await adminPost({ summary: 'Older one' });
      const draft = await authorDraft();
      const newer = await adminPost();
      const res = await t.http.get(api('/blog/posts/public?size=100')).expect(200);
      const ids = res.body.data.content.map((card: { id: number }) => card.id);
      expect(ids).toContain(older.id);
      expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
      expect(ids).not.toContain(draft.id);
      const card = res.body.data.content.find((c: { id: number }) => c.id === older.id);
      expect(card).toEqual({
        id: older.id,
        title: older.title,
        slug: older.slug,
        summary: 'Older one',
        thumbnail: null,
        likeCount: 0,
        viewCount: 0,
        commentCount: 0,
        isFeatured: false,
        publishedAt: older.publishedAt,
        readingTime: 1,
        authorId: admin.id,
        authorName: admin.fullName,
        authorAvatar: null,
        authorSlug: admin.slug,
        tags: [{ id: tagId, name: `Tag ${tagSlug}`, slug: tagSlug, color: '#112233' }],
        canonicalUrl: null,
      });
      const dates = res.body.data.content.map((c: { publishedAt: string }) => c.publishedAt);
      expect([...dates].sort().reverse()).toEqual(dates);

      expect((await t.http.get(api('/blog/posts/public')).expect(200)).body.data.size).toBe(10);
      expect((await t.http.get(api('/blog/posts/public?size=500')).expect(200)).body.data.size).toBe(100);
      expect((await t.http.get(api('/blog/posts/public?size=0')).expect(200)).body.data.size).toBe(1);
      expect((await t.http.get(api('/blog/posts/public?page=-1')).expect(400)).body.message).toBe('page must not be negative');
      const far = await t.http.get(api('/blog/posts/public?page=100000')).expect(200);
      expect(far.body.data).toMatchObject({ content: [], empty: true, last: true, number: 100000 });
    });

    it('GET /blog/posts/public/latest-stories: at most 6 published cards, newest first', async () => {
      await adminPost();
      const draft = await authorDraft();
      const res = await t.http.get(api('/blog/posts/public/latest-stories')).expect(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      expect(res.body.data.length).toBeLessThanOrEqual(6);
      expect(res.body.data.map((c: { id: number }) => c.id)).not.toContain(draft.id);
      const dates = res.body.data.map((c: { publishedAt: string }) => c.publishedAt);
      expect([...dates].sort().reverse()).toEqual(dates);
    });

    it('GET /blog/posts/public/{slug}: the whole post without the e-mail; unknown and unpublished slugs are 404', async () => {
      const post = await adminPost({ summary: 'S' });
      const res = await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200);
      const { authorEmail: _email, allowedActions: _actions, ...publicPost } = post;
      expect(res.body).toEqual(
        ok({ ...publicPost, author: { id: admin.id, slug: admin.slug, fullName: admin.fullName, avatar: null, bio: null } }),
      );
      expect(JSON.stringify(res.body)).not.toContain(admin.email);

      const draft = await authorDraft();
      expect((await t.http.get(api(`/blog/posts/public/${draft.slug}`)).expect(404)).body).toEqual(
        err(404, `Post with slug "${draft.slug}" not found`),
      );
      expect((await t.http.get(api('/blog/posts/public/no-such-post')).expect(404)).body).toEqual(
        err(404, 'Post with slug "no-such-post" not found'),
      );
    });

    it('GET /blog/posts/public/{slug}: answers are shared for a few seconds, but any change shows at once', async () => {
      const post = await adminPost();
      expect((await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200)).body.data.title).toBe(post.title);
      await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ title: 'Renamed at once' })
        .expect(200);
      expect((await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200)).body.data.title).toBe('Renamed at once');
      await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'ARCHIVED' })
        .expect(200);
      await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(404);
    });

    it('GET /blog/posts/public/tag/{slug}: published posts of an active tag, sorted, paged', async () => {
      const slug = `only-${uid()}`;
      await t.http
        .post(api('/blog/tags'))
        .set(admin.auth)
        .send({ name: `Only ${slug}`, slug })
        .expect(201);
      const a = await adminPost({ tagSlugs: [slug], title: `B title ${slug}` });
      const b = await adminPost({ tagSlugs: [slug], title: `A title ${slug}` });
      const c = await adminPost({ tagSlugs: [slug], title: `C title ${slug}` });
      await authorDraft(author, { tagSlugs: [slug] });

      let res = await t.http.get(api(`/blog/posts/public/tag/${slug}`)).expect(200);
      expect(res.body.data).toMatchObject({ totalElements: 3, totalPages: 1, size: 10, number: 0 });
      expect(res.body.data.content.map((p: { id: number }) => p.id)).toEqual([c.id, b.id, a.id]);
      res = await t.http.get(api(`/blog/posts/public/tag/${slug}?sort=title,asc&size=2&page=0`)).expect(200);
      expect(res.body.data.content.map((p: { id: number }) => p.id)).toEqual([b.id, a.id]);
      expect(res.body.data).toMatchObject({ totalPages: 2, last: false });
      res = await t.http.get(api(`/blog/posts/public/tag/${slug}?sort=publishedAt`)).expect(200);
      expect(res.body.data.content.map((p: { id: number }) => p.id)).toEqual([c.id, b.id, a.id]);

      expect((await t.http.get(api(`/blog/posts/public/tag/${slug}?sort=author,asc`)).expect(400)).body.message).toBe(
        'sort must be "field,direction": field one of createdAt, updatedAt, publishedAt, title, viewCount; direction asc or desc',
      );
      expect((await t.http.get(api('/blog/posts/public/tag/no-such-tag')).expect(404)).body).toEqual(
        err(404, 'Tag "no-such-tag" not found'),
      );
    });

    it('GET /blog/posts/public/sitemap (and its files): published posts and their active tags only', async () => {
      const post = await adminPost();
      const draft = await authorDraft();
      const posts = await sitemapEntries(t, 'posts');
      const slugs = posts.map((p) => p.slug);
      expect(slugs).toContain(post.slug);
      expect(slugs).not.toContain(draft.slug);
      expect(posts.find((p) => p.slug === post.slug)).toEqual({ slug: post.slug, updatedAt: post.updatedAt });
      expect(await sitemapSlugs(t, 'tags')).toContain(tagSlug);
    });

    it('GET /blog/authors: AUTHOR holders with published posts, with counts and no e-mail', async () => {
      const writer = await createAuthor(t, { fullName: `Writer ${uid()}`, bio: 'Bio' });
      const idle = await createAuthor(t);
      await authorDraft(idle);
      const one = await authorDraft(writer);
      const two = await authorDraft(writer);
      for (const p of [one, two])
        await t.http
          .put(api(`/blog/posts/${p.id}`))
          .set(admin.auth)
          .send({ status: 'PUBLISHED' })
          .expect(200);

      const res = await t.http.get(api('/blog/authors')).expect(200);
      const entry = res.body.data.find((a: { id: number }) => a.id === writer.id);
      expect(entry).toEqual({
        id: writer.id,
        slug: writer.slug,
        fullName: writer.fullName,
        avatar: null,
        bio: 'Bio',
        postCount: 2,
        totalLikes: 0,
        latestPostAt: ISO,
      });
      expect(res.body.data.map((a: { id: number }) => a.id)).not.toContain(idle.id);
      expect(res.body.data.map((a: { id: number }) => a.id)).not.toContain(admin.id);
      expect(JSON.stringify(res.body)).not.toContain('@test.inkwell.test');
    });

    it('never shows DRAFT, PENDING_REVIEW, REJECTED, ARCHIVED or PRIVATE posts on any public endpoint', async () => {
      const writer = await createAuthor(t);
      const hiddenTag = `hidden-${uid()}`;
      await t.http
        .post(api('/blog/tags'))
        .set(admin.auth)
        .send({ name: `Hidden ${hiddenTag}`, slug: hiddenTag })
        .expect(201);
      const draft = await authorDraft(writer, { tagSlugs: [hiddenTag] });
      const pending = await authorDraft(writer, { tagSlugs: [hiddenTag] });
      await t.http
        .post(api(`/blog/posts/author/${pending.id}/submit-for-review`))
        .set(writer.auth)
        .expect(200);
      const rejected = await authorDraft(writer, { tagSlugs: [hiddenTag] });
      await t.http
        .post(api(`/blog/posts/author/${rejected.id}/submit-for-review`))
        .set(writer.auth)
        .expect(200);
      await t.http
        .put(api(`/blog/posts/admin/${rejected.id}/review`))
        .set(admin.auth)
        .send({ status: 'REJECTED', rejectionReason: 'No' })
        .expect(200);
      const archived = await authorDraft(writer, { tagSlugs: [hiddenTag] });
      await t.http
        .put(api(`/blog/posts/${archived.id}`))
        .set(admin.auth)
        .send({ status: 'PUBLISHED' })
        .expect(200);
      await t.http
        .put(api(`/blog/posts/${archived.id}`))
        .set(admin.auth)
        .send({ status: 'ARCHIVED' })
        .expect(200);
      const privatePost = await adminPost({ status: 'PRIVATE', tagSlugs: [hiddenTag] });
      const hidden = [draft, pending, rejected, archived, privatePost];
      const hiddenIds = hidden.map((p) => p.id);
      const statuses = [];
      for (const p of hidden)
        statuses.push(
          (
            await t.http
              .get(api(`/blog/posts/${p.id}`))
              .set(admin.auth)
              .expect(200)
          ).body.data.status,
        );
      expect(statuses).toEqual(['DRAFT', 'PENDING_REVIEW', 'REJECTED', 'ARCHIVED', 'PRIVATE']);

      for (const p of hidden) await t.http.get(api(`/blog/posts/public/${p.slug}`)).expect(404);
      const listed: number[] = [];
      for (let page = 0; ; page += 1) {
        const res = await t.http.get(api(`/blog/posts/public?size=100&page=${page}`)).expect(200);
        listed.push(...res.body.data.content.map((c: { id: number }) => c.id));
        if (res.body.data.last) break;
      }
      expect(listed.filter((id) => hiddenIds.includes(id))).toEqual([]);
      const byTag = await t.http.get(api(`/blog/posts/public/tag/${hiddenTag}`)).expect(200);
      expect(byTag.body.data).toMatchObject({ content: [], totalElements: 0, empty: true });
      const latest = await t.http.get(api('/blog/posts/public/latest-stories')).expect(200);
      expect(latest.body.data.map((c: { id: number }) => c.id).filter((id: number) => hiddenIds.includes(id))).toEqual([]);
      const listedSlugs = await sitemapSlugs(t, 'posts');
      expect(hidden.filter((p) => listedSlugs.includes(p.slug))).toEqual([]);
      expect(await sitemapSlugs(t, 'tags')).not.toContain(hiddenTag);
      const published = await t.http.get(api('/blog/tags/publish')).expect(200);
      expect(published.body.data.map((tag: { slug: string }) => tag.slug)).not.toContain(hiddenTag);
      const tagRow = await t.http.get(api(`/blog/tags?search=${hiddenTag}`)).expect(200);
      expect(tagRow.body.data.content[0]).toMatchObject({ slug: hiddenTag, postCount: 0 });
      const authors = await t.http.get(api('/blog/authors')).expect(200);
      expect(authors.body.data.map((a: { id: number }) => a.id)).not.toContain(writer.id);
    });

    it('counts views in batches: by id on the API, by slug for the page cache', async () => {
      const post = await adminPost();
      await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200);
      await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200);
      const views = t.app.get(PostViewsService);
      views.count(post.slug);
      let res = await t.http
        .get(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .expect(200);
      expect(res.body.data.viewCount).toBe(0);
      await views.flush();
      res = await t.http
        .get(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .expect(200);
      expect(res.body.data.viewCount).toBe(3);

      const draft = await authorDraft();
      views.count(draft.id);
      views.count(draft.slug);
      await views.flush();
      res = await t.http
        .get(api(`/blog/posts/${draft.id}`))
        .set(admin.auth)
        .expect(200);
      expect(res.body.data.viewCount).toBe(0);
    });
  });
});

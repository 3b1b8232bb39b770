import { DataSource } from 'typeorm';
import { AddPostRevisions1795710000000 } from '../../migrations/1795710000000-AddPostRevisions';
import { createDataSource } from '../src/database/data-source';
import { createTestApp, TestApp } from './helpers/app';
import { createFreshDatabase } from './helpers/fresh-database';
import { api, err, ISO, uid } from './helpers/envelope';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

const AUTH_REQUIRED = 'Authentication required. Please log in to continue.';
const CONFLICT = 'This post was changed elsewhere since you opened it.';
const NO_SEO = { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null };

interface Summary {
  id: number;
  kind: string;
  pinned: boolean;
  title: string;
  wordCount: number;
  editor: { id: number; fullName: string } | null;
}
interface Part {
  value: string;
  added: boolean;
  removed: boolean;
}

/** The text a diff's parts make on one side: unchanged and removed runs (before), unchanged and added runs (after). */
const before = (parts: Part[]) =>
  parts
    .filter((p) => !p.added)
    .map((p) => p.value)
    .join('');
const after = (parts: Part[]) =>
  parts
    .filter((p) => !p.removed)
    .map((p) => p.value)
    .join('');

describe('Revisions, versions and SEO fields', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let reader: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    admin = await createAdmin(t);
    author = await createAuthor(t);
    otherAuthor = await createAuthor(t);
    reader = await createReader(t);
  });
  afterAll(() => t.close());

  async function draft(
    body: Record<string, unknown> = {},
    user: TestUser = author,
  ): Promise<{ id: number; slug: string; version: number }> {
    const res = await t.http
      .post(api('/blog/posts/author/create'))
      .set(user.auth)
      .send({ title: `Revised ${uid()}`, content: 'The first words of the draft', ...body })
      .expect(201);
    return res.body.data;
  }
  const saveAsAuthor = (id: number, body: Record<string, unknown>, user: TestUser = author) =>
    t.http
      .put(api(`/blog/posts/author/${id}`))
      .set(user.auth)
      .send(body);
  const revisions = async (id: number, user: TestUser = author): Promise<Summary[]> =>
    (
      await t.http
        .get(api(`/blog/posts/${id}/revisions?size=100`))
        .set(user.auth)
        .expect(200)
    ).body.data.content;
  /** Moves the post's revisions back in time (the merge window is measured by the database's clock). */
  const age = (id: number, minutes: number) =>
    db.query(`UPDATE post_revisions SET created_at = created_at - make_interval(mins => $2) WHERE post_id = $1`, [id, minutes]);

  describe('SEO fields', () => {
    it('round trip: saved, answered on the post, kept when a later save omits them, cleared by null or an empty string, public once published', async () => {
      const seo = {
        metaTitle: '  A better title for search  ',
        metaDescription: 'What the post is about, for search results',
        canonicalUrl: 'https://example.com/original/article',
        noindex: true,
        socialImage: '/images/social-card.png',
      };
      const post = await draft(seo);
      const expected = { ...seo, metaTitle: 'A better title for search' };
      expect(
        (
          await t.http
            .get(api(`/blog/posts/${post.id}`))
            .set(author.auth)
            .expect(200)
        ).body.data.seo,
      ).toEqual(expected);

      const later = await saveAsAuthor(post.id, { content: 'Changed body only' }).expect(200);
      expect(later.body.data.seo).toEqual(expected);

      const cleared = await saveAsAuthor(post.id, { metaTitle: null, metaDescription: '   ', canonicalUrl: '', noindex: false }).expect(
        200,
      );
      expect(cleared.body.data.seo).toEqual({ ...NO_SEO, socialImage: '/images/social-card.png' });

      const published = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'PUBLISHED', metaTitle: 'Public meta' })
        .expect(200);
      const pub = await t.http.get(api(`/blog/posts/public/${published.body.data.slug}`)).expect(200);
      expect(pub.body.data).toMatchObject({
        version: published.body.data.version,
        seo: { ...NO_SEO, metaTitle: 'Public meta', socialImage: '/images/social-card.png' },
      });
      expect(pub.body.data.authorEmail).toBeUndefined();

      const list = await t.http.get(api('/blog/posts/author/my-posts?size=1000')).set(author.auth).expect(200);
      expect(list.body.data.content.find((row: { id: number }) => row.id === post.id)).toMatchObject({
        version: published.body.data.version,
        seo: { metaTitle: 'Public meta' },
      });
    });

    it('400 with a field error for each invalid field; nothing is written', async () => {
      const post = await draft();
      const cases: [Record<string, unknown>, string, string][] = [
        [{ metaTitle: 'x'.repeat(301) }, 'metaTitle', 'Meta title must be at most 300 characters'],
        [{ metaTitle: 12 }, 'metaTitle', 'Meta title must be at most 300 characters'],
        [{ metaDescription: 'x'.repeat(501) }, 'metaDescription', 'Meta description must be at most 500 characters'],
        [
          { canonicalUrl: 'ftp://example.com/a' },
          'canonicalUrl',
          'Canonical URL must be an absolute http(s) URL of at most 500 characters',
        ],
        [{ canonicalUrl: '/blog/relative' }, 'canonicalUrl', 'Canonical URL must be an absolute http(s) URL of at most 500 characters'],
        [
          { canonicalUrl: `https://example.com/${'a'.repeat(490)}` },
          'canonicalUrl',
          'Canonical URL must be an absolute http(s) URL of at most 500 characters',
        ],
        [{ noindex: 'yes' }, 'noindex', 'noindex must be true or false'],
        [{ socialImage: 'javascript:alert(1)' }, 'socialImage', 'Social image must be an http(s) URL or a path starting with /'],
        [{ version: 0 }, 'version', 'version must be a whole number of at least 1'],
        [{ version: '2' }, 'version', 'version must be a whole number of at least 1'],
      ];
      for (const [body, field, message] of cases) {
        const res = await saveAsAuthor(post.id, { title: 'Must not be written', ...body }).expect(400);
        expect(res.body).toEqual(err(400, message, { [field]: [message] }));
      }
      const stored = (
        await t.http
          .get(api(`/blog/posts/${post.id}`))
          .set(author.auth)
          .expect(200)
      ).body.data;
      expect(stored).toMatchObject({ title: expect.stringMatching(/^Revised /), version: 1, seo: NO_SEO });
      expect(await revisions(post.id)).toHaveLength(1);
    });
  });

  describe('versions and 409', () => {
    it('spec save bodies (no version, no SEO fields) behave as today: no check, the same answer, version still counts', async () => {
      const post = await draft();
      expect(post.version).toBe(1);
      const res = await saveAsAuthor(post.id, { title: 'Plain spec save', content: 'Body' }).expect(200);
      expect(res.body).toMatchObject({
        success: true,
        status: 200,
        message: 'Post saved as a draft. Submit it for review to publish it.',
        errors: null,
      });
      expect(res.body.data).toMatchObject({ title: 'Plain spec save', status: 'DRAFT', version: 2, seo: NO_SEO });
      // Another save from a stale view without a version still wins, as the spec's clients expect.
      await saveAsAuthor(post.id, { content: 'Body again' }).expect(200);
      const admin1 = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ title: 'Admin save' })
        .expect(200);
      expect(admin1.body).toMatchObject({ message: 'Post updated.', data: { version: 4 } });
    });

    it('a stale version (body or If-Match) is 409 with both versions; nothing is written; the current version saves', async () => {
      const post = await draft();
      const theirs = await saveAsAuthor(post.id, { content: 'Saved in the other tab', version: 1 }).expect(200);
      expect(theirs.body.data.version).toBe(2);

      const mine = { title: 'My title', content: 'Typed in the first tab', metaTitle: 'Mine', version: 1 };
      const stale = await saveAsAuthor(post.id, mine).expect(409);
      expect(stale.body).toEqual({
        ...err(409, CONFLICT),
        data: {
          current: expect.objectContaining({ id: post.id, version: 2, content: 'Saved in the other tab', authorEmail: author.email }),
          yours: mine,
        },
      });
      const staleHeader = await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .set('If-Match', '"1"')
        .send({ title: 'Admin from a stale view' })
        .expect(409);
      expect(staleHeader.body.data.current.version).toBe(2);
      expect(staleHeader.body.data.yours).toEqual({ title: 'Admin from a stale view' });
      // The body's version wins over If-Match.
      await saveAsAuthor(post.id, { content: 'Body wins', version: 1 }).set('If-Match', '"2"').expect(409);
      const stored = (
        await t.http
          .get(api(`/blog/posts/${post.id}`))
          .set(author.auth)
          .expect(200)
      ).body.data;
      expect(stored).toMatchObject({ version: 2, content: 'Saved in the other tab', title: expect.stringMatching(/^Revised /) });

      await t.http
        .put(api(`/blog/posts/author/${post.id}`))
        .set(author.auth)
        .set('If-Match', '"2"')
        .send({ content: 'Resolved' })
        .expect(200);
      await t.http
        .put(api(`/blog/posts/author/${post.id}`))
        .set(author.auth)
        .set('If-Match', 'W/"3"')
        .send({ content: 'Weak tag' })
        .expect(200);
      const wild = await t.http
        .put(api(`/blog/posts/author/${post.id}`))
        .set(author.auth)
        .set('If-Match', '*')
        .send({ content: 'Any version' })
        .expect(200);
      expect(wild.body.data.version).toBe(5);
      const bad = await t.http
        .put(api(`/blog/posts/author/${post.id}`))
        .set(author.auth)
        .set('If-Match', 'abc')
        .send({ content: 'x' })
        .expect(400);
      const ifMatchText = 'If-Match must be a post version in quotes, such as "3"';
      expect(bad.body).toEqual(err(400, ifMatchText, { version: [ifMatchText] }));
    });

    it('two saves based on the same version at once: one is written, the other is 409', async () => {
      const post = await draft();
      const results = await Promise.all(['From tab one', 'From tab two'].map((content) => saveAsAuthor(post.id, { content, version: 1 })));
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
      const stored = (
        await t.http
          .get(api(`/blog/posts/${post.id}`))
          .set(author.auth)
          .expect(200)
      ).body.data;
      expect(stored.version).toBe(2);
      expect(results.find((res) => res.status === 200)!.body.data.content).toBe(stored.content);
    });

    it('submission and reviews count as changes: an edit based on the version before them is 409', async () => {
      const post = await draft();
      await t.http
        .post(api(`/blog/posts/author/${post.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      const rejected = await t.http
        .put(api(`/blog/posts/admin/${post.id}/review`))
        .set(admin.auth)
        .send({ status: 'REJECTED', rejectionReason: 'More' })
        .expect(200);
      expect(rejected.body.data.post.version).toBe(3);
      await saveAsAuthor(post.id, { content: 'Based on the draft', version: 1 }).expect(409);
      await saveAsAuthor(post.id, { content: 'Based on the rejection', version: 3 }).expect(200);
    });
  });

  describe('keeping revisions', () => {
    it('saves by one editor within 5 minutes merge; later saves, another editor and a status-only save do not', async () => {
      const post = await draft({ content: 'one' });
      await saveAsAuthor(post.id, { content: 'one two' }).expect(200);
      await saveAsAuthor(post.id, { content: 'one two three' }).expect(200);
      let list = await revisions(post.id);
      expect(list).toEqual([
        expect.objectContaining({ kind: 'SAVE', pinned: false, wordCount: 3, editor: { id: author.id, fullName: author.fullName } }),
      ]);

      await age(post.id, 6);
      await saveAsAuthor(post.id, { content: 'one two three four' }).expect(200);
      list = await revisions(post.id);
      expect(list.map((r) => r.wordCount)).toEqual([4, 3]);

      await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ content: 'admin edit' })
        .expect(200);
      // A status change alone keeps no new text.
      await t.http
        .put(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .send({ status: 'PRIVATE' })
        .expect(200);
      list = await revisions(post.id);
      expect(list.map((r) => [r.editor?.id, r.wordCount])).toEqual([
        [admin.id, 2],
        [author.id, 4],
        [author.id, 3],
      ]);
    });

    it('submission, rejection and approval pin their revisions; a later save starts a new one', async () => {
      const post = await draft({ content: 'draft text' });
      await t.http
        .post(api(`/blog/posts/author/${post.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      expect((await revisions(post.id)).map((r) => [r.kind, r.pinned])).toEqual([['SUBMITTED', true]]);

      await t.http
        .put(api(`/blog/posts/admin/${post.id}/review`))
        .set(admin.auth)
        .send({ status: 'REJECTED', rejectionReason: 'Needs work' })
        .expect(200);
      await saveAsAuthor(post.id, { content: 'draft text, better' }).expect(200);
      await t.http
        .post(api(`/blog/posts/author/${post.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      await t.http
        .put(api(`/blog/posts/admin/${post.id}/review`))
        .set(admin.auth)
        .send({ status: 'APPROVED' })
        .expect(200);
      const list = await revisions(post.id);
      expect(list.map((r) => [r.kind, r.pinned, r.editor?.id])).toEqual([
        ['APPROVED', true, admin.id],
        ['SUBMITTED', true, author.id],
        ['REJECTED', true, admin.id],
        ['SUBMITTED', true, author.id],
      ]);
    });

    it('keeps at most 100 unpinned revisions, dropping the oldest; pinned ones stay', async () => {
      const post = await draft({ content: 'seeded' });
      // 104 older unpinned revisions and 2 pinned ones among them, as a long history would leave.
      await db.query(
        `INSERT INTO post_revisions (post_id, editor_id, kind, pinned, title, content, word_count, seo, created_at, updated_at)
         SELECT $1, $2, CASE WHEN n IN (1, 50) THEN 'SUBMITTED' ELSE 'SAVE' END, n IN (1, 50), 'Seeded ' || n, 'seeded body ' || n, 3,
                '{"metaTitle":null,"metaDescription":null,"canonicalUrl":null,"noindex":false,"socialImage":null}',
                now() - make_interval(mins => 1000 - n), now() - make_interval(mins => 1000 - n)
           FROM generate_series(1, 106) AS n`,
        [post.id, author.id],
      );
      await db.query(
        `UPDATE post_revisions SET created_at = now() - interval '10 minutes' WHERE post_id = $1 AND title NOT LIKE 'Seeded %'`,
        [post.id],
      );
      await saveAsAuthor(post.id, { content: 'the newest save' }).expect(200);

      const [{ unpinned, pinned }] = (await db.query(
        `SELECT count(*) FILTER (WHERE NOT pinned)::int AS unpinned, count(*) FILTER (WHERE pinned)::int AS pinned FROM post_revisions WHERE post_id = $1`,
        [post.id],
      )) as { unpinned: number; pinned: number }[];
      expect(unpinned).toBe(100);
      expect(pinned).toBe(2);
      // 104 seeded unpinned + the create + the save = 106: the 6 oldest unpinned (n = 2..7) are gone.
      const seeded = (await db.query(`SELECT title FROM post_revisions WHERE post_id = $1 AND title LIKE 'Seeded %' ORDER BY created_at`, [
        post.id,
      ])) as { title: string }[];
      expect(seeded.slice(0, 3).map((r) => r.title)).toEqual(['Seeded 1', 'Seeded 8', 'Seeded 9']);

      const page = await t.http
        .get(api(`/blog/posts/${post.id}/revisions?page=1&size=50`))
        .set(author.auth)
        .expect(200);
      expect(page.body.data).toMatchObject({
        totalElements: 102,
        totalPages: 3,
        number: 1,
        size: 50,
        numberOfElements: 50,
        first: false,
        last: false,
      });
      const capped = await t.http
        .get(api(`/blog/posts/${post.id}/revisions?size=500`))
        .set(author.auth)
        .expect(200);
      expect(capped.body.data.size).toBe(100);
    });
  });

  describe('reading, comparing and restoring', () => {
    it('get one revision; compare two, or one with the post as saved now (word-level, with tags and stats)', async () => {
      const tagA = `rev-a-${uid()}`;
      const tagB = `rev-b-${uid()}`;
      for (const slug of [tagA, tagB]) await db.query(`INSERT INTO tags (name, slug, is_active) VALUES ($1, $1, true)`, [slug]);
      const post = await draft({ title: 'Old title', summary: 'Short', content: 'The quick brown fox jumps', tagSlugs: [tagA] });
      await age(post.id, 6);
      await saveAsAuthor(post.id, { title: 'New title', content: 'The quick red fox leaps high', tagSlugs: [tagB] }).expect(200);
      const [newest, first] = await revisions(post.id);

      const one = await t.http
        .get(api(`/blog/posts/${post.id}/revisions/${first.id}`))
        .set(author.auth)
        .expect(200);
      expect(one.body.data).toEqual({
        id: first.id,
        postId: post.id,
        kind: 'SAVE',
        pinned: false,
        title: 'Old title',
        wordCount: 5,
        editor: { id: author.id, fullName: author.fullName },
        createdAt: ISO,
        updatedAt: ISO,
        summary: 'Short',
        content: 'The quick brown fox jumps',
        tagSlugs: [tagA],
        thumbnail: null,
        seo: NO_SEO,
      });

      const diff = (
        await t.http
          .get(api(`/blog/posts/${post.id}/revisions/compare?from=${first.id}&to=${newest.id}`))
          .set(author.auth)
          .expect(200)
      ).body.data;
      expect(diff.from).toMatchObject({ id: first.id });
      expect(diff.to).toMatchObject({ id: newest.id });
      expect(before(diff.content)).toBe('The quick brown fox jumps');
      expect(after(diff.content)).toBe('The quick red fox leaps high');
      const words = (parts: Part[]) =>
        parts
          .map((p) => p.value)
          .join(' ')
          .split(/\s+/)
          .filter(Boolean);
      expect(words(diff.content.filter((p: Part) => p.removed))).toEqual(['brown', 'jumps']);
      expect(words(diff.content.filter((p: Part) => p.added))).toEqual(['red', 'leaps', 'high']);
      expect(words(diff.content.filter((p: Part) => !p.added && !p.removed))).toEqual(['The', 'quick', 'fox']);
      expect(diff.stats).toEqual({ addedWords: 3, removedWords: 2 });
      expect(diff.tags).toEqual({ added: [tagB], removed: [tagA] });
      expect([before(diff.title), after(diff.title)]).toEqual(['Old title', 'New title']);
      expect(diff.summary).toEqual([{ value: 'Short', added: false, removed: false }]);

      await saveAsAuthor(post.id, { content: 'Now something else' }).expect(200);
      const toNow = (
        await t.http
          .get(api(`/blog/posts/${post.id}/revisions/compare?from=${first.id}`))
          .set(author.auth)
          .expect(200)
      ).body.data;
      expect(toNow.to).toBeNull();
      expect(after(toNow.content)).toBe('Now something else');

      const other = await draft({}, otherAuthor);
      const [otherRevision] = await revisions(other.id, otherAuthor);
      expect(
        (
          await t.http
            .get(api(`/blog/posts/${post.id}/revisions/${otherRevision.id}`))
            .set(author.auth)
            .expect(404)
        ).body,
      ).toEqual(err(404, `Revision with id ${otherRevision.id} not found for this post`));
      await t.http
        .get(api(`/blog/posts/${post.id}/revisions/compare?from=${otherRevision.id}`))
        .set(author.auth)
        .expect(404);
      const badFrom = await t.http
        .get(api(`/blog/posts/${post.id}/revisions/compare?from=abc`))
        .set(author.auth)
        .expect(400);
      expect(badFrom.body.errors).toEqual({ from: ['Revision id must be a positive whole number'] });
      await t.http
        .get(api(`/blog/posts/${post.id}/revisions/compare`))
        .set(author.auth)
        .expect(400);
    });

    it('restore makes the revision the post text (a new RESTORED revision, version +1); status and version rules as an update', async () => {
      const post = await draft({ title: 'Restorable', content: 'original words', metaTitle: 'Original meta' });
      await age(post.id, 6);
      const edited = await saveAsAuthor(post.id, { title: 'Edited', content: 'edited words', metaTitle: null }).expect(200);
      const original = (await revisions(post.id)).at(-1)!;

      const stale = await t.http
        .post(api(`/blog/posts/${post.id}/revisions/${original.id}/restore`))
        .set(author.auth)
        .send({ version: 1 })
        .expect(409);
      expect(stale.body).toMatchObject({
        message: CONFLICT,
        data: { current: { version: edited.body.data.version }, yours: expect.objectContaining({ content: 'original words', version: 1 }) },
      });

      const res = await t.http
        .post(api(`/blog/posts/${post.id}/revisions/${original.id}/restore`))
        .set(author.auth)
        .send({ version: edited.body.data.version })
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        message: 'Revision restored.',
        data: {
          title: 'Restorable',
          content: 'original words',
          version: edited.body.data.version + 1,
          seo: { metaTitle: 'Original meta' },
          status: 'DRAFT',
        },
      });
      const list = await revisions(post.id);
      expect(list.map((r) => r.kind)).toEqual(['RESTORED', 'SAVE', 'SAVE']);
      expect(list[0]).toMatchObject({ title: 'Restorable', pinned: false });

      await t.http
        .post(api(`/blog/posts/author/${post.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      const pending = await t.http
        .post(api(`/blog/posts/${post.id}/revisions/${original.id}/restore`))
        .set(author.auth)
        .send({})
        .expect(409);
      expect(pending.body.message).toMatch(/^This post is PENDING_REVIEW and can no longer be edited by its author/);
      const byAdmin = await t.http
        .post(api(`/blog/posts/${post.id}/revisions/${list[1].id}/restore`))
        .set(admin.auth)
        .send({})
        .expect(200);
      expect(byAdmin.body.data).toMatchObject({ title: 'Edited', status: 'PENDING_REVIEW' });
    });
  });

  describe("the reviewer's diff", () => {
    it('reject → edit → resubmit: the last rejection and the diff from its pinned revision to the resubmission', async () => {
      const post = await draft({ content: 'A claim without sources.' });
      let answer = (
        await t.http
          .get(api(`/blog/posts/${post.id}/review-diff`))
          .set(admin.auth)
          .expect(200)
      ).body.data;
      expect(answer).toEqual({ rejection: null, diff: null });

      await t.http
        .post(api(`/blog/posts/author/${post.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);
      await t.http
        .put(api(`/blog/posts/admin/${post.id}/review`))
        .set(admin.auth)
        .send({ status: 'REJECTED', rejectionReason: 'Add sources, please.' })
        .expect(200);
      await saveAsAuthor(post.id, { content: 'A claim with two sources.' }).expect(200);
      await t.http
        .post(api(`/blog/posts/author/${post.id}/submit-for-review`))
        .set(author.auth)
        .expect(200);

      for (const user of [admin, author]) {
        answer = (
          await t.http
            .get(api(`/blog/posts/${post.id}/review-diff`))
            .set(user.auth)
            .expect(200)
        ).body.data;
        expect(answer.rejection).toEqual({
          reason: 'Add sources, please.',
          reviewer: { id: admin.id, fullName: admin.fullName },
          reviewedAt: ISO,
        });
        expect(answer.diff.from).toMatchObject({ kind: 'REJECTED', pinned: true });
        expect(answer.diff.to).toMatchObject({ kind: 'SUBMITTED', pinned: true });
        expect(before(answer.diff.content)).toBe('A claim without sources.');
        expect(after(answer.diff.content)).toBe('A claim with two sources.');
        expect(answer.diff.stats).toEqual({ addedWords: 2, removedWords: 1 });
      }
    });
  });

  describe('who may read and restore', () => {
    it('401 signed out; readers and other authors 403; unknown posts 404; admins any post', async () => {
      const post = await draft();
      const [revision] = await revisions(post.id);
      const paths = [
        `/blog/posts/${post.id}/revisions`,
        `/blog/posts/${post.id}/revisions/${revision.id}`,
        `/blog/posts/${post.id}/revisions/compare?from=${revision.id}`,
        `/blog/posts/${post.id}/review-diff`,
      ];
      for (const path of paths) {
        expect((await t.http.get(api(path)).expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
        for (const user of [reader, otherAuthor])
          expect((await t.http.get(api(path)).set(user.auth).expect(403)).body).toEqual(
            err(403, 'You do not have permission to access this post.'),
          );
        await t.http.get(api(path)).set(admin.auth).expect(200);
        await t.http
          .get(api(path.replace(`/posts/${post.id}/`, '/posts/999999/')))
          .set(author.auth)
          .expect(404);
      }
      const restore = `/blog/posts/${post.id}/revisions/${revision.id}/restore`;
      for (const user of [reader, otherAuthor]) await t.http.post(api(restore)).set(user.auth).send({}).expect(403);
      await t.http
        .post(api(`/blog/posts/999999/revisions/${revision.id}/restore`))
        .set(author.auth)
        .send({})
        .expect(404);
      await t.http.post(api(restore)).set(admin.auth).send({}).expect(200);
    });
  });
});

describe('AddPostRevisions (every existing post gets one revision)', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = createDataSource(await createFreshDatabase('inkwell_migration_revisions'));
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function run(direction: 'up' | 'down'): Promise<void> {
    const runner = dataSource.createQueryRunner();
    try {
      await new AddPostRevisions1795710000000()[direction](runner);
    } finally {
      await runner.release();
    }
  }

  it('down drops the table and columns; up backfills a SAVE revision of each post (text, tags, author, time) at version 1', async () => {
    await run('down');
    const [user] = (await dataSource.query(
      `INSERT INTO users (full_name, email, password_hash, status, is_verified) VALUES ('Backfill Author', 'backfill@example.com', 'x', 'ACTIVE', true) RETURNING id`,
    )) as { id: number }[];
    const [post] = (await dataSource.query(
      `INSERT INTO posts (title, slug, summary, content, content_html, author_id, word_count, updated_at)
       VALUES ('Old post', 'old-post', 'Sum', 'three old words', '', $1, 3, '2020-01-02T03:04:05Z') RETURNING id`,
      [user.id],
    )) as { id: number }[];
    for (const slug of ['zeta', 'alpha']) {
      await dataSource.query(`INSERT INTO tags (name, slug) VALUES ($1, $1)`, [slug]);
      await dataSource.query(`INSERT INTO post_tags (post_id, tag_id) SELECT $1, id FROM tags WHERE slug = $2`, [post.id, slug]);
    }
    await run('up');
    const revisions = (await dataSource.query(`SELECT * FROM post_revisions WHERE post_id = $1`, [post.id])) as Record<string, unknown>[];
    expect(revisions).toEqual([
      expect.objectContaining({
        editor_id: user.id,
        kind: 'SAVE',
        pinned: false,
        title: 'Old post',
        summary: 'Sum',
        content: 'three old words',
        word_count: 3,
        tag_slugs: ['alpha', 'zeta'],
        thumbnail: null,
        seo: { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null },
        created_at: new Date('2020-01-02T03:04:05Z'),
      }),
    ]);
    expect(await dataSource.query(`SELECT version, noindex, meta_title FROM posts WHERE id = $1`, [post.id])).toEqual([
      { version: 1, noindex: false, meta_title: null },
    ]);
  });
});

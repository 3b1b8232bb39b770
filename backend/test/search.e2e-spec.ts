import { Global, Module } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CreatePostSearch1795690000000, latinFolding } from '../../migrations/1795690000000-CreatePostSearch';
import { createDataSource } from '../src/database/data-source';
import { CandidateLimits, SEARCH_CANDIDATE_LIMITS, UNACCENT_PUNCTUATION } from '../src/search/search.repository';
import { createTestApp, TestApp } from './helpers/app';
import { api, err } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, createAuthor, TestUser } from './helpers/users';

/**
 * A word no other test writes: random letters (digits would make it a 'numword' token), so no two
 * share enough trigrams for the typo fallback to take one for the other.
 */
const word = (prefix = 'w') => prefix + Array.from(randomBytes(14), (byte) => String.fromCharCode(97 + (byte % 26))).join('');

describe('Search API (GET /blog/search) and related posts', () => {
  let t: TestApp;
  let admin: TestUser;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  interface PostInput {
    title: string;
    content?: string;
    summary?: string;
    tagSlugs?: string[];
    status?: string;
  }

  async function createPost(input: PostInput, as: TestUser = admin): Promise<{ id: number; slug: string }> {
    const res = await t.http
      .post(api('/blog/posts'))
      .set(as.auth)
      .send({ content: 'Plain body text.', status: 'PUBLISHED', ...input })
      .expect(201);
    return { id: res.body.data.id, slug: res.body.data.slug };
  }

  async function updatePost(id: number, input: PostInput): Promise<void> {
    await t.http
      .put(api(`/blog/posts/${id}`))
      .set(admin.auth)
      .send({ content: 'Plain body text.', status: 'PUBLISHED', ...input })
      .expect(200);
  }

  async function createTag(name: string): Promise<{ id: number; slug: string }> {
    const res = await t.http.post(api('/blog/tags')).set(admin.auth).send({ name }).expect(201);
    return { id: res.body.data.id, slug: res.body.data.slug };
  }

  async function search(params: Record<string, string | number>): Promise<Record<string, any>> {
    const res = await t.http.get(api('/blog/search')).query(params).expect(200);
    return res.body.data;
  }

  const titles = (page: Record<string, any>) => (page.content as { title: string }[]).map((hit) => hit.title);

  describe('400s', () => {
    const bad = async (query: string, field: string, message: string) => {
      const res = await t.http.get(api(`/blog/search?${query}`)).expect(400);
      expect(res.body).toEqual(err(400, expect.any(String), expect.objectContaining({ [field]: expect.arrayContaining([message]) })));
    };

    it('an empty, blank or missing query, or one over 200 characters, is a field error on q', async () => {
      await bad('q=', 'q', 'Enter something to search for');
      await bad('q=%20%20%E2%80%8B%20', 'q', 'Enter something to search for');
      await bad('page=0', 'q', 'Enter something to search for');
      await bad(`q=${'a'.repeat(201)}`, 'q', 'The search query must be at most 200 characters');
      // 200 characters counted as code points: 200 emoji (400 UTF-16 units) are fine.
      await t.http
        .get(api('/blog/search'))
        .query({ q: '😀'.repeat(200) })
        .expect(200);
    });

    it('bad page, dates, tag or author slugs, to before from, and unknown parameters', async () => {
      await bad('q=x&page=-1', 'page', 'page must not be negative');
      await bad('q=x&page=two', 'page', 'page must be a whole number');
      await bad('q=x&from=2026-02-30', 'from', 'from must be a date YYYY-MM-DD');
      await bad('q=x&to=yesterday', 'to', 'to must be a date YYYY-MM-DD');
      await bad('q=x&from=2026-03-02&to=2026-03-01', 'to', 'to must not be before from');
      await bad('q=x&tag=Not%20A%20Slug', 'tag', 'tag must be a tag slug (lowercase letters, digits and hyphens)');
      await bad('q=x&author=UPPER', 'author', 'author must be an author slug (lowercase letters, digits and hyphens)');
      await bad('q=x&sort=rank', 'sort', 'property sort should not exist');
    });
  });

  it('only published posts, ever: drafts, pending, rejected, archived and private posts never appear', async () => {
    const w = word();
    const published = await createPost({ title: `Published ${w}` });
    for (const status of ['DRAFT', 'PENDING_REVIEW', 'REJECTED', 'ARCHIVED', 'PRIVATE']) {
      const { id } = await createPost({ title: `${status} ${w}`, content: `Body ${w}`, summary: `Summary ${w}` });
      await dataSource.query(`UPDATE posts SET status = $2 WHERE id = $1`, [id, status]);
    }
    const page = await search({ q: w });
    expect(page.content.map((hit: { id: number }) => hit.id)).toEqual([published.id]);
    expect(page.totalElements).toBe(1);
    expect(page.didYouMean).toBeNull();
  });

  it('answers the paging envelope with the card fields, rank, snippet and the normalised query', async () => {
    const w = word();
    const author = await createAuthor(t, { fullName: `Search Author ${w}` });
    const tag = await createTag(`Tag ${w}`);
    const { id } = await createPost({ title: `Card ${w}`, summary: 'A summary', tagSlugs: [tag.slug] });
    await dataSource.query(`UPDATE posts SET author_id = $2 WHERE id = $1`, [id, author.id]);
    const page = await search({ q: `  card   ${w.toUpperCase()} ` });
    expect(page).toEqual({
      content: [
        {
          id,
          title: `Card ${w}`,
          slug: expect.any(String),
          summary: 'A summary',
          thumbnail: null,
          likeCount: 0,
          viewCount: 0,
          commentCount: 0,
          isFeatured: false,
          publishedAt: expect.any(String),
          readingTime: 1,
          authorId: author.id,
          authorName: `Search Author ${w}`,
          authorAvatar: null,
          authorSlug: author.slug,
          tags: [{ id: tag.id, name: `Tag ${w}`, slug: tag.slug, color: null }],
          canonicalUrl: null,
          snippet: 'Plain body text.',
          rank: expect.any(Number),
        },
      ],
      totalElements: 1,
      totalPages: 1,
      number: 0,
      size: 10,
      first: true,
      last: true,
      empty: false,
      numberOfElements: 1,
      pageable: { pageNumber: 0, pageSize: 10, offset: 0, paged: true, unpaged: false },
      query: `card ${w.toUpperCase()}`,
      didYouMean: null,
    });
    expect(page.content[0].rank).toBeGreaterThan(0);
  });

  it('pages through every match, best first', async () => {
    const w = word();
    for (let i = 0; i < 11; i++) await createPost({ title: `Paging ${i}`, content: `Body ${w} number ${i}.` });
    const best = await createPost({ title: `Paging best ${w}`, content: `Body ${w}.` });
    const first = await search({ q: w, size: 5 });
    expect(first).toMatchObject({ totalElements: 12, totalPages: 3, number: 0, numberOfElements: 5, first: true, last: false });
    // The title match (weight A) ranks above body-only matches.
    expect(first.content[0].id).toBe(best.id);
    const ranks = first.content.map((hit: { rank: number }) => hit.rank);
    expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
    const seen = new Set<number>();
    for (const pageNumber of [0, 1, 2]) {
      for (const hit of (await search({ q: w, size: 5, page: pageNumber })).content) seen.add(hit.id);
    }
    expect(seen.size).toBe(12);
    expect(await search({ q: w, size: 5, page: 2 })).toMatchObject({ numberOfElements: 2, last: true });
    expect(await search({ q: w, size: 5, page: 3 })).toMatchObject({ content: [], totalElements: 12, empty: true });
  });

  it('filters by tag, author and publication days (site time zone, Asia/Ho_Chi_Minh by default)', async () => {
    const w = word();
    const tag = await createTag(`Filter ${w}`);
    const author = await createAuthor(t);
    const tagged = await createPost({ title: `Tagged ${w}`, tagSlugs: [tag.slug] });
    const byAuthor = await createPost({ title: `By author ${w}` });
    await dataSource.query(`UPDATE posts SET author_id = $2 WHERE id = $1`, [byAuthor.id, author.id]);
    const early = await createPost({ title: `Early ${w}` });
    // 2026-01-01 00:30 in Ho Chi Minh City (UTC+7) is still 2025-12-31 in UTC.
    await dataSource.query(`UPDATE posts SET published_at = '2025-12-31T17:30:00Z' WHERE id = $1`, [early.id]);
    await dataSource.query(`UPDATE posts SET published_at = '2025-06-01T00:00:00Z' WHERE id IN ($1, $2)`, [tagged.id, byAuthor.id]);

    const ids = async (params: Record<string, string>) =>
      (await search({ q: w, ...params })).content.map((hit: { id: number }) => hit.id).sort();
    expect(await ids({ tag: tag.slug })).toEqual([tagged.id]);
    expect(await ids({ author: author.slug })).toEqual([byAuthor.id]);
    expect(await ids({ from: '2026-01-01' })).toEqual([early.id]);
    expect(await ids({ from: '2026-01-01', to: '2026-01-01' })).toEqual([early.id]);
    expect(await ids({ to: '2025-12-31' })).toEqual([tagged.id, byAuthor.id].sort());
    expect(await ids({ tag: 'no-such-tag' })).toEqual([]);
    expect(await ids({ author: 'no-such-author' })).toEqual([]);
  });

  it('finds a post in the very next search after it is published, edited, unpublished or deleted', async () => {
    const w = word();
    const renamed = word('r');
    const draft = await createPost({ title: `Fresh ${w}`, status: 'DRAFT' });
    expect((await search({ q: w })).totalElements).toBe(0);

    await updatePost(draft.id, { title: `Fresh ${w}`, status: 'PUBLISHED' });
    expect(titles(await search({ q: w }))).toEqual([`Fresh ${w}`]);

    await updatePost(draft.id, { title: `Fresh ${renamed}`, content: 'Changed body.' });
    expect((await search({ q: w })).totalElements).toBe(0);
    expect(titles(await search({ q: renamed }))).toEqual([`Fresh ${renamed}`]);

    await updatePost(draft.id, { title: `Fresh ${renamed}`, status: 'ARCHIVED' });
    expect((await search({ q: renamed })).totalElements).toBe(0);

    await updatePost(draft.id, { title: `Fresh ${renamed}`, status: 'PUBLISHED' });
    expect((await search({ q: renamed })).totalElements).toBe(1);
    await t.http
      .delete(api(`/blog/posts/${draft.id}`))
      .set(admin.auth)
      .expect(204);
    expect((await search({ q: renamed })).totalElements).toBe(0);
  });

  it("finds posts by their tags' names, also after a tag is renamed, deactivated or removed from the post", async () => {
    const before = word('before');
    const after = word('after');
    const tag = await createTag(before);
    const post = await createPost({ title: 'Tagged post', tagSlugs: [tag.slug] });
    expect((await search({ q: before })).content.map((hit: { id: number }) => hit.id)).toEqual([post.id]);

    await t.http
      .put(api(`/blog/tags/${tag.id}`))
      .set(admin.auth)
      .send({ name: after, slug: tag.slug })
      .expect(200);
    expect((await search({ q: before })).totalElements).toBe(0);
    expect((await search({ q: after })).content.map((hit: { id: number }) => hit.id)).toEqual([post.id]);
    // The body still matches as it did, phrases included.
    expect((await search({ q: `"plain body text" ${after}` })).content.map((hit: { id: number }) => hit.id)).toEqual([post.id]);

    await t.http
      .delete(api(`/blog/tags/${tag.id}/deactivate`))
      .set(admin.auth)
      .expect(200);
    expect((await search({ q: after })).totalElements).toBe(0);
    await t.http
      .post(api(`/blog/tags/${tag.id}/activate`))
      .set(admin.auth)
      .expect(200);
    expect((await search({ q: after })).totalElements).toBe(1);

    await updatePost(post.id, { title: 'Tagged post', tagSlugs: [] });
    expect((await search({ q: after })).totalElements).toBe(0);
  });

  it('accents are optional both ways (Vietnamese included, đ → d)', async () => {
    const w = word();
    const accented = await createPost({ title: `Học tiếng Việt ở Đà Nẵng ${w}` });
    const plain = await createPost({ title: `Hoc tieng Viet khong dau ${w}` });
    const both = [accented.id, plain.id].sort();
    const ids = async (q: string) => (await search({ q })).content.map((hit: { id: number }) => hit.id).sort();
    expect(await ids(`tieng viet ${w}`)).toEqual(both);
    expect(await ids(`tiếng Việt ${w}`)).toEqual(both);
    expect(await ids(`da nang ${w}`)).toEqual([accented.id]);
    expect(await ids(`không dấu ${w}`)).toEqual([plain.id]);
    // The snippet keeps the original text and marks the accented words.
    await createPost({ title: `Snippet ${w}x`, content: `Chúng tôi học tiếng Việt mỗi ngày.` });
    const [hit] = (await search({ q: `tieng viet ${w}x` })).content;
    expect(hit.snippet).toBe('Chúng tôi học <mark>tiếng</mark> <mark>Việt</mark> mỗi ngày.');
  });

  it('a misspelt title word still finds the post, with didYouMean', async () => {
    const w = word('zephyrine');
    const post = await createPost({ title: `Gardening ${w} handbook` });
    const typo = w.slice(0, 4) + w.slice(5); // one letter dropped
    const page = await search({ q: typo });
    expect(page.didYouMean).toBe(w);
    expect(page.query).toBe(typo);
    expect(page.content.map((hit: { id: number }) => hit.id)).toEqual([post.id]);
    // A query that matches keeps didYouMean null.
    expect((await search({ q: w })).didYouMean).toBeNull();
    // Nothing similar: no suggestion, no hits.
    expect(await search({ q: word('qqqq') })).toMatchObject({ totalElements: 0, didYouMean: null, content: [] });
  });

  it('"quoted phrases" match words in order; -word excludes', async () => {
    const w = word();
    const inOrder = await createPost({ title: `Phrase one ${w}`, content: 'A red apple pie for dinner.' });
    const reversed = await createPost({ title: `Phrase two ${w}`, content: 'An apple that is red, and a pie.' });
    const banana = await createPost({ title: `Phrase three ${w}`, content: 'A red apple and a banana.' });
    const ids = async (q: string) => (await search({ q })).content.map((hit: { id: number }) => hit.id).sort();
    expect(await ids(`"red apple" ${w}`)).toEqual([inOrder.id, banana.id].sort());
    expect(await ids(`"red apple pie" ${w}`)).toEqual([inOrder.id]);
    expect(await ids(`apple ${w} -banana`)).toEqual([inOrder.id, reversed.id].sort());
    expect(await ids(`${w} -apple`)).toEqual([]);
  });

  it('snippets are HTML-escaped text whose only markup is <mark>', async () => {
    const w = word();
    await createPost({
      title: `Escaping ${w}`,
      content: `Inline code \`<script>alert("x")</script>\` & <b>bold</b> text about ${w} & more.`,
    });
    const [hit] = (await search({ q: w })).content;
    expect(hit.snippet).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(hit.snippet).toContain(`<mark>${w}</mark>`);
    expect(hit.snippet).toContain(' &amp; more.');
    expect(hit.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  it('marks a match far into a long body (past the first window read for snippets)', async () => {
    const w = word();
    const filler = Array.from({ length: 120 }, (_, i) => `Paragraph ${i} says nothing in particular at all.`).join('\n\n');
    await createPost({ title: `Long body ${w}x`, content: `${filler}\n\nAt last the word ${w} appears.` });
    const [hit] = (await search({ q: w })).content;
    expect(hit.snippet).toContain(`<mark>${w}</mark> appears.`);
  });

  describe('every query word found in the snippet is marked', () => {
    const marked = (snippet: string) => [...snippet.matchAll(/<mark>(.*?)<\/mark>/g)].map((match) => match[1]);

    it("'zymurgy K': both words in the title, K twice in the body (once in typographic quotes), far from its start", async () => {
      const w = word();
      const post = await createPost({
        title: `Zymurgy K notes ${w}`,
        content:
          'Notes from the brewhouse, written over a long weekend of boiling, cooling and pitching yeast into the wort while the cellar stayed calm and steady. ' +
          'The mash held at 340 K for an hour, and “K” is the unit the thermometer shows.',
      });
      const page = await search({ q: 'zymurgy K' });
      const hit = page.content.find((candidate: { id: number }) => candidate.id === post.id);
      expect(hit.snippet).toContain('340 <mark>K</mark> for an hour, and “<mark>K</mark>” is the unit');
      expect(marked(hit.snippet)).toEqual(['K', 'K']);
    });

    it('Vietnamese: words split between the title and the body are marked with their accents, typed with or without them', async () => {
      const w = word();
      await createPost({
        title: `Phở Hà Nội ${w}`,
        content:
          'Sáng nào chúng tôi cũng dậy sớm, đi bộ quanh hồ, ngắm mặt nước yên ả và nghe tiếng rao quen thuộc của những người bán hàng rong. ' +
          'Món “phở” ngon nhất ở Hà Nội là bát phở bò tái chín.',
      });
      for (const q of [`pho ha noi ${w}`, `phở Hà Nội ${w}`]) {
        const [hit] = (await search({ q })).content;
        expect(hit.snippet).toContain('Món “<mark>phở</mark>” ngon nhất ở <mark>Hà</mark> <mark>Nội</mark> là bát <mark>phở</mark> bò');
      }
    });

    it('the words the snippet separates are exactly those unaccent turns into ASCII punctuation', async () => {
      const rows: { c: number }[] = await dataSource.query(
        `SELECT c FROM generate_series(161, 65533) c WHERE (c < 55296 OR c > 57343)
           AND inkwell_unaccent(chr(c)) <> chr(c) AND inkwell_unaccent(chr(c)) ~ E'^[!-/:-@[-\`{-~]+$' ORDER BY c`,
      );
      const listed = new RegExp(`[${UNACCENT_PUNCTUATION}]`, 'u');
      const fromDatabase = rows.map((row) => String.fromCodePoint(row.c));
      expect(fromDatabase.length).toBeGreaterThan(100);
      expect(fromDatabase.filter((character) => !listed.test(character))).toEqual([]);
      const allListed = Array.from({ length: 65533 - 161 + 1 }, (_, i) => String.fromCodePoint(161 + i)).filter((character) =>
        listed.test(character),
      );
      expect(allListed).toEqual(fromDatabase);
    });
  });

  describe('GET /blog/posts/public/{slug}/related', () => {
    it('up to 4 published posts sharing tags, most similar titles first, then shared tags and recency', async () => {
      const w = word();
      const [first, second] = [await createTag(`Rel ${w}x`), await createTag(`Rel ${w}y`)];
      const source = await createPost({ title: 'Growing tomatoes on the balcony', tagSlugs: [first.slug, second.slug] });
      const similar = await createPost({ title: 'Balcony tomatoes in winter', tagSlugs: [first.slug] });
      const bothTags = await createPost({ title: 'Cooking rice', tagSlugs: [first.slug, second.slug] });
      const oneTagOlder = await createPost({ title: 'Cooking pasta', tagSlugs: [second.slug] });
      const oneTagNewer = await createPost({ title: 'Cooking soup', tagSlugs: [second.slug] });
      await dataSource.query(`UPDATE posts SET published_at = now() - interval '2 days' WHERE id = $1`, [oneTagOlder.id]);
      const extra = await createPost({ title: 'Cooking noodles', tagSlugs: [first.slug] });
      await dataSource.query(`UPDATE posts SET published_at = now() - interval '3 days' WHERE id = $1`, [extra.id]);
      const draft = await createPost({ title: 'Balcony tomatoes draft', tagSlugs: [first.slug], status: 'DRAFT' });
      await createPost({ title: `Growing tomatoes without tags ${w}` });

      const res = await t.http.get(api(`/blog/posts/public/${source.slug}/related`)).expect(200);
      const ids = (res.body.data as { id: number }[]).map((card) => card.id);
      expect(ids).toEqual([similar.id, bothTags.id, oneTagNewer.id, oneTagOlder.id]);
      expect(ids).not.toContain(draft.id);
      expect(res.body.data[0]).toMatchObject({
        title: 'Balcony tomatoes in winter',
        authorSlug: admin.slug,
        tags: [expect.objectContaining({ slug: first.slug })],
      });
    });

    it('an empty list for a post without tags; 404 for unknown and unpublished slugs', async () => {
      const lonely = await createPost({ title: `Lonely ${word()}` });
      expect((await t.http.get(api(`/blog/posts/public/${lonely.slug}/related`)).expect(200)).body.data).toEqual([]);
      const draft = await createPost({ title: `Draft ${word()}`, status: 'DRAFT' });
      for (const slug of [draft.slug, 'no-such-post-anywhere']) {
        expect((await t.http.get(api(`/blog/posts/public/${slug}/related`)).expect(404)).body).toEqual(
          err(404, `Post with slug "${slug}" not found`),
        );
      }
    });
  });
});

/** Candidate limits small enough that a handful of posts goes past them. */
const SMALL_LIMITS: CandidateLimits = { head: 3, body: 4 };
@Global()
@Module({ providers: [{ provide: SEARCH_CANDIDATE_LIMITS, useValue: SMALL_LIMITS }], exports: [SEARCH_CANDIDATE_LIMITS] })
class SmallCandidateLimitsModule {}

describe('Search past the ranked candidates (limits lowered to 3 head and 4 body candidates)', () => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ extraModules: [SmallCandidateLimitsModule] });
    admin = await createAdmin(t);
  });
  afterAll(() => t.close());

  async function createPost(title: string, content: string): Promise<number> {
    const res = await t.http.post(api('/blog/posts')).set(admin.auth).send({ title, content, status: 'PUBLISHED' }).expect(201);
    return res.body.data.id;
  }

  async function search(params: Record<string, string | number>): Promise<Record<string, any>> {
    return (await t.http.get(api('/blog/search')).query(params).expect(200)).body.data;
  }

  it('totalElements is the exact count and paging reaches every match once, an old title match included', async () => {
    const w = word();
    // Oldest first: an old title match, four newer title matches, then ten newer body-only matches.
    const oldTitle = await createPost(`Archive note ${w}`, 'Nothing else here.');
    await t.app.get(DataSource).query(`UPDATE posts SET published_at = now() - interval '3 years' WHERE id = $1`, [oldTitle]);
    const titleMatches = [oldTitle];
    for (let i = 0; i < 4; i++) titleMatches.push(await createPost(`Title ${i} ${w}`, `Body number ${i}.`));
    const bodyMatches: number[] = [];
    for (let i = 0; i < 10; i++) bodyMatches.push(await createPost(`Other ${i}`, `Some text with ${w} inside, number ${i}.`));
    await createPost('Not a match', 'Nothing to find.');

    const first = await search({ q: w, size: 4 });
    expect(first).toMatchObject({ totalElements: 15, totalPages: 4, numberOfElements: 4, first: true, last: false });
    const order: number[] = [];
    for (let page = 0; page < 4; page++) {
      const answer = await search({ q: w, size: 4, page });
      expect(answer).toMatchObject({ totalElements: 15, number: page, last: page === 3 });
      for (const hit of answer.content) {
        expect(hit.snippet).toEqual(expect.any(String));
        order.push(hit.id);
      }
    }
    // Every match exactly once, in a stable order.
    expect(order).toHaveLength(15);
    expect([...order].sort((a, b) => a - b)).toEqual([...titleMatches, ...bodyMatches].sort((a, b) => a - b));
    // The 3 newest title matches and the 4 newest matches are ranked first; the title matches
    // left (the old one included) come before the body-only matches left.
    const others = order.slice(SMALL_LIMITS.head + SMALL_LIMITS.body);
    expect(others.slice(0, 2).sort((a, b) => a - b)).toEqual(titleMatches.slice(0, 2).sort((a, b) => a - b));
    expect(others).toContain(oldTitle);
    expect(await search({ q: w, size: 4, page: 4 })).toMatchObject({ content: [], totalElements: 15, empty: true });
    // A filter counts and pages the same way: published before two years ago: the old one alone.
    const twoYearsAgo = new Date(Date.now() - 2 * 365 * 86_400_000).toISOString().slice(0, 10);
    const filtered = await search({ q: w, to: twoYearsAgo });
    expect(filtered.content.map((hit: { id: number }) => hit.id)).toEqual([oldTitle]);
    expect(filtered.totalElements).toBe(1);
    // A phrase (its count rechecks the documents) pages the same way: the ten body matches.
    const phrase = `"text with ${w}"`;
    const phraseIds: number[] = [];
    for (let page = 0; page < 3; page++) {
      const answer = await search({ q: phrase, size: 4, page });
      expect(answer.totalElements).toBe(10);
      phraseIds.push(...answer.content.map((hit: { id: number }) => hit.id));
    }
    expect(phraseIds.sort((a, b) => a - b)).toEqual([...bodyMatches].sort((a, b) => a - b));
  });
});

describe('Migration CreatePostSearch', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = createDataSource(await createFreshDatabase('inkwell_migration_search'));
    await dataSource.initialize();
  });
  afterAll(() => dataSource?.destroy());

  async function run(direction: 'up' | 'down'): Promise<void> {
    const runner = dataSource.createQueryRunner();
    try {
      await new CreatePostSearch1795690000000()[direction](runner);
    } finally {
      await runner.release();
    }
  }

  it('down removes the search columns; up builds the documents of existing posts, tag names included', async () => {
    const [user] = (await dataSource.query(
      `INSERT INTO users (full_name, email, password_hash, status, is_verified) VALUES ('Migration Author', 'search-migration@example.com', 'x', 'ACTIVE', true) RETURNING id`,
    )) as { id: number }[];
    await run('down');
    const [post] = (await dataSource.query(
      `INSERT INTO posts (title, slug, summary, content, content_html, author_id, status) VALUES ('Học tiếng Việt', 'hoc', 'Tóm tắt', 'x', '<p>Thân &amp; <b>bài</b></p>', $1, 'PUBLISHED') RETURNING id`,
      [user.id],
    )) as { id: number }[];
    const [tag] = (await dataSource.query(`INSERT INTO tags (name, slug) VALUES ('Lập trình', 'lap-trinh') RETURNING id`)) as {
      id: number;
    }[];
    await dataSource.query(`INSERT INTO post_tags (post_id, tag_id) VALUES ($1, $2)`, [post.id, tag.id]);
    await run('up');
    const [row] = (await dataSource.query(`SELECT search_document::text AS document FROM posts WHERE id = $1`, [post.id])) as {
      document: string;
    }[];
    // Body text 1-2 (C; markup and entities gone), then title 3-5 (A), summary and tag names 6-9 (B), all unaccented.
    expect(row.document).toBe("'bai':2C 'hoc':3A 'lap':8B 'tat':7B 'than':1C 'tieng':4A 'tom':6B 'trinh':9B 'viet':5A");
    // A new tag name rebuilds the title, summary and tag part; the body part keeps its positions.
    await dataSource.query(`UPDATE tags SET name = 'Khoa học' WHERE id = $1`, [tag.id]);
    const [renamed] = (await dataSource.query(`SELECT search_document::text AS document FROM posts WHERE id = $1`, [post.id])) as {
      document: string;
    }[];
    expect(renamed.document).toBe("'bai':2C 'hoc':3A,9B 'khoa':8B 'tat':7B 'than':1C 'tieng':4A 'tom':6B 'viet':5A");
  });

  it('the fallback without unaccent (translate over Latin letters) folds Vietnamese and Latin-1 as unaccent does', async () => {
    const [from, to] = latinFolding();
    const sample =
      'Tiếng Việt ăâđêôơư ĂÂĐÊÔƠƯ àảãáạ ằẳẵắặ ầẩẫấậ èẻẽéẹ ềểễếệ ìỉĩíị òỏõóọ ồổỗốộ ờởỡớợ ùủũúụ ừửữứự ỳỷỹýỵ ÀẢÃÁẠ ỲỶỸÝỴ Ça façade naïve Ångström Müller señor';
    const [row] = (await dataSource.query(`SELECT translate($1, $2, $3) AS folded, unaccent($1) AS reference`, [sample, from, to])) as {
      folded: string;
      reference: string;
    }[];
    expect(row.folded).toBe(row.reference);
    expect(row.folded).toContain('Tieng Viet aadeoou AADEOOU');
  });
});

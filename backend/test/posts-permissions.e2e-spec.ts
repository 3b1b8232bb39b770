import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

/**
 * Every posts/tags/reviews endpoint × (anonymous, USER, AUTHOR who owns the post, another AUTHOR,
 * ADMIN) → the status each gets. Writes use fresh rows per call so one row's change cannot
 * decide another row's answer.
 */
type Who = 'anonymous' | 'user' | 'owner' | 'otherAuthor' | 'admin';
const WHO: Who[] = ['anonymous', 'user', 'owner', 'otherAuthor', 'admin'];

interface Fixture {
  draftId: number;
  pendingId: number;
  publishedSlug: string;
  tagId: number;
  tagSlug: string;
}

interface Row {
  name: string;
  method: 'get' | 'post' | 'put' | 'delete';
  path: (f: Fixture) => string;
  body?: (f: Fixture) => Record<string, unknown>;
  expected: Record<Who, number>;
}

const ALL = (status: number): Record<Who, number> => ({
  anonymous: status,
  user: status,
  owner: status,
  otherAuthor: status,
  admin: status,
});

const ROWS: Row[] = [
  { name: 'GET public list', method: 'get', path: () => '/blog/posts/public', expected: ALL(200) },
  { name: 'GET latest stories', method: 'get', path: () => '/blog/posts/public/latest-stories', expected: ALL(200) },
  { name: 'GET sitemap', method: 'get', path: () => '/blog/posts/public/sitemap', expected: ALL(200) },
  { name: 'GET sitemap file', method: 'get', path: () => '/blog/posts/public/sitemap/posts/1', expected: ALL(200) },
  { name: 'GET public post by slug', method: 'get', path: (f) => `/blog/posts/public/${f.publishedSlug}`, expected: ALL(200) },
  { name: 'GET public posts by tag', method: 'get', path: (f) => `/blog/posts/public/tag/${f.tagSlug}`, expected: ALL(200) },
  { name: 'GET authors', method: 'get', path: () => '/blog/authors', expected: ALL(200) },
  { name: 'GET published tags', method: 'get', path: () => '/blog/tags/publish', expected: ALL(200) },
  { name: 'GET tags', method: 'get', path: () => '/blog/tags', expected: ALL(200) },
  { name: 'GET tag', method: 'get', path: (f) => `/blog/tags/${f.tagId}`, expected: ALL(200) },
  {
    name: 'GET admin list',
    method: 'get',
    path: () => '/blog/posts/admin/all',
    expected: { anonymous: 401, user: 403, owner: 403, otherAuthor: 403, admin: 200 },
  },
  {
    name: 'GET /blog/posts',
    method: 'get',
    path: () => '/blog/posts',
    expected: { anonymous: 401, user: 403, owner: 403, otherAuthor: 403, admin: 200 },
  },
  {
    name: 'GET post by id',
    method: 'get',
    path: (f) => `/blog/posts/${f.draftId}`,
    expected: { anonymous: 401, user: 403, owner: 200, otherAuthor: 403, admin: 200 },
  },
  {
    name: 'GET my posts',
    method: 'get',
    path: () => '/blog/posts/author/my-posts',
    expected: { anonymous: 401, user: 403, owner: 200, otherAuthor: 200, admin: 200 },
  },
  {
    name: 'POST admin create',
    method: 'post',
    path: () => '/blog/posts',
    body: () => ({ title: `Matrix ${uid()}`, content: 'c' }),
    expected: { anonymous: 401, user: 403, owner: 403, otherAuthor: 403, admin: 201 },
  },
  {
    name: 'POST author create',
    method: 'post',
    path: () => '/blog/posts/author/create',
    body: () => ({ title: `Matrix ${uid()}`, content: 'c' }),
    expected: { anonymous: 401, user: 403, owner: 201, otherAuthor: 201, admin: 201 },
  },
  {
    name: 'PUT post',
    method: 'put',
    path: (f) => `/blog/posts/${f.draftId}`,
    body: () => ({ summary: 'changed' }),
    expected: { anonymous: 401, user: 403, owner: 200, otherAuthor: 403, admin: 200 },
  },
  {
    name: 'PUT author post',
    method: 'put',
    path: (f) => `/blog/posts/author/${f.draftId}`,
    body: () => ({ summary: 'changed' }),
    expected: { anonymous: 401, user: 403, owner: 200, otherAuthor: 403, admin: 403 },
  },
  {
    name: 'POST submit for review',
    method: 'post',
    path: (f) => `/blog/posts/author/${f.draftId}/submit-for-review`,
    expected: { anonymous: 401, user: 403, owner: 200, otherAuthor: 403, admin: 403 },
  },
  {
    name: 'DELETE post (draft)',
    method: 'delete',
    path: (f) => `/blog/posts/${f.draftId}`,
    expected: { anonymous: 401, user: 403, owner: 204, otherAuthor: 403, admin: 204 },
  },
  {
    name: 'PUT review',
    method: 'put',
    path: (f) => `/blog/posts/admin/${f.pendingId}/review`,
    body: () => ({ status: 'APPROVED' }),
    expected: { anonymous: 401, user: 403, owner: 403, otherAuthor: 403, admin: 200 },
  },
  {
    name: 'GET review history',
    method: 'get',
    path: (f) => `/blog/post-reviews/${f.draftId}/history`,
    expected: { anonymous: 401, user: 403, owner: 200, otherAuthor: 403, admin: 200 },
  },
  {
    name: 'POST tag',
    method: 'post',
    path: () => '/blog/tags',
    body: () => ({ name: `Matrix ${uid()}` }),
    expected: { anonymous: 401, user: 403, owner: 403, otherAuthor: 403, admin: 201 },
  },
  {
    name: 'PUT tag',
    method: 'put',
    path: (f) => `/blog/tags/${f.tagId}`,
    body: () => ({ description: 'changed' }),
    expected: { anonymous: 401, user: 403, owner: 403, otherAuthor: 403, admin: 200 },
  },
  {
    name: 'DELETE tag deactivate',
    method: 'delete',
    path: (f) => `/blog/tags/${f.tagId}/deactivate`,
    expected: { anonymous: 401, user: 403, owner: 403, otherAuthor: 403, admin: 200 },
  },
  {
    name: 'POST tag activate',
    method: 'post',
    path: (f) => `/blog/tags/${f.tagId}/activate`,
    expected: { anonymous: 401, user: 403, owner: 403, otherAuthor: 403, admin: 200 },
  },
  {
    name: 'DELETE tag',
    method: 'delete',
    path: (f) => `/blog/tags/${f.tagId}`,
    expected: { anonymous: 401, user: 403, owner: 403, otherAuthor: 403, admin: 204 },
  },
];

describe('Posts, tags and reviews: permission matrix', () => {
  let t: TestApp;
  let users: Record<Exclude<Who, 'anonymous'>, TestUser>;

  beforeAll(async () => {
    t = await createTestApp();
    users = { user: await createReader(t), owner: await createAuthor(t), otherAuthor: await createAuthor(t), admin: await createAdmin(t) };
  });
  afterAll(() => t.close());

  /** Fresh rows: an unused tag, the owner's draft and pending post, a published post. */
  async function fixture(): Promise<Fixture> {
    const { admin, owner } = users;
    const tagSlug = `matrix-${uid()}`;
    const tag = await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Matrix ${tagSlug}`, slug: tagSlug })
      .expect(201);
    const draft = await t.http
      .post(api('/blog/posts/author/create'))
      .set(owner.auth)
      .send({ title: `Draft ${uid()}`, content: 'c' })
      .expect(201);
    const pending = await t.http
      .post(api('/blog/posts/author/create'))
      .set(owner.auth)
      .send({ title: `Pending ${uid()}`, content: 'c' })
      .expect(201);
    await t.http
      .post(api(`/blog/posts/author/${pending.body.data.id}/submit-for-review`))
      .set(owner.auth)
      .expect(200);
    const published = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Published ${uid()}`, content: 'c', status: 'PUBLISHED' })
      .expect(201);
    return {
      draftId: draft.body.data.id,
      pendingId: pending.body.data.id,
      publishedSlug: published.body.data.slug,
      tagId: tag.body.data.id,
      tagSlug,
    };
  }

  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const actual: Partial<Record<Who, number>> = {};
    for (const who of WHO) {
      const f = await fixture();
      let req = t.http[row.method](api(row.path(f)));
      if (who !== 'anonymous') req = req.set(users[who].auth);
      const res = row.body ? await req.send(row.body(f)) : await req;
      actual[who] = res.status;
    }
    expect(actual).toEqual(row.expected);
  });
});

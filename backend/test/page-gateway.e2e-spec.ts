import type { Request } from 'express';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { SessionsService } from '../src/sessions/sessions.service';
import { PROJECT_ROOT } from '../src/config/paths';
import { UsersService } from '../src/users/users.service';
import { APP_CONFIG, type AppConfig } from '../src/config/env';
import { NotificationType } from '../src/notifications/notification.types';
import { unsubscribeToken } from '../src/notifications/unsubscribe-token';
import { PageGatewayService } from '../src/gateway/page-gateway.service';
import type { GatewayCall, PageGateway } from '../../isomorphic/gateway.types';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

type Caller = 'anonymous' | 'forged' | 'reader' | 'author' | 'admin';
type Params = NonNullable<GatewayCall['params']>;

/**
 * Every `GET('/api/v1/...')` a page makes on the server: frontend/src without the browser's code
 * (the islands, .tsx, and the modules that call the API with the browser's client).
 */
function pageReads(): Set<string> {
  const reads = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|astro)$/.test(name) && !name.endsWith('.d.ts')) {
        const source = readFileSync(path, 'utf8');
        if (source.includes('browserApi')) continue;
        for (const match of source.matchAll(/\bGET\('(\/api\/v1[^']*)'/g)) reads.add(match[1]);
      }
    }
  };
  walk(join(PROJECT_ROOT, 'frontend', 'src'));
  return reads;
}

/** The URL an HTTP client (openapi-fetch) sends for a path template and its parameters. */
function urlOf(path: string, params: Params = {}): string {
  const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params.path?.[name])));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params.query ?? {})) query.append(name, String(value));
  const search = query.toString();
  return search ? `${concrete}?${search}` : concrete;
}

/** Per-request fields that differ between any two answers: the request id, a post's live view count, the time a dashboard was made. */
const VARYING = new Set(['requestId', 'viewCount', 'lastUpdated']);
function comparable(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body ?? null), (key, value: unknown) => (VARYING.has(key) ? '<varies>' : value));
}

/** Where two JSON texts part, with some context. */
function firstDifference(gateway: string, http: string): string {
  let at = 0;
  while (at < gateway.length && gateway[at] === http[at]) at += 1;
  const around = (text: string) => text.slice(Math.max(0, at - 120), at + 120);
  return `gateway …${around(gateway)}… vs HTTP …${around(http)}…`;
}

/**
 * The pages' data path (backend/src/gateway) answers exactly what HTTP answers: for every read a
 * page makes, for the same caller and input, bad input included, the same status and body.
 */
describe('Page gateway: parity with HTTP', () => {
  let t: TestApp;
  let gateway: PageGatewayService;
  let users: Record<'reader' | 'author' | 'admin', TestUser>;
  let post: { id: number; slug: string; title: string };
  let draft: { id: number; slug: string };
  /** The token of a live preview link of the draft. */
  let previewToken: string;
  let tagId: number;
  let tagSlug: string;
  /** A published post's and a tag's slugs before a change (GET .../moved/{slug}). */
  let movedPostSlug: string;
  let movedTagSlug: string;

  beforeAll(async () => {
    // A database of its own: other suites write to the run's database between the two reads of a
    // pair (a site-wide list such as the sitemap changed under CI), and a retry would hide a real gap.
    t = await createTestApp({ databaseUrl: await createFreshDatabase('inkwell_page_gateway') });
    gateway = t.app.get(PageGatewayService);
    users = { reader: await createReader(t), author: await createAuthor(t), admin: await createAdmin(t) };
    tagSlug = `parity-${uid()}`;
    tagId = (
      await t.http
        .post(api('/blog/tags'))
        .set(users.admin.auth)
        .send({ name: `Parity ${tagSlug}`, slug: tagSlug, color: '#123456' })
        .expect(201)
    ).body.data.id;
    const token = uid();
    post = (
      await t.http
        .post(api('/blog/posts'))
        .set(users.admin.auth)
        .send({ title: `Parity ${token}`, slug: `parity-${token}`, content: '# Parity\n\nBody', status: 'PUBLISHED', tagSlugs: [tagSlug] })
        .expect(201)
    ).body.data;
    draft = (
      await t.http
        .post(api('/blog/posts/author/create'))
        .set(users.author.auth)
        .send({ title: `Draft ${token}`, slug: `draft-${token}`, content: 'Draft body', tagSlugs: [tagSlug] })
        .expect(201)
    ).body.data;
    previewToken = (
      await t.http
        .post(api(`/blog/posts/${draft.id}/preview-links`))
        .set(users.author.auth)
        .expect(201)
    ).body.data.url
      .split('/')
      .pop();
    // A post by the AUTHOR, published through review: they have an author page.
    const authored = (
      await t.http
        .post(api('/blog/posts/author/create'))
        .set(users.author.auth)
        .send({ title: `Authored ${token}`, slug: `authored-${token}`, content: 'Body', tagSlugs: [tagSlug] })
        .expect(201)
    ).body.data;
    await t.http
      .post(api(`/blog/posts/author/${authored.id}/submit-for-review`))
      .set(users.author.auth)
      .expect(200);
    await t.http
      .put(api(`/blog/posts/admin/${authored.id}/review`))
      .set(users.admin.auth)
      .send({ status: 'APPROVED' })
      .expect(200);
    movedPostSlug = `moved-${token}`;
    const moving = (
      await t.http
        .post(api('/blog/posts'))
        .set(users.admin.auth)
        .send({ title: `Moved ${token}`, slug: movedPostSlug, content: 'Body', status: 'PUBLISHED' })
        .expect(201)
    ).body.data;
    await t.http
      .put(api(`/blog/posts/${moving.id}`))
      .set(users.admin.auth)
      .send({ slug: `moved-now-${token}` })
      .expect(200);
    movedTagSlug = `moved-tag-${token}`;
    const movingTag = (
      await t.http
        .post(api('/blog/tags'))
        .set(users.admin.auth)
        .send({ name: `Moved tag ${token}`, slug: movedTagSlug })
        .expect(201)
    ).body.data;
    await t.http
      .put(api(`/blog/tags/${movingTag.id}`))
      .set(users.admin.auth)
      .send({ slug: `moved-tag-now-${token}` })
      .expect(200);
    await t.http
      .post(api(`/likes/post/${post.id}/toggle`))
      .set(users.reader.auth)
      .expect(200);
    await t.http.post(api('/comments')).set(users.reader.auth).send({ postId: post.id, content: 'A parity comment' }).expect(201);
  });
  afterAll(() => t?.close());

  const cookieOf = (caller: Caller): string | undefined =>
    caller === 'anonymous'
      ? undefined
      : caller === 'forged'
        ? 'inkwell_access=forged.token.value'
        : `inkwell_access=${users[caller].token}`;

  function gatewayFor(caller: Caller): PageGateway {
    const cookie = cookieOf(caller);
    const cookies = cookie ? { inkwell_access: cookie.slice('inkwell_access='.length) } : {};
    return gateway.forRequest({ headers: { 'user-agent': 'parity' }, cookies, ip: '127.0.0.1', socket: {} } as unknown as Request);
  }

  async function both(caller: Caller, path: string, params?: Params) {
    const inProcess = await gatewayFor(caller).call({ method: 'GET', path, params });
    const request = t.http.get(urlOf(path, params));
    const cookie = cookieOf(caller);
    if (cookie) request.set('Cookie', cookie);
    const overHttp = await request;
    return {
      inProcess: { status: inProcess.status, body: comparable(inProcess.body) },
      overHttp: { status: overHttp.status, body: comparable(overHttp.body) },
    };
  }

  const HUGE = '100000000000000000000';
  /** [caller, path, params] for every page read, with the bad inputs pages can be handed. */
  const cases = (): [Caller, string, Params?][] => [
    ['anonymous', '/api/v1/blog/posts/public/latest-stories'],
    ['anonymous', '/api/v1/blog/posts/public', { query: { page: 0, size: 12 } }],
    ['anonymous', '/api/v1/blog/posts/public', { query: { page: -1, size: 12 } }],
    ['anonymous', '/api/v1/blog/posts/public', { query: { page: HUGE, size: 12 } }],
    ['anonymous', '/api/v1/blog/posts/public', { query: { page: 0, size: 5000 } }],
    ['anonymous', '/api/v1/blog/posts/public', { query: { page: 'two' } }],
    ['anonymous', '/api/v1/blog/posts/public/{slug}', { path: { slug: post.slug } }],
    ['reader', '/api/v1/blog/posts/public/{slug}', { path: { slug: post.slug } }],
    ['anonymous', '/api/v1/blog/posts/public/{slug}', { path: { slug: draft.slug } }],
    ['anonymous', '/api/v1/blog/posts/public/{slug}', { path: { slug: 'no-such-post' } }],
    ['anonymous', '/api/v1/blog/posts/public/{slug}', { path: { slug: 'bad\u0000slug' } }],
    ['anonymous', '/api/v1/blog/posts/public/tag/{slug}', { path: { slug: tagSlug }, query: { page: 0, size: 12 } }],
    ['anonymous', '/api/v1/blog/posts/public/tag/{slug}', { path: { slug: tagSlug }, query: { page: -1, size: 12 } }],
    ['anonymous', '/api/v1/blog/posts/public/tag/{slug}', { path: { slug: 'no-such-tag' }, query: { page: 0, size: 12 } }],
    ['anonymous', '/api/v1/blog/posts/public/tag/{slug}', { path: { slug: 'a\u0000b' } }],
    ['anonymous', '/api/v1/comments/post/{postId}', { path: { postId: post.id }, query: { page: 0, size: 10 } }],
    ['reader', '/api/v1/comments/post/{postId}', { path: { postId: post.id }, query: { page: 0, size: 10 } }],
    ['anonymous', '/api/v1/comments/post/{postId}', { path: { postId: draft.id }, query: { page: 0, size: 10 } }],
    ['anonymous', '/api/v1/blog/posts/public/sitemap'],
    ['anonymous', '/api/v1/blog/posts/public/sitemap/{kind}/{number}', { path: { kind: 'posts', number: 1 } }],
    ['anonymous', '/api/v1/blog/posts/public/sitemap/{kind}/{number}', { path: { kind: 'posts', number: 0 } }],
    ['anonymous', '/api/v1/blog/posts/public/sitemap/{kind}/{number}', { path: { kind: 'users', number: 1 } }],
    ['anonymous', '/api/v1/blog/posts/public/sitemap/{kind}/{number}', { path: { kind: 'posts', number: HUGE } }],
    ['anonymous', '/api/v1/blog/tags/publish'],
    ['anonymous', '/api/v1/blog/tags', { query: { activeOnly: true, page: 0, size: 1000 } }],
    ['anonymous', '/api/v1/blog/tags', { query: { page: HUGE } }],
    ['anonymous', '/api/v1/blog/authors'],
    ['anonymous', '/api/v1/blog/authors/{slug}', { path: { slug: users.author.slug } }],
    ['reader', '/api/v1/blog/authors/{slug}', { path: { slug: users.author.slug } }],
    ['anonymous', '/api/v1/blog/authors/{slug}', { path: { slug: users.reader.slug } }],
    ['anonymous', '/api/v1/blog/authors/{slug}', { path: { slug: 'bad\u0000slug' } }],
    ['anonymous', '/api/v1/blog/authors/{slug}/posts', { path: { slug: users.author.slug }, query: { page: 0, size: 12 } }],
    ['anonymous', '/api/v1/blog/authors/{slug}/posts', { path: { slug: users.author.slug }, query: { page: -1, size: 12 } }],
    ['anonymous', '/api/v1/blog/authors/{slug}/posts', { path: { slug: users.author.slug }, query: { page: HUGE } }],
    ['anonymous', '/api/v1/blog/authors/{slug}/posts', { path: { slug: 'no-such-author' }, query: { page: 0, size: 12 } }],
    ['anonymous', '/api/v1/users/profile'],
    ['forged', '/api/v1/users/profile'],
    ['reader', '/api/v1/users/profile'],
    ['admin', '/api/v1/users/profile'],
    ['reader', '/api/v1/likes/user/my-likes', { query: { page: 0, size: 10, sortBy: 'createdAt', sortDirection: 'desc' } }],
    ['reader', '/api/v1/likes/user/my-likes', { query: { page: -1, sortBy: 'nonsense' } }],
    ['reader', '/api/v1/likes/user/my-likes/recent', { query: { limit: 3 } }],
    ['anonymous', '/api/v1/likes/user/my-likes/recent', { query: { limit: 3 } }],
    ['reader', '/api/v1/comments/my-comments', { query: { page: 0, size: 10, sortBy: 'createdAt', sortDirection: 'desc' } }],
    ['reader', '/api/v1/comments/my-comments', { query: { page: HUGE } }],
    ['reader', '/api/v1/comments/my-recent', { query: { limit: 3 } }],
    ['reader', '/api/v1/dashboard/user/stats'],
    ['admin', '/api/v1/notifications', { query: { page: 0, size: 10 } }],
    ['reader', '/api/v1/notifications', { query: { page: -1 } }],
    ['anonymous', '/api/v1/notifications'],
    ['admin', '/api/v1/notifications/unread-count'],
    ['anonymous', '/api/v1/notifications/unread-count'],
    ['reader', '/api/v1/notifications/preferences'],
    ['admin', '/api/v1/notifications/preferences'],
    ['anonymous', '/api/v1/notifications/unsubscribe', { query: { token: 'not-a-token' } }],
    ['reader', '/api/v1/dashboard/quick-stats'],
    ['anonymous', '/api/v1/dashboard/quick-stats'],
    ['author', '/api/v1/dashboard/author/stats'],
    ['reader', '/api/v1/dashboard/author/stats'],
    ['author', '/api/v1/blog/posts/author/my-posts', { query: { page: 0, size: 10 } }],
    ['author', '/api/v1/blog/posts/author/my-posts', { query: { page: 0, size: 1, status: 'DRAFT' } }],
    ['author', '/api/v1/blog/posts/author/my-posts', { query: { status: 'NOPE' } }],
    ['author', '/api/v1/blog/posts/author/my-posts/counts'],
    ['reader', '/api/v1/blog/posts/author/my-posts/counts'],
    ['author', '/api/v1/blog/posts/{id}', { path: { id: draft.id } }],
    ['reader', '/api/v1/blog/posts/{id}', { path: { id: draft.id } }],
    ['admin', '/api/v1/blog/posts/{id}', { path: { id: 2147483000 } }],
    ['admin', '/api/v1/blog/posts/{id}', { path: { id: 'abc' } }],
    ['admin', '/api/v1/blog/posts/{id}', { path: { id: HUGE } }],
    ['admin', '/api/v1/blog/posts/admin/all', { query: { page: 0, size: 10, sortBy: 'createdAt', sortDir: 'desc' } }],
    ['admin', '/api/v1/blog/posts/admin/all', { query: { page: -1 } }],
    ['author', '/api/v1/blog/posts/admin/all'],
    ['admin', '/api/v1/blog/tags', { query: { page: 0, size: 100, sortBy: 'name', sortDir: 'asc', activeOnly: true } }],
    ['admin', '/api/v1/blog/tags/{id}', { path: { id: tagId } }],
    ['admin', '/api/v1/blog/tags/{id}', { path: { id: 2147483000 } }],
    ['admin', '/api/v1/blog/tags/{id}', { path: { id: 'x\u0000' } }],
    ['admin', '/api/v1/dashboard/admin/stats'],
    ['admin', '/api/v1/dashboard/admin/activity'],
    ['reader', '/api/v1/dashboard/admin/stats'],
    ['admin', '/api/v1/admin/users', { query: { page: 0, size: 10 } }],
    ['admin', '/api/v1/admin/users', { query: { page: -1 } }],
    ['admin', '/api/v1/admin/users', { query: { page: HUGE } }],
    ['admin', '/api/v1/admin/users', { query: { search: users.reader.fullName, status: 'ACTIVE' } }],
    ['reader', '/api/v1/admin/users'],
    ['admin', '/api/v1/admin/users/{id}', { path: { id: users.reader.id } }],
    ['admin', '/api/v1/admin/users/{id}', { path: { id: 2147483000 } }],
    ['admin', '/api/v1/admin/users/{id}', { path: { id: 'abc' } }],
    ['admin', '/api/v1/admin/users/{id}/ban-status', { path: { id: users.reader.id } }],
    ['admin', '/api/v1/admin/users/{id}/audit-log', { path: { id: users.reader.id }, query: { page: 0, size: 10 } }],
    ['admin', '/api/v1/admin/users/{id}/audit-log', { path: { id: users.reader.id }, query: { page: -1 } }],
    // the moderation queue
    ['admin', '/api/v1/admin/comments', { query: { filter: 'reported', sort: 'reports', page: 0, size: 20 } }],
    ['admin', '/api/v1/admin/comments', { query: { filter: 'all', search: 'Parity', sort: 'newest' } }],
    ['admin', '/api/v1/admin/comments', { query: { filter: 'nope' } }],
    ['reader', '/api/v1/admin/comments'],
    ['author', '/api/v1/comments/post/{postId}', { path: { postId: post.id }, query: { page: 0, size: 10 } }],
    ['admin', '/api/v1/blog/post-reviews/{id}/history', { path: { id: draft.id } }],
    ['author', '/api/v1/blog/post-reviews/{id}/history', { path: { id: draft.id } }],
    ['reader', '/api/v1/blog/post-reviews/{id}/history', { path: { id: draft.id } }],
    ['author', '/api/v1/blog/post-reviews/{id}/history', { path: { id: 2147483000 } }],
    // the reviewer's diff: the admin's Detailed Review may render it on the server
    ['admin', '/api/v1/blog/posts/{id}/review-diff', { path: { id: draft.id } }],
    ['author', '/api/v1/blog/posts/{id}/review-diff', { path: { id: draft.id } }],
    ['reader', '/api/v1/blog/posts/{id}/review-diff', { path: { id: draft.id } }],
    ['admin', '/api/v1/blog/posts/{id}/review-diff', { path: { id: 2147483000 } }],
    ['admin', '/api/v1/blog/posts/{id}/review-diff', { path: { id: 'abc' } }],
    ['anonymous', '/api/v1/blog/posts/public/moved/{slug}', { path: { slug: movedPostSlug } }],
    ['anonymous', '/api/v1/blog/posts/public/moved/{slug}', { path: { slug: post.slug } }],
    ['anonymous', '/api/v1/blog/posts/public/moved/{slug}', { path: { slug: 'bad\u0000slug' } }],
    ['anonymous', '/api/v1/blog/tags/moved/{slug}', { path: { slug: movedTagSlug } }],
    ['anonymous', '/api/v1/blog/tags/moved/{slug}', { path: { slug: 'no-such-tag' } }],
    ['anonymous', '/api/v1/blog/tags/moved/{slug}', { path: { slug: 'a\u0000b' } }],
    // Search: the /search page and the header's suggestions; related posts under a post.
    ['anonymous', '/api/v1/blog/search', { query: { q: 'Parity', page: 0, size: 10 } }],
    ['reader', '/api/v1/blog/search', { query: { q: post.slug.replace(/-/g, ' '), tag: tagSlug } }],
    ['anonymous', '/api/v1/blog/search', { query: { q: 'Parlty' } }],
    ['anonymous', '/api/v1/blog/search', { query: { q: '   ' } }],
    ['anonymous', '/api/v1/blog/search', { query: { q: 'x'.repeat(201) } }],
    ['anonymous', '/api/v1/blog/search', { query: { q: 'parity', from: '2026-02-30', page: -1 } }],
    ['anonymous', '/api/v1/blog/search', { query: { q: 'a\u0000b' } }],
    ['anonymous', '/api/v1/blog/posts/public/{slug}/related', { path: { slug: post.slug } }],
    ['anonymous', '/api/v1/blog/posts/public/{slug}/related', { path: { slug: draft.slug } }],
    ['anonymous', '/api/v1/blog/posts/public/{slug}/related', { path: { slug: 'bad\u0000slug' } }],
    ['reader', '/api/v1/notifications', { query: { page: 0, size: 20 } }],
    // The admin wrote the post the reader commented on: an entry with its actor, post and link.
    ['admin', '/api/v1/notifications', { query: { page: 0, size: 20 } }],
    ['reader', '/api/v1/notifications', { query: { page: -1, size: 20 } }],
    ['reader', '/api/v1/notifications', { query: { page: HUGE } }],
    ['anonymous', '/api/v1/notifications', { query: { page: 0, size: 20 } }],
    ['author', '/api/v1/notifications/unread-count'],
    ['admin', '/api/v1/notifications/unread-count'],
    ['anonymous', '/api/v1/notifications/unread-count'],
    ['reader', '/api/v1/notifications/preferences'],
    ['admin', '/api/v1/notifications/preferences'],
    ['anonymous', '/api/v1/notifications/preferences'],
    // 'Where you're signed in' on /account
    ['reader', '/api/v1/account/sessions'],
    ['anonymous', '/api/v1/account/sessions'],
    ['reader', '/api/v1/account/sessions/alerts'],
    ['anonymous', '/api/v1/account/sessions/alerts'],
    // A real e-mail's token (signed as the mailer signs it).
    [
      'anonymous',
      '/api/v1/notifications/unsubscribe',
      { query: { token: unsubscribeToken(t.app.get<AppConfig>(APP_CONFIG).jwtSecret, users.reader.id, NotificationType.COMMENT_REPLY) } },
    ],
    ['anonymous', '/api/v1/notifications/unsubscribe', { query: { token: 'not-a-token' } }],
    ['anonymous', '/api/v1/notifications/unsubscribe', { query: { token: 'bad\u0000token' } }],
    ['anonymous', '/api/v1/notifications/unsubscribe'],
    ['anonymous', '/api/v1/blog/preview/{token}', { path: { token: previewToken } }],
    ['reader', '/api/v1/blog/preview/{token}', { path: { token: previewToken } }],
    ['anonymous', '/api/v1/blog/preview/{token}', { path: { token: `${previewToken}x` } }],
    ['anonymous', '/api/v1/blog/preview/{token}', { path: { token: 'bad\u0000token' } }],
    ['author', '/api/v1/blog/posts/{id}/preview-links', { path: { id: draft.id } }],
    ['admin', '/api/v1/blog/posts/{id}/preview-links', { path: { id: draft.id } }],
    ['reader', '/api/v1/blog/posts/{id}/preview-links', { path: { id: draft.id } }],
    ['anonymous', '/api/v1/blog/posts/{id}/preview-links', { path: { id: draft.id } }],
    ['author', '/api/v1/blog/posts/{id}/preview-links', { path: { id: HUGE } }],
    // two-factor sign-in: /admin pages ask an administrator's status; /admin/settings reads the settings
    ['admin', '/api/v1/account/two-factor'],
    ['reader', '/api/v1/account/two-factor'],
    ['anonymous', '/api/v1/account/two-factor'],
    ['admin', '/api/v1/admin/settings'],
    ['author', '/api/v1/admin/settings'],
    ['anonymous', '/api/v1/admin/settings'],
    // your data: /account reads the latest export (404 before the first) and the deletion's grace period
    ['reader', '/api/v1/account/export'],
    ['anonymous', '/api/v1/account/export'],
    ['reader', '/api/v1/account/deletion'],
    ['anonymous', '/api/v1/account/deletion'],
    // webhooks: /admin/integrations lists them
    ['admin', '/api/v1/admin/webhooks'],
    ['author', '/api/v1/admin/webhooks'],
    ['anonymous', '/api/v1/admin/webhooks'],
    // import: /admin/import lists the imports; an unknown path asks for an old WordPress address's new one
    ['admin', '/api/v1/admin/imports'],
    ['author', '/api/v1/admin/imports'],
    ['anonymous', '/api/v1/blog/posts/public/moved-path', { query: { path: '/2014/03/09/no-such-post/' } }],
    ['anonymous', '/api/v1/blog/posts/public/moved-path', { query: { path: '' } }],
    // analytics: /author/stats and the editor read an author's own figures; /admin/stats the site's and an author's
    ['author', '/api/v1/analytics/me', { query: { days: 7 } }],
    ['reader', '/api/v1/analytics/me'],
    ['anonymous', '/api/v1/analytics/me'],
    ['author', '/api/v1/analytics/posts/{id}', { path: { id: post.id } }],
    ['author', '/api/v1/analytics/posts/{id}', { path: { id: HUGE } }],
    ['admin', '/api/v1/admin/analytics', { query: { days: 90 } }],
    ['author', '/api/v1/admin/analytics'],
    ['admin', '/api/v1/admin/analytics/authors/{id}', { path: { id: users.author.id } }],
    ['admin', '/api/v1/admin/analytics/authors/{id}', { path: { id: HUGE } }],
    // backups: /admin/settings shows the last one
    ['admin', '/api/v1/admin/backups/status'],
    ['author', '/api/v1/admin/backups/status'],
    // the social web: the author dashboard's followers, the public status, /admin/federation
    ['author', '/api/v1/federation/me'],
    ['anonymous', '/api/v1/federation/me'],
    ['anonymous', '/api/v1/federation'],
    ['admin', '/api/v1/admin/federation'],
    ['author', '/api/v1/admin/federation'],
    ['admin', '/api/v1/admin/federation/deliveries'],
    ['admin', '/api/v1/admin/federation/blocks'],
  ];

  it('covers every read a page makes', () => {
    const covered = new Set(cases().map(([, path]) => path));
    const reads = pageReads();
    // The scan finds the pages' reads (the session's profile read among them), not nothing.
    expect(reads.has('/api/v1/users/profile') && reads.has('/api/v1/blog/posts/public/{slug}')).toBe(true);
    expect(reads.size).toBeGreaterThanOrEqual(20);
    const missing = [...reads].filter((path) => !covered.has(path));
    expect(missing).toEqual([]);
  });

  it('answers every page read with the same status and body as HTTP, bad input included', async () => {
    const differences: string[] = [];
    for (const [caller, path, params] of cases()) {
      const { inProcess, overHttp } = await both(caller, path, params);
      if (!isDeepStrictEqual(inProcess, overHttp) || overHttp.status === 500) {
        differences.push(`${caller} GET ${urlOf(path, params)}: ${firstDifference(JSON.stringify(inProcess), JSON.stringify(overHttp))}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('knows every operation of the API by its OpenAPI path', async () => {
    const document = (await t.http.get('/api/docs-json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const known = new Set(gateway.operations());
    expect(documented.filter((operation) => !known.has(operation))).toEqual([]);
  });

  it('checks the session once per page request, however many reads the page makes', async () => {
    const page = gatewayFor('reader');
    const resolve = jest.spyOn(t.app.get(SessionsService), 'resolveCaller');
    // The profile comes with the session check: one query for the page's session, not two.
    const profileRead = jest.spyOn(t.app.get(UsersService), 'getProfile');
    try {
      for (const path of [
        '/api/v1/users/profile',
        '/api/v1/dashboard/quick-stats',
        '/api/v1/dashboard/user/stats',
        '/api/v1/comments/my-recent',
      ]) {
        expect((await page.call({ method: 'GET', path })).status).toBe(200);
      }
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(profileRead).not.toHaveBeenCalled();
      // A renewed session is a new caller: resolved again, once.
      const renewed = page.withCookies({ inkwell_access: users.admin.token });
      expect(((await renewed.call({ method: 'GET', path: '/api/v1/users/profile' })).body as { data: { id: number } }).data.id).toBe(
        users.admin.id,
      );
      await renewed.call({ method: 'GET', path: '/api/v1/dashboard/admin/stats' });
      expect(resolve).toHaveBeenCalledTimes(2);
    } finally {
      resolve.mockRestore();
      profileRead.mockRestore();
    }
  });

  it('runs writes through the same guards: a cookie write, the refresh cookies set as Set-Cookie', async () => {
    const page = gatewayFor('reader');
    const liked = await page.call({ method: 'POST', path: '/api/v1/likes/post/{id}/toggle', params: { path: { id: post.id } } });
    expect(liked.status).toBe(200);
    const overHttp = await t.http
      .get(api(`/likes/post/${post.id}/status`))
      .set(users.reader.auth)
      .expect(200);
    expect(overHttp.body.data.liked).toBe((liked.body as { data: { liked: boolean } }).data.liked);
    // Without a refresh cookie the refresh answers 401 and clears nothing it should not.
    const refresh = await gatewayFor('anonymous').call({ method: 'POST', path: '/api/v1/auth/refresh-token', body: {} });
    const http = await t.http.post(api('/auth/refresh-token')).set('X-Request-Timestamp', String(Date.now())).send({});
    expect({ status: refresh.status, body: comparable(refresh.body) }).toEqual({ status: http.status, body: comparable(http.body) });
  });
});

// The 'signed' phase of `npm run bench`: every row of its tables, each against
// its own-bytes ceiling (scripts/lib/own-ceiling.mjs), with their targets.
//
// Three servers, one after the other (BENCH_PHASES=signed runs them all):
// - 'signed' (page cache on, BENCH_DATA_DIR): it signs in (POST /auth/login) as a typical reader
//   (the median demo reader), reader-1 (the most likes), reader-2 (the like toggle), author-1 and
//   the demo admin, keeping each answer's bearer token and session cookies (a session signs in
//   again when it is 10 minutes old, before the 15-minute access token ends). API rows send the
//   bearer token, page rows the cookies and `Accept-Encoding: br, gzip`, as a browser does. The
//   typical reader is given replies until they hold NOTIFICATIONS_WANTED notifications (a full
//   page 0; a rerun adds none). Rows (api): quick-stats (the pipeline floor), the profile, the unread
//   count, the notification list page 0, reader stats of the typical reader and of reader-1, reader-1's
//   my-likes page 0, the comments page 0 of the most commented recent post, the admin user list
//   (page 0, page 4000, ?search=kowal), the admin post list; (page) the post page anonymous from the
//   cache (the reference) and signed in, /dashboard, /notifications, /author/posts, /admin,
//   /admin/users; BENCH_SIGNED_FRAGMENT=/path adds that path signed in (the personal fragment a
//   cached page loads; no target); the like toggle last (each flip clears the public caches).
//   The profile again with a personal API token of the same reader (`Bearer inkw_…`,
//   scope read; the run replaces the token it made last time), judged against the session's row.
// BENCH_SIGNED_ROWS=profile,profileToken measures only the rows with those keys, in that order
// (the table's other rows are then SKIP).
// - 'signed uncached' (PAGE_CACHE=off, same data): /, /blog, the post page, /blog/tag/{slug}.
// - 'signed 100k': the admin post list page 0 at 100,000 posts (target also p99 <= 10x p50), on
//   BENCH_DATA_DIR_100K, or seeded there (default <tmpdir>/inkwell-bench-100k) with seed:demo
//   --posts 100000 when BENCH_SEED_100K=1; skipped otherwise, and the output says so. With
//   BENCH_SMALL the scale is a tenth (10,000 posts).
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const HEAVY_READER = 'reader-1@demo.inkwell.test';
const TOGGLING_READER = 'reader-2@demo.inkwell.test';
const DEMO_AUTHOR = 'author-1@demo.inkwell.test';
const SESSION_RENEW_MS = 10 * 60_000;
const SESSION_COOKIES = ['inkwell_access', 'inkwell_refresh'];
const SIGNED_ADMIN_PAGE = 4000;
const LIKES_PAGE_SIZE = 10;
/** What /notifications asks (NOTIFICATIONS_PAGE_SIZE in frontend/src/features/notifications/notifications.ts). */
const NOTIFICATIONS_PAGE_SIZE = 20;
/** The typical reader holds at least this many notifications: page 0 is a full page. */
const NOTIFICATIONS_WANTED = 25;

/**
 * The rows and targets, in its order. min: the row's req/s as a share of its own-bytes
 * ceiling; tail: p99 at most tail x p50; versus: [phase, key, share] (req/s against another row's);
 * optional: shown only when measured. A name's {page} is the page the row asked (fewer members
 * than 40,000 make the deep page the last one).
 */
export const issue26Rows = ({ small }) => [
  { section: 'api', name: '`GET /dashboard/quick-stats` (no query: the pipeline floor)', phase: 'signed', key: 'quickStats', min: 0.25 },
  { section: 'api', name: '`GET /users/profile` (session + profile)', phase: 'signed', key: 'profile', min: 0.12 },
  // A token-authenticated request reaches the session's ratio (90 %: the runs' noise).
  // Judged by the own-bytes ratios (each the median of pairs measured in turn), which the machine's drift between two rows does not move as it moves req/s.
  {
    section: 'token',
    name: '`GET /users/profile` with an API token',
    phase: 'signed',
    key: 'profileToken',
    versus: ['signed', 'profile', 0.9],
    versusBy: 'ownRatio',
    versusLabel: "the session row's",
  },
  { section: 'api', name: '`GET /notifications/unread-count` (every signed-in view)', phase: 'signed', key: 'unreadCount', min: 0.12 },
  { section: 'api', name: '`GET /notifications` page 0', phase: 'signed', key: 'notifications0', min: 0.06 },
  { section: 'api', name: 'reader stats (typical reader)', phase: 'signed', key: 'readerStats', min: 0.05 },
  { section: 'api', name: 'reader stats (heaviest reader, reader-1)', phase: 'signed', key: 'readerStatsHeavy', min: 0.05 },
  { section: 'api', name: 'my-likes page 0 (reader-1)', phase: 'signed', key: 'likes0', min: 0.05 },
  { section: 'api', name: 'like toggle', phase: 'signed', key: 'toggle', min: 0.04 },
  { section: 'api', name: 'comments page 0 of the busiest post', phase: 'signed', key: 'comments0', min: 0.06 },
  { section: 'api', name: 'admin users page 0', phase: 'signed', key: 'users0', min: 0.05 },
  { section: 'api', name: 'admin users page {page}', phase: 'signed', key: 'usersDeep', min: 0.05 },
  { section: 'api', name: 'admin users search', phase: 'signed', key: 'usersSearch', min: 0.05 },
  { section: 'api', name: 'admin posts page 0', phase: 'signed', key: 'adminPosts', min: 0.05 },
  {
    section: 'api',
    name: `admin posts page 0 with ${small ? '10,000 posts (BENCH_SMALL)' : '100,000 posts'}`,
    phase: 'signed 100k',
    key: 'adminPosts100k',
    min: 0.05,
    tail: 10,
  },
  { section: 'page', name: 'post page, anonymous, cached (the reference)', phase: 'signed', key: 'postAnon' },
  { section: 'page', name: 'post page, signed in', phase: 'signed', key: 'postSigned', versus: ['signed', 'postAnon', 0.9] },
  { section: 'page', name: '`/dashboard`', phase: 'signed', key: 'dashboardPage', min: 0.03 },
  { section: 'page', name: '`/author/posts`', phase: 'signed', key: 'authorPostsPage', min: 0.03 },
  { section: 'page', name: '`/notifications`', phase: 'signed', key: 'notificationsPage', min: 0.03 },
  { section: 'page', name: '`/admin`', phase: 'signed', key: 'adminPage', min: 0.03 },
  { section: 'page', name: '`/admin/users`', phase: 'signed', key: 'adminUsersPage', min: 0.03 },
  { section: 'page', name: 'signed-in fragment (BENCH_SIGNED_FRAGMENT)', phase: 'signed', key: 'fragment', optional: true },
  ...['/', '/blog', '/blog/{slug}', '/blog/tag/{slug}'].map((path) => ({
    section: 'page',
    name: `\`${path}\` with \`PAGE_CACHE=off\``,
    phase: 'signed uncached',
    key: `uncached ${path}`,
    min: 0.08,
  })),
];

/** BENCH_SIGNED_ROWS: the row keys to measure (all when unset). */
const CHOSEN_ROWS = (process.env.BENCH_SIGNED_ROWS ?? '')
  .split(',')
  .map((key) => key.trim())
  .filter(Boolean);
const chosenRow = (key) => CHOSEN_ROWS.length === 0 || CHOSEN_ROWS.includes(key);
/** The chosen rows in the order BENCH_SIGNED_ROWS lists them (to see whether a row's place moves its figures). */
const inChosenOrder = (routes) =>
  CHOSEN_ROWS.length ? [...routes].sort((a, b) => CHOSEN_ROWS.indexOf(a[3]) - CHOSEN_ROWS.indexOf(b[3])) : routes;
/** The name of the personal API token the bench makes for its reader. */
const BENCH_TOKEN_NAME = 'Bench API token';

const pct = (value) => `${(value * 100).toFixed(value < 0.1 ? 2 : 1)} %`;

/**
 * One row of the signed phase judged: { name, row (measured, or undefined), verdict PASS | FAIL | SKIP | '' (no
 * target), target (text), detail (text) }. `skipped`: phase name -> why it did not run.
 */
export function judgeIssue26Row(spec, find, skipped = {}) {
  const row = find(spec.phase, spec.key);
  const name = spec.name.replace('{page}', /[?&]page=(\d+)/.exec(row?.path ?? '')?.[1] ?? String(SIGNED_ADMIN_PAGE));
  const target = spec.versus
    ? `>= ${spec.versus[2] * 100} % of ${spec.versusLabel ?? "the anonymous cached page's"} ${spec.versusBy === 'ownRatio' ? 'ratio' : 'req/s'}`
    : spec.min !== undefined
      ? `>= ${Math.round(spec.min * 100)} %${spec.tail ? `, p99 <= ${spec.tail}x p50` : ''}`
      : '';
  if (!row)
    return {
      name,
      row,
      verdict: spec.optional ? undefined : 'SKIP',
      target,
      detail: skipped[spec.phase] ?? (chosenRow(spec.key) ? 'phase not measured' : 'not in BENCH_SIGNED_ROWS'),
    };
  if (spec.versus) {
    const reference = find(spec.versus[0], spec.versus[1]);
    if (!reference) return { name, row, verdict: 'SKIP', target, detail: 'the reference row was not measured' };
    if (spec.versusBy === 'ownRatio') {
      const share = reference.ownRatio > 0 ? row.ownRatio / reference.ownRatio : 0;
      return {
        name,
        row,
        verdict: share >= spec.versus[2] ? 'PASS' : 'FAIL',
        target,
        detail: `ratio ${pct(row.ownRatio)} vs ${pct(reference.ownRatio)} (${(share * 100).toFixed(0)} %)`,
      };
    }
    const share = reference.rps > 0 ? row.rps / reference.rps : 0;
    return {
      name,
      row,
      verdict: share >= spec.versus[2] ? 'PASS' : 'FAIL',
      target,
      detail: `${row.rps.toFixed(0)} vs ${reference.rps.toFixed(0)} req/s (${(share * 100).toFixed(0)} %)`,
    };
  }
  if (spec.min === undefined) return { name, row, verdict: '', target, detail: '' };
  const tailOk = !spec.tail || row.p99 <= spec.tail * Math.max(row.p50, 1);
  const pass = row.ownRatio >= spec.min && tailOk;
  return {
    name,
    row,
    verdict: pass ? 'PASS' : 'FAIL',
    target,
    detail: `${pct(row.ownRatio)}${spec.tail ? `, p99 ${row.p99} ms = ${(row.p99 / Math.max(row.p50, 1)).toFixed(1)}x p50` : ''}`,
  };
}

/**
 * The phases for bench.mjs's PHASES. `context`: { root, small, log, getJson, paths, adminEmail,
 * adminPageSize, mostCommentedRecent, publicRoutes, demoPassword, reseedHint, minMembers,
 * pageHeaders, seedOnce(dir, args), seeded(dir, args) }. A phase's estimate: autocannon rows, other
 * seconds, servers started (1 unless said).
 */
export function signedPhases(context) {
  const { small, log, getJson, paths, pageHeaders, demoPassword, reseedHint, minMembers } = context;

  /**
   * A signed-in session: the bearer token and the session cookies of one POST /auth/login.
   * headers('bearer' | 'cookie') signs in again first when the session is SESSION_RENEW_MS old.
   */
  async function signedSession(base, email) {
    const session = { email };
    const signInNow = async () => {
      const response = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: demoPassword, rememberMe: false }),
      });
      if (!response.ok) throw new Error(`sign-in as ${email} answered ${response.status}: ${reseedHint}`);
      const token = (await response.json()).data.accessToken;
      const pairs = response.headers
        .getSetCookie()
        .map((header) => header.split(';')[0].trim())
        .filter((pair) => SESSION_COOKIES.some((name) => pair.startsWith(`${name}=`) && pair.length > name.length + 1));
      if (pairs.length !== SESSION_COOKIES.length)
        throw new Error(`sign-in as ${email} set ${pairs.length} of the session cookies ${SESSION_COOKIES.join(', ')}`);
      session.bearer = { authorization: `Bearer ${token}` };
      session.cookie = { cookie: pairs.join('; ') };
      session.signedInAt = Date.now();
    };
    await signInNow();
    session.headers = async (kind) => {
      if (Date.now() - session.signedInAt >= SESSION_RENEW_MS) {
        log(`signed: ${email} signs in again (the session is ${((Date.now() - session.signedInAt) / 60_000).toFixed(1)} min old)`);
        await signInNow();
      }
      return session[kind];
    };
    return session;
  }

  /**
   * A personal API token (scope read, no expiry) of `session`'s user, made through
   * POST /account/tokens with the session; the one an earlier run made is revoked first, so
   * runs do not pile tokens up. headers('bearer') gives `Authorization: Bearer inkw_…`.
   */
  async function apiTokenOf(base, session) {
    const call = async (method, path, body) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { ...(await session.headers('bearer')), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = response.status === 204 ? undefined : await response.json().catch(() => undefined);
      if (!response.ok)
        throw new Error(`signed: ${method} ${path} as ${session.email} answered ${response.status}: ${json?.message ?? ''}`);
      return json?.data;
    };
    for (const old of await call('GET', '/api/v1/account/tokens')) {
      if (old.name === BENCH_TOKEN_NAME) await call('DELETE', `/api/v1/account/tokens/${old.id}`);
    }
    const { token } = await call('POST', '/api/v1/account/tokens', { name: BENCH_TOKEN_NAME, scopes: ['read'], expiresInDays: null });
    const bearer = { authorization: `Bearer ${token}` };
    return { email: session.email, headers: async () => bearer };
  }

  /** The demo readers' count (reader-N e-mails, as the admin sees them) and the median one: a typical reader. */
  async function typicalReader(base, asAdmin) {
    const found = await getJson(`${base}/api/v1/admin/users/search?query=reader-&page=0&size=1`, asAdmin);
    if (!(found.totalElements > 0)) throw new Error(`no demo readers (reader-N@demo.inkwell.test): ${reseedHint}`);
    return `reader-${Math.ceil(found.totalElements / 2)}@demo.inkwell.test`;
  }

  /** Replies to a comment of `reader` until they hold NOTIFICATIONS_WANTED notifications (none when they do). */
  async function fillNotifications(base, reader, replier, postId) {
    const have = (await getJson(`${base}/api/v1/notifications?page=0&size=1`, reader.bearer)).totalElements;
    if (have >= NOTIFICATIONS_WANTED) return have;
    const send = async (session, body) => {
      const response = await fetch(`${base}/api/v1/comments`, {
        method: 'POST',
        headers: { ...session.bearer, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = await response.json().catch(() => undefined);
      if (response.status !== 201)
        throw new Error(`signed: POST /api/v1/comments as ${session.email} answered ${response.status}: ${json?.message ?? ''}`);
      return json.data;
    };
    const parent = await send(reader, { postId, content: `Bench: a comment to reply to ${Date.now()}` });
    for (let n = have; n < NOTIFICATIONS_WANTED; n += 1) await send(replier, { postId, parentId: parent.id, content: `Bench reply ${n}` });
    const now = (await getJson(`${base}/api/v1/notifications?page=0&size=1`, reader.bearer)).totalElements;
    log(`signed: ${reader.email} had ${have} notifications, now ${now} (replies from ${replier.email})`);
    return now;
  }

  /** Warnings about an answer the row should not have: a personal page must be private. */
  const personalPage = (answer) =>
    /private/.test(String(answer.headers['cache-control'] ?? ''))
      ? undefined
      : `a personal page came with Cache-Control '${answer.headers['cache-control']}' (not private)`;
  /** The post page signed in: served from the shared cache or rendered for the reader; both are right, the log says which. */
  const signedPostPage = (answer) =>
    `Cache-Control '${answer.headers['cache-control']}': ${/private/.test(String(answer.headers['cache-control'] ?? '')) ? 'rendered for the reader' : 'the shared cached page'}`;

  async function signedRoutes(base, firstPage, post) {
    const admin = await signedSession(base, context.adminEmail);
    const all = await getJson(`${base}${paths.adminUsers(0)}`, admin.bearer);
    if (all.totalElements < minMembers) throw new Error(`only ${all.totalElements} users (want ${minMembers}): ${reseedHint}`);
    const typicalEmail = await typicalReader(base, admin.bearer);
    const [reader, heavy, toggling, author] = await Promise.all(
      [typicalEmail, HEAVY_READER, TOGGLING_READER, DEMO_AUTHOR].map((email) => signedSession(base, email)),
    );
    const hot = await context.mostCommentedRecent(base, firstPage);
    // The replies go under a post the rows do not read (not the post page's, not the busiest one).
    const elsewhere = firstPage.content.find((card) => card.id !== post.id && card.id !== hot.card.id) ?? post;
    const notifications = await fillNotifications(base, reader, toggling, elsewhere.id);
    const deep = Math.min(SIGNED_ADMIN_PAGE, Math.ceil(all.totalElements / context.adminPageSize) - 1);
    if (deep !== SIGNED_ADMIN_PAGE)
      log(`signed: ${all.totalElements} users make ${deep + 1} pages: the deep admin page is page ${deep}, not ${SIGNED_ADMIN_PAGE}`);
    const readerName = typicalEmail.split('@')[0];
    const authorName = DEMO_AUTHOR.split('@')[0];
    log(
      `signed: typical reader ${typicalEmail} (${notifications} notifications), busiest post ${hot.card.id} (${hot.page.totalElements} top-level comments), ${all.totalElements} users, post page /blog/${post.slug}`,
    );
    const api = (session) => ({ auth: [session, 'bearer'] });
    const page = (session, check = personalPage) => ({ headers: pageHeaders, auth: [session, 'cookie'], check });
    const fragment = process.env.BENCH_SIGNED_FRAGMENT;
    const readerToken = chosenRow('profileToken') ? await apiTokenOf(base, reader) : undefined;
    const rows = [
      [`API quick-stats (${readerName}, floor)`, paths.quickStats, api(reader), 'quickStats'],
      [`API users/profile (${readerName})`, paths.profile, api(reader), 'profile'],
      // Right after the session's row: the same answer, the caller found by an API token instead.
      [`API users/profile (${readerName}, API token)`, paths.profile, { auth: [readerToken, 'bearer'] }, 'profileToken'],
      [`API notifications/unread-count (${readerName})`, '/api/v1/notifications/unread-count', api(reader), 'unreadCount'],
      [
        `API notifications page=0 size=${NOTIFICATIONS_PAGE_SIZE} (${readerName})`,
        `/api/v1/notifications?page=0&size=${NOTIFICATIONS_PAGE_SIZE}`,
        api(reader),
        'notifications0',
      ],
      [`API dashboard/user/stats (${readerName})`, paths.readerStats, api(reader), 'readerStats'],
      ['API dashboard/user/stats (reader-1)', paths.readerStats, api(heavy), 'readerStatsHeavy'],
      [`API my-likes page=0 size=${LIKES_PAGE_SIZE} (reader-1)`, paths.myLikes(0, LIKES_PAGE_SIZE), api(heavy), 'likes0'],
      [`API comments page=0, busiest post (${readerName})`, paths.comments(hot.card.id, 0), api(reader), 'comments0'],
      ['API admin users page=0', paths.adminUsers(0), api(admin), 'users0'],
      [`API admin users page=${deep}`, paths.adminUsers(deep), api(admin), 'usersDeep'],
      ['API admin users ?search=kowal', paths.adminUsers(0, 'search=kowal'), api(admin), 'usersSearch'],
      ['API admin posts PUBLISHED page=0', paths.adminPosts, api(admin), 'adminPosts'],
      // The reference right before the row it judges: the machine drifts over minutes.
      ['page /blog/{slug} (anonymous, cached)', `/blog/${post.slug}`, { headers: pageHeaders }, 'postAnon'],
      [`page /blog/{slug} (${readerName})`, `/blog/${post.slug}`, page(reader, signedPostPage), 'postSigned'],
      [`page /dashboard (${readerName})`, '/dashboard', page(reader), 'dashboardPage'],
      [`page /notifications (${readerName})`, '/notifications', page(reader), 'notificationsPage'],
      [`page /author/posts (${authorName})`, '/author/posts', page(author), 'authorPostsPage'],
      ['page /admin (admin)', '/admin', page(admin), 'adminPage'],
      ['page /admin/users (admin)', '/admin/users', page(admin), 'adminUsersPage'],
      ...(fragment ? [[`fragment ${fragment} (${readerName})`, fragment, page(reader, () => undefined), 'fragment']] : []),
      // Last: each flip clears the public caches. The ceiling sends the first flip's answer.
      ['API like toggle (reader-2, busiest post)', paths.likeToggle(hot.card.id), { method: 'POST', ...api(toggling) }, 'toggle'],
    ];
    return inChosenOrder(rows.filter(([, , , key]) => chosenRow(key)));
  }

  /** The second server (PAGE_CACHE=off): the public pages anonymous, rendered for each request. */
  async function signedUncachedRoutes(base, post) {
    return (await context.publicRoutes(base, post))
      .filter(([label]) => label.startsWith('page '))
      .map(([label, path, request]) => [`${label} (uncached)`, path, request, `uncached ${label.slice(5)}`])
      .filter(([, , , key]) => chosenRow(key));
  }

  // The 100,000-post data set: BENCH_DATA_DIR_100K, or seeded when BENCH_SEED_100K=1.
  const wantedPosts = small ? 10_000 : 100_000;
  const seedArgs = small
    ? ['--posts', '10000', '--likes', '20000', '--comments', '5000', '--users', '10000']
    : ['--posts', '100000', '--likes', '200000', '--comments', '50000', '--users', '100000'];
  const seedAsked = /^(1|true|yes|on)$/i.test(process.env.BENCH_SEED_100K ?? '');
  const dir100k = process.env.BENCH_DATA_DIR_100K
    ? resolve(context.root, process.env.BENCH_DATA_DIR_100K)
    : seedAsked
      ? join(tmpdir(), small ? 'inkwell-bench-small-10k' : 'inkwell-bench-100k')
      : undefined;
  const label100k = small ? '10,000-post (BENCH_SMALL)' : '100,000-post';

  async function routes100k(base) {
    const admin = await signedSession(base, context.adminEmail);
    const every = await getJson(`${base}/api/v1/blog/posts/admin/all?page=0&size=1`, admin.bearer);
    if (every.totalElements < wantedPosts) {
      throw new Error(
        `signed 100k: ${dir100k} holds ${every.totalElements} posts (want ${wantedPosts}): seed it with DATA_DIR=${dir100k} npm run seed:demo -- --reset ${seedArgs.join(' ')}`,
      );
    }
    log(`signed 100k: ${every.totalElements} posts in ${dir100k}`);
    return [
      [`API admin posts PUBLISHED page=0 (${every.totalElements} posts)`, paths.adminPosts, { auth: [admin, 'bearer'] }, 'adminPosts100k'],
    ].filter(([, , , key]) => chosenRow(key));
  }

  return [
    // One phase on three servers, one after the other: the cached server, PAGE_CACHE=off, the 100,000-post data set.
    {
      name: 'signed',
      env: {},
      postPageCeiling: false,
      estimate: { rows: CHOSEN_ROWS.length || 21 + (process.env.BENCH_SIGNED_FRAGMENT ? 1 : 0), seconds: 30 },
      routes: (base, firstPage, post) => signedRoutes(base, firstPage, post),
    },
    {
      name: 'signed uncached',
      group: 'signed',
      env: { PAGE_CACHE: 'off' },
      postPageCeiling: false,
      estimate: { rows: CHOSEN_ROWS.length ? 0 : 4, seconds: 0 },
      routes: (base, firstPage, post) => signedUncachedRoutes(base, post),
    },
    {
      name: 'signed 100k',
      group: 'signed',
      env: {},
      postPageCeiling: false,
      dataDir: dir100k,
      estimate: dir100k
        ? { rows: 1, seconds: seedAsked && !context.seeded(dir100k, seedArgs) ? (small ? 120 : 900) : 0 }
        : { rows: 0, seconds: 0, servers: 0 },
      /** Why the phase does not run (no data set asked for), after seeding it when BENCH_SEED_100K=1. */
      async prepare() {
        if (!dir100k) return `no ${label100k} data set: BENCH_DATA_DIR_100K=<dir> names one, BENCH_SEED_100K=1 seeds one`;
        if (seedAsked) await context.seedOnce(dir100k, seedArgs);
        return undefined;
      },
      routes: (base) => routes100k(base),
    },
  ];
}

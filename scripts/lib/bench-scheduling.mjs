// The scheduling phase of `npm run bench`: the scheduler's publish lag.
// author-1 writes 100 posts and submits them; the demo admin approves each with a publish time in
// one minute (the times spread over that minute, 0.6 s apart; the first at least 70 s ahead, since
// the API takes times a minute ahead or more). The phase then asks every post's public answer
// (GET /blog/posts/public/{slug}, what readers and the pages read) until it is there, and the lag
// of a post is the moment it was first seen public minus its scheduled time: the sweep's interval
// (SCHEDULER_INTERVAL_SECONDS, 10 s by default), the sweep's own work and the poll's 250 ms step.
// Target: p99 <= 30 s. No autocannon rows: the phase's figures are the lags.

const AUTHOR = 'author-1@demo.inkwell.test';
const POSTS = 100;
const POLL_MS = 250;
const POLL_CONCURRENCY = 16;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** The phase for bench.mjs's PHASES. `helpers`: { signIn(base, email), log, adminEmail }. */
export function schedulingPhase({ signIn, log, adminEmail }) {
  const figures = {};

  async function call(base, method, path, token, body) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await response.json().catch(() => undefined);
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${json?.message ?? ''}`);
    return json.data;
  }

  async function routes(base) {
    const [author, admin] = await Promise.all([signIn(base, AUTHOR), signIn(base, adminEmail)]);
    const minute = Math.ceil((Date.now() + 70_000) / 60_000) * 60_000;
    const posts = [];
    for (let i = 0; i < POSTS; i++) {
      const title = `Bench scheduled ${i} ${Date.now()}`;
      const post = await call(base, 'POST', '/api/v1/blog/posts/author/create', author, { title, content: `Body of ${title}.` });
      await call(base, 'POST', `/api/v1/blog/posts/author/${post.id}/submit-for-review`, author);
      const publishAt = new Date(minute + i * 600);
      await call(base, 'PUT', `/api/v1/blog/posts/admin/${post.id}/review`, admin, {
        status: 'APPROVED',
        publishAt: publishAt.toISOString(),
      });
      posts.push({ id: post.id, slug: post.slug, publishAt: publishAt.getTime(), seenAt: undefined });
    }
    log(
      `scheduling: ${POSTS} posts scheduled between ${new Date(minute).toISOString()} and ${new Date(minute + (POSTS - 1) * 600).toISOString()}; waiting for them to be public`,
    );
    const deadline = minute + 60_000 + 120_000;
    while (posts.some((post) => post.seenAt === undefined) && Date.now() < deadline) {
      const waiting = posts.filter((post) => post.seenAt === undefined && post.publishAt <= Date.now() + POLL_MS);
      for (let i = 0; i < waiting.length; i += POLL_CONCURRENCY) {
        await Promise.all(
          waiting.slice(i, i + POLL_CONCURRENCY).map(async (post) => {
            const response = await fetch(`${base}/api/v1/blog/posts/public/${post.slug}`);
            await response.arrayBuffer();
            if (response.status === 200) post.seenAt = Date.now();
          }),
        );
      }
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
    const lags = posts
      .filter((post) => post.seenAt !== undefined)
      .map((post) => Math.max(0, post.seenAt - post.publishAt) / 1000)
      .sort((a, b) => a - b);
    figures.lag = {
      published: lags.length,
      wanted: POSTS,
      p50: percentile(lags, 50) ?? Infinity,
      p99: percentile(lags, 99) ?? Infinity,
      max: lags.at(-1) ?? Infinity,
    };
    log(
      `scheduling: ${lags.length} of ${POSTS} public; lag p50 ${figures.lag.p50.toFixed(1)} s, p99 ${figures.lag.p99.toFixed(1)} s, max ${figures.lag.max.toFixed(1)} s`,
    );
    return [];
  }

  return {
    phase: { name: 'scheduling', env: {}, routes },
    /** Targets for bench.mjs's table: [name, rows it needs, pass, detail]. */
    targets() {
      return [
        [
          'scheduler publish lag p99 <= 30 s (100 posts, one minute)',
          [figures.lag],
          (lag) => lag.published === lag.wanted && lag.p99 <= 30,
          (lag) =>
            `p50 ${lag.p50.toFixed(1)} s, p99 ${lag.p99.toFixed(1)} s, max ${lag.max.toFixed(1)} s (${lag.published} of ${lag.wanted} public)`,
        ],
      ];
    },
  };
}

// The bench's `search` phase: relevance, speed, server times, index size and build time.
//
// On its first server (page cache on) the phase:
// - asks GET /api/v1/blog/search (page 0, size 3) for every query of the judged set
//   (scripts/search-judged.json): the expected post (by slug, one of the hand-written articles
//   seed:demo always includes, backend/src/bin/demo-articles.ts) must be in the top 3; it prints
//   the score and every miss with the top 3 it got;
// - runs backend/src/bin/bench-search-db.ts beside the server: EXPLAIN (ANALYZE) server times of
//   the SQL the search service itself runs for each judged query and for the common and rare
//   words (p50, p95), the search indexes' and tsvector columns' sizes, and the common words of
//   the data (words in nearly every published post);
// - measures the API for a common word (page 0) and a rare word, and the cached /search page.
//   The search service keeps each answer 5 s (a burst of one search makes one query), so the API
//   rows that carry the targets send a different search with each request: the same word in
//   another letter case (the API keys its answers by the query as typed; full-text search ignores
//   case), which makes every request a search in the database (rows labelled 'varied'). One row
//   asks one URL, as the other phases do, for comparison. API rows ask page 0 with size 10.
// After its rows, it times the index build (the migration's backfill and each index, in a
// transaction rolled back; posts are locked meanwhile, so nothing is measured then).
// Its second server (PAGE_CACHE=off, phase 'search uncached') measures /search?q= rendered for
// each request: with a different two-common-word query per request (the page lower-cases its
// query, so letter case cannot vary it), and with one URL for comparison.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A word of one hand-written article only (why-autovacuum-falls-behind-on-busy-tables). */
const RARE_WORD = 'autovacuum';
const TOP = 3;
/** Targets. */
const RELEVANCE_TARGET = 0.9;
const EXPLAIN_P50_TARGET_MS = 15;
/** From this many published posts the common-word target is the 100,000-post one (4 %), below it the 10,000-post one (8 %). */
const LARGE_SCALE = 50_000;

const state = { relevance: undefined, db: undefined, build: undefined, published: undefined, commonWord: undefined };

/** The same word in letter case variant k (bit i of k upper-cases letter i): up to 2^length distinct, equivalent searches. */
const caseVariant = (word, k) => [...word].map((letter, i) => ((k >> i) & 1 ? letter.toUpperCase() : letter)).join('');

/** An autocannon request list whose one request asks path(n) for the n-th request sent (all connections share n). */
function rotating(path) {
  let n = 0;
  return [{ setupRequest: (request) => ({ ...request, path: path(n++) }) }];
}

/** Runs the database half (bench-search-db.ts) on the DATA_DIR the server holds; resolves its JSON. */
function runDatabaseHalf(root, dataDir, args) {
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL; // the embedded database of the server being measured
  return new Promise((resolveRun, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(root, 'backend', 'src', 'bin', 'bench-search-db.ts'), ...args],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => {
      if (code === 0) resolveRun(JSON.parse(out.trim().split('\n').pop()));
      else reject(new Error(`bench-search-db ${args[0]} exited ${code}: ${err.trim()}`));
    });
  });
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
};

/** The judged set: each query's top 3 from the API; a hit when the expected slug is among them. */
async function judge(base, judged) {
  const results = [];
  for (const item of judged.queries) {
    const response = await fetch(`${base}/api/v1/blog/search?${new URLSearchParams({ q: item.q, page: '0', size: String(TOP) })}`);
    const body = await response.json();
    if (response.status !== 200)
      throw new Error(`search for ${JSON.stringify(item.q)} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    const top = body.data.content.map((hit) => ({ slug: hit.slug, title: hit.title, rank: hit.rank }));
    results.push({
      ...item,
      hit: top.some((hit) => hit.slug === item.slug),
      top,
      didYouMean: body.data.didYouMean,
      total: body.data.totalElements,
    });
  }
  return results;
}

/**
 * The phases to add to bench.mjs's PHASES. `context`: { root, dataDir, log, getJson, pageHeaders }
 * (pageHeaders: what browsers send, for the page rows).
 */
export function searchPhases({ root, dataDir, log, getJson, pageHeaders }) {
  const judged = JSON.parse(readFileSync(join(root, 'scripts', 'search-judged.json'), 'utf8'));
  const searchPath = (q, size = 10) => `/api/v1/blog/search?${new URLSearchParams({ q, page: '0', size: String(size) })}`;
  const pagePath = (q) => `/search?${new URLSearchParams({ q })}`;
  let commonWords = [];
  const commonPair = (n) =>
    `${commonWords[n % commonWords.length]} ${commonWords[Math.floor(n / commonWords.length) % commonWords.length]}`;

  return [
    {
      name: 'search',
      env: {},
      async routes(base) {
        state.published = (await getJson(`${base}/api/v1/blog/posts/public?page=0&size=1`)).totalElements;
        const missing = [];
        for (const slug of new Set(judged.queries.map((item) => item.slug))) {
          if ((await fetch(`${base}/api/v1/blog/posts/public/${slug}`)).status !== 200) missing.push(slug);
        }
        if (missing.length)
          log(
            `search: ${missing.length} judged articles are not in the data set (${missing.join(', ')}): seed it again with seed:demo --reset`,
          );
        state.relevance = await judge(base, judged);
        const hits = state.relevance.filter((item) => item.hit).length;
        log(
          `search: relevance ${hits}/${state.relevance.length}; EXPLAIN ANALYZE of the service's SQL for ${judged.queries.length + 2} searches`,
        );

        const scratch = mkdtempSync(join(tmpdir(), 'inkwell-bench-search-'));
        try {
          const file = join(scratch, 'queries.json');
          // The common word is only known after this run: the rare word and the judged queries here, the common word's own run below.
          writeFileSync(file, JSON.stringify([...judged.queries.map((item) => item.q), RARE_WORD]));
          const db = await runDatabaseHalf(root, dataDir, ['explain', file]);
          commonWords = db.commonWords;
          if (commonWords.length < 2)
            throw new Error(`search: no common words in the data set (${commonWords.length}): is it seeded with seed:demo?`);
          // The longest common word: the most letter-case variants (2^length), so the answer cache never holds one.
          state.commonWord = [...commonWords].sort((a, b) => b.length - a.length || a.localeCompare(b))[0];
          writeFileSync(file, JSON.stringify([state.commonWord]));
          const common = await runDatabaseHalf(root, dataDir, ['explain', file]);
          state.db = { ...db, explain: [...db.explain, ...common.explain] };
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }
        const word = state.commonWord;
        log(
          `search: common word '${word}' (in nearly every post; ${2 ** word.length} letter-case variants), rare word '${RARE_WORD}', ${commonWords.length} common words for the page's two-word searches`,
        );
        // One-URL rows first: a slow row leaves the server a backlog that the next row would wait behind.
        return [
          ['page /search?q= (cached)', pagePath(word), { headers: pageHeaders }, 'searchPageCached'],
          [`API search '${word}' (one URL)`, searchPath(word), {}, 'searchCommonOneUrl'],
          [
            `API search '${RARE_WORD}' (varied)`,
            searchPath(RARE_WORD),
            { requests: rotating((n) => searchPath(caseVariant(RARE_WORD, n))) },
            'searchRare',
          ],
          [
            `API search '${word}' (varied)`,
            searchPath(word),
            { requests: rotating((n) => searchPath(caseVariant(word, n))) },
            'searchCommon',
          ],
        ];
      },
      async after() {
        // At 100,000 posts the build takes minutes: BENCH_SEARCH_BUILD=0 leaves it out (the sizes are still read).
        if (process.env.BENCH_SEARCH_BUILD === '0') return log('search: BENCH_SEARCH_BUILD=0, the index build is not timed');
        log('search: timing the index build (backfill and indexes, rolled back; posts locked meanwhile)');
        state.build = await runDatabaseHalf(root, dataDir, ['build']);
      },
    },
    {
      name: 'search uncached',
      group: 'search',
      env: { PAGE_CACHE: 'off' },
      async routes() {
        // Filled by the first half (BENCH_PHASES=search runs both, in order).
        if (commonWords.length < 2) throw new Error('search uncached: the search phase did not run first');
        const word = state.commonWord;
        return [
          ['page /search?q= uncached (one URL)', pagePath(word), { headers: pageHeaders }, 'searchPageUncachedOneUrl'],
          [
            'page /search?q= uncached (varied)',
            pagePath(commonPair(0)),
            { headers: pageHeaders, requests: rotating((n) => pagePath(commonPair(n))) },
            'searchPageUncached',
          ],
        ];
      },
    },
  ];
}

const ms = (value) => `${value.toFixed(1)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Prints the relevance score and misses, the server times, the sizes and the build time (when the phase ran). */
export function printSearchFigures(write) {
  if (!state.relevance) return;
  const hits = state.relevance.filter((item) => item.hit);
  write(
    `\nSearch relevance (${state.published} published posts): ${hits.length}/${state.relevance.length} judged queries found their post in the top ${TOP} (${((hits.length / state.relevance.length) * 100).toFixed(1)} %)\n`,
  );
  const byKind = {};
  for (const item of state.relevance) {
    byKind[item.kind] ??= [0, 0];
    byKind[item.kind][0] += item.hit ? 1 : 0;
    byKind[item.kind][1] += 1;
  }
  write(
    `  by kind: ${Object.entries(byKind)
      .map(([kind, [hit, all]]) => `${kind} ${hit}/${all}`)
      .join(', ')}\n`,
  );
  for (const miss of state.relevance.filter((item) => !item.hit)) {
    write(
      `  MISS [${miss.kind}] ${JSON.stringify(miss.q)} wants ${miss.slug}; ${miss.total} found${miss.didYouMean ? `, did you mean ${JSON.stringify(miss.didYouMean)}` : ''}; top ${TOP}:\n`,
    );
    for (const hit of miss.top) write(`       ${hit.rank.toFixed(4)}  ${hit.slug}\n`);
    if (!miss.top.length) write('       (nothing)\n');
  }
  const times = state.db.explain.map((item) => item.serverMs);
  write(
    `Search server times, EXPLAIN (ANALYZE) of the service's SQL, planning + execution, page 0 size 10, ${times.length} searches: ` +
      `p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, max ${ms(Math.max(...times))}\n`,
  );
  const slowest = [...state.db.explain].sort((a, b) => b.serverMs - a.serverMs).slice(0, 5);
  write(
    `  slowest: ${slowest.map((item) => `${JSON.stringify(item.q)} ${ms(item.serverMs)} (${item.statements.length} statement${item.statements.length === 1 ? '' : 's'})`).join(', ')}\n`,
  );
  for (const word of [state.commonWord, RARE_WORD]) {
    const item = state.db.explain.find((entry) => entry.q === word);
    if (item) write(`  '${word}': ${ms(item.serverMs)}, ${item.totalElements} hits offered\n`);
  }
  const { size } = state.build ?? state.db;
  write(
    `Search index size (${size.posts} posts, ${size.published} published): ${size.indexes.map((index) => `${index.name} ${mb(index.bytes)}`).join(', ')}; ` +
      `tsvector columns search_document ${mb(size.documentBytes)}, search_head ${mb(size.headBytes)} (posts table ${mb(size.tableBytes)})\n`,
  );
  if (state.build) {
    const { documentsMs, indexMs, vacuumMs } = state.build.build;
    const total = documentsMs + Object.values(indexMs).reduce((sum, value) => sum + value, 0);
    write(
      `Search index build for ${size.posts} posts (the migration's backfill, then each index; rolled back): ${(total / 1000).toFixed(1)} s = documents ${(documentsMs / 1000).toFixed(1)} s + ` +
        `${Object.entries(indexMs)
          .map(([name, value]) => `${name} ${(value / 1000).toFixed(1)} s`)
          .join(' + ')} (VACUUM after: ${(vacuumMs / 1000).toFixed(1)} s)\n`,
    );
  }
}

/** The phase's targets, in bench.mjs's form: [name, rows it needs, pass(rows), detail(rows)]. */
export function searchTargets(find, ratio, percent) {
  const share = (phase, key, name, min) => [
    `${phase} ${name} >= ${Math.round(min * 100)} % of ceiling`,
    [find(phase, key)],
    (row) => ratio(row) >= min,
    percent,
  ];
  const large = (state.published ?? 0) >= LARGE_SCALE;
  const times = state.db?.explain.map((item) => item.serverMs);
  return [
    [
      `search relevance: expected post in top ${TOP} >= ${RELEVANCE_TARGET * 100} %`,
      [state.relevance],
      (all) => all.filter((item) => item.hit).length >= RELEVANCE_TARGET * all.length,
      (all) => `${all.filter((item) => item.hit).length}/${all.length}`,
    ],
    share('search', 'searchCommon', `API common word page 0${large ? ' (100,000 posts)' : ''}`, large ? 0.04 : 0.08),
    share('search', 'searchRare', 'API rare word', 0.08),
    share('search uncached', 'searchPageUncached', '/search?q= uncached', 0.05),
    share('search', 'searchPageCached', '/search?q= cached', 0.8),
    [
      `search EXPLAIN ANALYZE p50 <= ${EXPLAIN_P50_TARGET_MS} ms`,
      [times],
      (all) => quantile(all, 0.5) <= EXPLAIN_P50_TARGET_MS,
      (all) => `p50 ${ms(quantile(all, 0.5))}, p95 ${ms(quantile(all, 0.95))}`,
    ],
  ];
}

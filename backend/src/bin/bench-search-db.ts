import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { DataSource, EntityManager } from 'typeorm';
import { ContentEvents } from '../common/content-events';
import { loadConfig } from '../config/env';
import { createDataSource, ensureDatabase } from '../database/data-source';
import { runningEmbeddedPostgres } from '../database/embedded-postgres';
import { SearchQueryDto } from '../search/dto/search.dto';
import { SearchRepository } from '../search/search.repository';
import { SearchService } from '../search/search.service';

/**
 * The database half of the search bench (scripts/lib/bench-search.mjs runs it beside the server
 * it measures): `node -r @swc-node/register backend/src/bin/bench-search-db.ts explain <queries.json>`
 * or `... build`. Prints one JSON object on stdout:
 *
 * - `explain`: for each query of the file (a JSON array of strings), the server time of every SQL
 *   statement the search service runs for page 0, size 10 (the typo fallback's statements too),
 *   from EXPLAIN (ANALYZE, FORMAT JSON): planning + execution. The service and its repository
 *   run as they are, on a DataSource whose `query` explains each statement before it runs it, so
 *   the bench measures the service's own SQL, never a copy. Each query is searched once before
 *   (warm buffers, as on a server that has been running).
 * - `size`: the search indexes on posts (those over search_document / search_head and the title
 *   trigram index: found by their definition) and the stored tsvector columns, in bytes.
 * - `commonWords` (explain): words found in nearly every published post, read from the data.
 * - `build` (build mode): the time to build the index for every post as migration
 *   CreatePostSearch does, inside a transaction that is rolled back: its backfill
 *   (inkwell_refresh_post_documents over every post) with the search indexes dropped, then each
 *   index created again from its own definition (pg_get_indexdef); VACUUM posts afterwards removes
 *   the rolled-back row versions. It locks posts for that time: run it while nothing is measured.
 *
 * Connects like seed:demo: DATABASE_URL, or the embedded PostgreSQL of the Inkwell running on DATA_DIR.
 */
interface StatementTime {
  planningMs: number;
  executionMs: number;
}

interface ExplainedPlan {
  'Planning Time': number;
  'Execution Time': number;
}

const SEARCH_INDEX_DEFINITION = `(indexdef ILIKE '%search_document%' OR indexdef ILIKE '%search_head%' OR indexdef ILIKE '%gin_trgm_ops%')`;

type Query = (sql: string, parameters?: unknown[]) => Promise<unknown>;

/** `run` with each SELECT / WITH statement's EXPLAIN ANALYZE times recorded into `sink` first (SET and the like cannot be explained). */
function explainingQuery(run: Query, sink: StatementTime[]): Query {
  return async (sql, parameters) => {
    if (/^\s*(SELECT|WITH)\b/i.test(sql)) {
      const [row] = (await run(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, parameters)) as { 'QUERY PLAN': ExplainedPlan[] }[];
      const plan = row['QUERY PLAN'][0];
      sink.push({ planningMs: plan['Planning Time'], executionMs: plan['Execution Time'] });
    }
    return run(sql, parameters);
  };
}

/**
 * A DataSource whose statements are explained first (explainingQuery): its own query() and the
 * query() of the managers its transactions hand out (the search runs in one, after SET LOCAL).
 */
function explaining(dataSource: DataSource, sink: StatementTime[]): DataSource {
  const explainingManager = (manager: EntityManager) =>
    new Proxy(manager, {
      get: (target, property, receiver) =>
        property === 'query' ? explainingQuery(target.query.bind(target), sink) : Reflect.get(target, property, receiver),
    });
  return new Proxy(dataSource, {
    get(target, property, receiver) {
      if (property === 'query') return explainingQuery(target.query.bind(target), sink);
      if (property === 'transaction') {
        return <T>(work: (manager: EntityManager) => Promise<T>) => target.transaction((manager) => work(explainingManager(manager)));
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

function searchService(dataSource: DataSource, config: ReturnType<typeof loadConfig>): SearchService {
  return new SearchService(new SearchRepository(dataSource), config, new ContentEvents());
}

const pageZero = (q: string): SearchQueryDto => Object.assign(new SearchQueryDto(), { q: q.trim(), page: 0, size: 10 });

async function explain(dataSource: DataSource, config: ReturnType<typeof loadConfig>, queries: string[]) {
  const warm = searchService(dataSource, config);
  const results: { q: string; statements: StatementTime[]; serverMs: number; totalElements: number }[] = [];
  for (const q of queries) {
    await warm.search(pageZero(q));
    const statements: StatementTime[] = [];
    // A fresh service per query: its answer cache must not answer.
    const answer = await searchService(explaining(dataSource, statements), config).search(pageZero(q));
    const serverMs = statements.reduce((sum, statement) => sum + statement.planningMs + statement.executionMs, 0);
    results.push({ q, statements, serverMs, totalElements: answer.totalElements });
  }
  return results;
}

async function sizes(dataSource: DataSource) {
  const indexes = (await dataSource.query(
    `SELECT indexname AS name, pg_relation_size(format('%I.%I', schemaname, indexname)::regclass)::bigint AS bytes
       FROM pg_indexes WHERE tablename = 'posts' AND ${SEARCH_INDEX_DEFINITION} ORDER BY indexname`,
  )) as { name: string; bytes: string }[];
  const [columns] = (await dataSource.query(
    `SELECT count(*)::int AS posts, count(*) FILTER (WHERE status = 'PUBLISHED')::int AS published,
            COALESCE(sum(pg_column_size(search_document)), 0)::bigint AS document_bytes, COALESCE(sum(pg_column_size(search_head)), 0)::bigint AS head_bytes,
            pg_table_size('posts')::bigint AS table_bytes
       FROM posts`,
  )) as { posts: number; published: number; document_bytes: string; head_bytes: string; table_bytes: string }[];
  return {
    indexes: indexes.map((index) => ({ name: index.name, bytes: Number(index.bytes) })),
    posts: columns.posts,
    published: columns.published,
    documentBytes: Number(columns.document_bytes),
    headBytes: Number(columns.head_bytes),
    tableBytes: Number(columns.table_bytes),
  };
}

async function build(dataSource: DataSource) {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const timed = async (sql: string) => {
    const started = process.hrtime.bigint();
    await runner.query(sql);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  try {
    await runner.startTransaction();
    const indexes = (await runner.query(
      `SELECT format('%I.%I', schemaname, indexname) AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'posts' AND ${SEARCH_INDEX_DEFINITION} ORDER BY indexname`,
    )) as { name: string; definition: string }[];
    for (const index of indexes) await runner.query(`DROP INDEX ${index.name}`);
    const documentsMs = await timed(`SELECT inkwell_refresh_post_documents(ARRAY(SELECT id FROM posts))`);
    const indexMs: Record<string, number> = {};
    for (const index of indexes) indexMs[index.name] = await timed(index.definition);
    await runner.rollbackTransaction();
    const vacuumMs = await timed('VACUUM posts');
    return { documentsMs, indexMs, vacuumMs };
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    await runner.release();
  }
}

/** The embedded PostgreSQL of the Inkwell that runs on `dataDir` (the server the bench measures). */
function runningServerDatabase(dataDir: string): string {
  const running = runningEmbeddedPostgres(dataDir);
  if (!running) throw new Error(`no Inkwell is running on DATA_DIR ${dataDir} (and no DATABASE_URL)`);
  return running.url;
}

/**
 * Words found in nearly every published post (in 80 % of a sample of 200), of 5 letters or more,
 * most frequent first: the bench's common words, read from the data rather than from the seed.
 */
async function commonWords(dataSource: DataSource): Promise<string[]> {
  const rows = (await dataSource.query(
    `SELECT word FROM ts_stat($$SELECT search_document FROM posts WHERE status = 'PUBLISHED' ORDER BY id LIMIT 200$$)
      WHERE ndoc >= 160 AND length(word) >= 5 AND word ~ '^[a-z]+$' ORDER BY ndoc DESC, word`,
  )) as { word: string }[];
  return rows.map((row) => row.word);
}

async function main(): Promise<void> {
  const [mode, queriesFile] = process.argv.slice(2);
  if (!(mode === 'explain' && queriesFile) && mode !== 'build') throw new Error('usage: bench-search-db explain <queries.json> | build');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const dataSource = createDataSource(config.databaseUrl ?? (await ensureDatabase(runningServerDatabase(config.dataDir), 'inkwell')));
  await dataSource.initialize();
  try {
    const result =
      mode === 'build'
        ? { build: await build(dataSource), size: await sizes(dataSource) }
        : {
            explain: await explain(dataSource, config, JSON.parse(readFileSync(queriesFile, 'utf8')) as string[]),
            size: await sizes(dataSource),
            commonWords: await commonWords(dataSource),
          };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-search-db failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

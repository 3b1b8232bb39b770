import 'reflect-metadata';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ensureDatabase } from '../database/data-source';
import { startEmbeddedPostgres } from '../database/embedded-postgres';

/**
 * `node -r @swc-node/register backend/src/bin/measure-analytics-storage.ts [rows]`: the storage
 * choice of docs/analytics.md, measured. On a throw-away embedded PostgreSQL, the raw view table
 * twice: (a) one table with a BRIN index on ts, (b) partitioned by day (range partitions, each
 * with its own BRIN index). Each gets `rows` views (default 3,000,000) over 30 days in time order,
 * then: 200 batches of 1,000 rows as the recorder writes them (one INSERT … unnest each), a
 * one-day range query (per post counts and distinct visitors), a 30-day one, and the retention
 * step (the oldest 10 days: DELETE, or DROP of their partitions, with VACUUM for the table).
 */
const ROWS = Number(process.argv[2] ?? 3_000_000);
const DAYS = 30;

const COLUMNS = `ts timestamptz NOT NULL, post_id int, author_id int, page_kind varchar(16) NOT NULL, visitor bigint,
  source varchar(16) NOT NULL, source_host varchar(253) NOT NULL DEFAULT '', device varchar(8) NOT NULL`;

async function timed(client: Client, label: string, sql: string, params: unknown[] = []): Promise<number> {
  const started = process.hrtime.bigint();
  await client.query(sql, params);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(`  ${label}: ${ms.toFixed(0)} ms\n`);
  return ms;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-storage-'));
  chmodSync(dataDir, 0o755);
  const db = await startEmbeddedPostgres(dataDir, () => undefined);
  const client = new Client({ connectionString: await ensureDatabase(db.url, 'measure') });
  await client.connect();
  try {
    const start = Date.parse(new Date().toISOString().slice(0, 10)) - (DAYS - 1) * 86_400_000;
    const fill = (table: string) => `INSERT INTO ${table}
      SELECT to_timestamp(($1::float8 + (g::float8 / $2) * ${DAYS} * 86400000) / 1000), 1 + (random() * 5000)::int, 1 + (random() * 50)::int, 'post',
             (random() * 100000)::bigint, 'search', 'google.com', 'mobile'
      FROM generate_series(0, $2::int - 1) g`;
    const batch = (table: string) => `INSERT INTO ${table}
      SELECT to_timestamp(at), p, a, 'post', v, 'direct', '', 'desktop'
      FROM unnest($1::float8[], $2::int[], $3::int[], $4::bigint[]) AS u(at, p, a, v)`;
    const lastDay = new Date(start + (DAYS - 1) * 86_400_000);
    const oldest = new Date(start + 10 * 86_400_000);
    const batchRows = Array.from({ length: 1000 }, (_, i) => i);
    const now = Date.now() / 1000;
    const batchParams = [
      batchRows.map((i) => now + i / 1000),
      batchRows.map((i) => 1 + (i % 5000)),
      batchRows.map((i) => 1 + (i % 50)),
      batchRows,
    ];

    process.stdout.write(`(a) one table, BRIN on ts; ${ROWS} rows over ${DAYS} days\n`);
    await client.query(`CREATE TABLE views_brin (${COLUMNS})`);
    await client.query(`CREATE INDEX ON views_brin USING brin (ts) WITH (pages_per_range = 32)`);
    await timed(client, 'bulk insert', fill('views_brin'), [start, ROWS]);
    await client.query('VACUUM ANALYZE views_brin');
    let ms = 0;
    for (let i = 0; i < 200; i++) {
      const t0 = process.hrtime.bigint();
      await client.query(batch('views_brin'), batchParams);
      ms += Number(process.hrtime.bigint() - t0) / 1e6;
    }
    process.stdout.write(`  200 batches of 1,000 rows: ${(ms / 200).toFixed(1)} ms a batch\n`);
    const oneDay = `SELECT post_id, count(*), count(DISTINCT visitor) FROM %T WHERE ts >= $1 GROUP BY post_id`;
    for (let i = 0; i < 2; i++) await timed(client, `1-day query (run ${i + 1})`, oneDay.replace('%T', 'views_brin'), [lastDay]);
    await timed(
      client,
      '30-day per-day count',
      `SELECT (ts AT TIME ZONE 'UTC')::date, count(*) FROM views_brin WHERE ts >= $1 GROUP BY 1`,
      [new Date(start)],
    );
    await timed(client, 'retention: DELETE 10 oldest days', `DELETE FROM views_brin WHERE ts < $1`, [oldest]);
    await timed(client, 'retention: VACUUM', `VACUUM views_brin`);
    const [brinSize] = (
      await client.query(
        `SELECT pg_size_pretty(pg_total_relation_size('views_brin')) AS s, pg_size_pretty(pg_indexes_size('views_brin')) AS i`,
      )
    ).rows;
    process.stdout.write(`  size after: ${brinSize.s} (indexes ${brinSize.i})\n`);

    process.stdout.write(`(b) partitioned by day (${DAYS + 1} partitions, BRIN on ts each)\n`);
    await client.query(`CREATE TABLE views_part (${COLUMNS}) PARTITION BY RANGE (ts)`);
    for (let d = 0; d <= DAYS; d++) {
      const from = new Date(start + d * 86_400_000).toISOString();
      const to = new Date(start + (d + 1) * 86_400_000).toISOString();
      await client.query(`CREATE TABLE views_part_${d} PARTITION OF views_part FOR VALUES FROM ('${from}') TO ('${to}')`);
    }
    await client.query(`CREATE INDEX ON views_part USING brin (ts) WITH (pages_per_range = 32)`);
    await timed(client, 'bulk insert', fill('views_part'), [start, ROWS]);
    await client.query('VACUUM ANALYZE views_part');
    ms = 0;
    for (let i = 0; i < 200; i++) {
      const t0 = process.hrtime.bigint();
      await client.query(batch('views_part'), batchParams);
      ms += Number(process.hrtime.bigint() - t0) / 1e6;
    }
    process.stdout.write(`  200 batches of 1,000 rows: ${(ms / 200).toFixed(1)} ms a batch\n`);
    for (let i = 0; i < 2; i++) await timed(client, `1-day query (run ${i + 1})`, oneDay.replace('%T', 'views_part'), [lastDay]);
    await timed(
      client,
      '30-day per-day count',
      `SELECT (ts AT TIME ZONE 'UTC')::date, count(*) FROM views_part WHERE ts >= $1 GROUP BY 1`,
      [new Date(start)],
    );
    let dropMs = 0;
    for (let d = 0; d < 10; d++) dropMs += await timed(client, `retention: DROP partition ${d}`, `DROP TABLE views_part_${d}`);
    process.stdout.write(`  retention: 10 partitions dropped in ${dropMs.toFixed(0)} ms\n`);
  } finally {
    await client.end();
    await db.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

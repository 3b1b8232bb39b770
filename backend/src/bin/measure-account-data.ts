import 'reflect-metadata';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AccountErasureService } from '../account-data/account-erasure.service';
import { AccountExportWriter } from '../account-data/account-export-writer';
import { createApp } from '../app.factory';
import type { AuthUser } from '../auth/auth-user';
import { RoleName } from '../users/roles';
import { loadConfig } from '../config/env';
import { ensureDatabase } from '../database/data-source';
import { startEmbeddedPostgres } from '../database/embedded-postgres';
import { UserLifecycleService } from '../users/user-lifecycle.service';

/**
 * The figures for 'Your data', on a copy of the demo data (never on data you keep):
 *
 *   cp -a <seeded DATA_DIR> /tmp/copy
 *   node -r @swc-node/register backend/src/bin/measure-account-data.ts --data-dir /tmp/copy [--reader reader-1@demo.inkwell.test]
 *
 * 1. The erasure of a heavy reader (the demo's reader-1): its likes and comments are counted, the
 *    erasure runs (AccountErasureService, what the job runs), and every kept counter is compared
 *    with its aggregate over the whole database before and after (must be 0 differences).
 * 2. The export of an author with 1,000 posts and 5,000 comments (added to a demo author's own
 *    rows until it has them): the archive is written (AccountExportWriter, what the job runs) while
 *    the process's RSS is sampled every 20 ms; its peak must stay under 300 MB.
 */
const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};

/** Every kept counter that differs from its aggregate (the e2e suite's query). */
const DRIFT_SQL = `
  SELECT 'post.like_count' AS counter, count(*)::int AS rows FROM posts p WHERE p.like_count <> (SELECT count(*) FROM likes l WHERE l.post_id = p.id)
  UNION ALL SELECT 'post.comment_count', count(*)::int FROM posts p
    WHERE p.comment_count <> (SELECT count(*) FROM comments c WHERE c.post_id = p.id AND c.deleted_at IS NULL AND c.moderation = 'VISIBLE')
  UNION ALL SELECT 'comment.reply_count', count(*)::int FROM comments c
    WHERE c.reply_count <> (SELECT count(*) FROM comments r WHERE r.parent_id = c.id AND r.moderation = 'VISIBLE')
  UNION ALL SELECT 'comment.report_count', count(*)::int FROM comments c
    WHERE c.report_count <> (SELECT count(*) FROM comment_reports cr WHERE cr.comment_id = c.id AND cr.dismissed_at IS NULL)
  UNION ALL SELECT 'reader_like_counts', count(*)::int FROM users u LEFT JOIN reader_like_counts r ON r.user_id = u.id
    WHERE COALESCE(r.published_likes, 0) <> (SELECT count(*) FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED' WHERE l.user_id = u.id)`;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const dataDir = option('data-dir');
  if (!dataDir) throw new Error('--data-dir <a copy of a seeded DATA_DIR> is required');
  const readerEmail = option('reader', 'reader-1@demo.inkwell.test')!;
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '3999' });
  const embedded = await startEmbeddedPostgres(config.dataDir, (line) => process.stderr.write(`${line}\n`));
  const databaseUrl = await ensureDatabase(embedded.url, 'inkwell');
  const app = await createApp({ config, databaseUrl });
  await app.init();
  const db = app.get(DataSource);
  const drift = async () => ((await db.query(DRIFT_SQL)) as { counter: string; rows: number }[]).filter((row) => row.rows > 0);

  try {
    // ---- 1. the erasure of reader-1 --------------------------------------------------------------
    const [reader] = (await db.query(
      `SELECT u.id, (SELECT count(*)::int FROM likes WHERE user_id = u.id) AS likes, (SELECT count(*)::int FROM comments WHERE user_id = u.id) AS comments
         FROM users u WHERE u.email = $1`,
      [readerEmail],
    )) as { id: number; likes: number; comments: number }[];
    if (!reader) throw new Error(`no account ${readerEmail} in this data`);
    const before = await drift();
    console.log(
      `${readerEmail}: id ${reader.id}, ${reader.likes} likes, ${reader.comments} comments; counters off before: ${JSON.stringify(before)}`,
    );
    // Scheduled an hour ahead (its job waits), then made due: the erasure below is the one measured.
    const owner = { id: reader.id, fullName: 'measure', role: RoleName.USER, roles: [RoleName.USER] } as unknown as AuthUser;
    await app.get(UserLifecycleService).scheduleDeletion(reader.id, new Date(Date.now() + 3_600_000), 'self', owner);
    await db.query(`UPDATE users SET deletion_due_at = now() WHERE id = $1`, [reader.id]);
    const started = performance.now();
    const erased = await app.get(AccountErasureService).erase(reader.id);
    const seconds = (performance.now() - started) / 1000;
    const after = await drift();
    console.log(`erasure: ${seconds.toFixed(2)} s, ${JSON.stringify(erased)}; counters off after: ${JSON.stringify(after)}`);
    if (before.length || after.length) process.exitCode = 1;

    // ---- 2. the export of an author with 1,000 posts and 5,000 comments -------------------------
    const [author] = (await db.query(
      `SELECT u.id, u.email FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id AND r.name = 'AUTHOR'
        WHERE u.placeholder IS NULL ORDER BY (SELECT count(*) FROM posts p WHERE p.author_id = u.id) DESC LIMIT 1`,
    )) as { id: number; email: string }[];
    const count = async (table: string, column: string) =>
      ((await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [author.id])) as { n: number }[])[0].n;
    const morePosts = Math.max(0, 1000 - (await count('posts', 'author_id')));
    // Copies of the site's own posts (their full bodies), as drafts with slugs of their own.
    await db.query(
      `INSERT INTO posts (title, slug, summary, content, content_html, status, author_id, word_count, reading_time)
       SELECT p.title, 'measure-' || p.id || '-' || g, p.summary, p.content, p.content_html, 'DRAFT', $1, p.word_count, p.reading_time
         FROM generate_series(1, $2::int) g JOIN LATERAL (SELECT * FROM posts ORDER BY id OFFSET (g % 500) LIMIT 1) p ON true`,
      [author.id, morePosts],
    );
    const moreComments = Math.max(0, 5000 - (await count('comments', 'user_id')));
    await db.query(
      `INSERT INTO comments (post_id, user_id, content, level, moderation)
       SELECT (SELECT id FROM posts WHERE status = 'PUBLISHED' ORDER BY id OFFSET (g % 1000) LIMIT 1), $1, 'Measured comment ' || g, 0, 'VISIBLE'
         FROM generate_series(1, $2::int) g`,
      [author.id, moreComments],
    );
    const posts = await count('posts', 'author_id');
    const comments = await count('comments', 'user_id');
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const dir = mkdtempSync(join(tmpdir(), 'inkwell-measure-export-'));
    const path = join(dir, 'export.zip');
    const exportStarted = performance.now();
    await app.get(AccountExportWriter).write(author.id, path, async () => undefined);
    const exportSeconds = (performance.now() - exportStarted) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(
      `export of ${author.email}: ${posts} posts, ${comments} comments: ${exportSeconds.toFixed(2)} s, zip ${mb(statSync(path).size)}; ` +
        `RSS before ${mb(baseline)}, peak during ${mb(peak)} (process max ${mb(process.resourceUsage().maxRSS * 1024)})`,
    );
    if (peak >= 300 * 1024 * 1024) process.exitCode = 1;
    rmSync(dir, { recursive: true, force: true });
  } finally {
    await app.close();
    await embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

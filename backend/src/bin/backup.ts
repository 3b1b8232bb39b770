import 'reflect-metadata';
import { inkwellVersion } from '../backup/backup-format';
import { formatBytes, writeBackup } from '../backup/backup-writer';
import { finishRun, startRun } from '../backup/backup-runs';
import { askPassphrase } from '../backup/passphrase';
import { loadConfig } from '../config/env';
import { ensureDatabase } from '../database/data-source';
import { EmbeddedDatabase, runningEmbeddedPostgres, startEmbeddedPostgres } from '../database/embedded-postgres';

/**
 * `npm run backup`: one archive in BACKUP_DIR (default DATA_DIR/backups) while the site keeps
 * serving (docs/operations.md#backup). The embedded database is read through the running server's
 * PostgreSQL when a server holds DATA_DIR, else through one started for the backup. With
 * DATABASE_URL the database is the operator's: the archive holds images and secrets, and this
 * prints how to back the database up with their server's own tools.
 */
async function main(): Promise<number> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const passphrase = await askPassphrase(config.backup.passphrase, true);
  /** Writes the archive (rows from `databaseUrl` unless it is the operator's), recorded in backup_runs of `recordUrl`. */
  const run = async (databaseUrl: string | undefined, recordUrl: string) => {
    const id = await startRun(recordUrl, 'command', new Date()).catch(() => undefined);
    try {
      const result = await write(databaseUrl);
      await finishRun(recordUrl, id, { file: result.file, bytes: result.bytes }).catch(() => undefined);
      return result;
    } catch (error) {
      await finishRun(recordUrl, id, { error: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
      throw error;
    }
  };
  const write = (databaseUrl: string | undefined) =>
    writeBackup({
      databaseUrl,
      dataDir: config.dataDir,
      backupDir: config.backup.dir,
      storage: config.storage,
      secrets: {
        jwtSecret: config.jwtSecret,
        passwordPepper: config.passwordPepper,
        fromEnvironment: config.backup.secretsFromEnvironment,
      },
      passphrase,
      inkwellVersion: inkwellVersion(),
      progress: say,
    });

  if (config.databaseUrl) {
    const result = await run(undefined, config.databaseUrl);
    const url = new URL(config.databaseUrl);
    say(
      [
        `The database is yours (DATABASE_URL): ${result.file} holds the images and secrets only.`,
        "Back the database up with the pg_dump of your server's major version, at the same time, e.g.:",
        `  pg_dump --format=custom --file=inkwell-db-$(date +%Y%m%d-%H%M%S).dump "postgres://${url.username}@${url.host}${url.pathname}"`,
        'and restore it with pg_restore --clean --if-exists --dbname=... before starting Inkwell on it.',
      ].join('\n'),
    );
    return 0;
  }
  const running = runningEmbeddedPostgres(config.dataDir);
  if (running) {
    say(`DATA_DIR ${config.dataDir} belongs to the running Inkwell (pid ${running.serverPid}): backing up through its database`);
    const url = await ensureDatabase(running.url, 'inkwell');
    const result = await run(url, url);
    say(`backup complete: ${result.file} (${formatBytes(result.bytes)})`);
    return 0;
  }
  let embedded: EmbeddedDatabase | undefined;
  try {
    embedded = await startEmbeddedPostgres(config.dataDir, say);
    const url = await ensureDatabase(embedded.url, 'inkwell');
    const result = await run(url, url);
    say(`backup complete: ${result.file} (${formatBytes(result.bytes)})`);
    return 0;
  } finally {
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

import 'reflect-metadata';
import { resolve } from 'node:path';
import { BackupRefused } from '../backup/backup-format';
import { restoreBackup } from '../backup/backup-restore';
import { askPassphrase } from '../backup/passphrase';
import { loadConfig } from '../config/env';

/**
 * `npm run restore -- FILE [--force]`: restores a backup into DATA_DIR (docs/operations.md#restore).
 * Refuses a non-empty DATA_DIR without --force; checks the passphrase and every checksum before
 * writing anything; prints each table's rows against the manifest's.
 */
const USAGE = 'usage: npm run restore -- FILE [--force]   (BACKUP_PASSPHRASE, or typed at the prompt)';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const files = args.filter((arg) => !arg.startsWith('--'));
  if (files.length !== 1 || args.some((arg) => arg.startsWith('--') && arg !== '--force')) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  // Placeholders for the secrets: loading the configuration must not generate DATA_DIR/secrets.json
  // (the folder must stay empty until the archive is verified; the restore writes the archive's).
  const placeholder = 'restore-placeholder-'.padEnd(40, '-');
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    BACKUP_SCHEDULE: '',
    JWT_SECRET: placeholder,
    PASSWORD_PEPPER: placeholder,
  });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const passphrase = await askPassphrase(config.backup.passphrase, false);
  const result = await restoreBackup({
    file: resolve(files[0]),
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    passphrase,
    force: args.includes('--force'),
    progress: say,
  });
  const { manifest } = result;
  say(
    `restored a backup of ${manifest.createdAt} (Inkwell ${manifest.inkwellVersion}, PostgreSQL ${manifest.postgresVersion ?? '-'}) into ${config.dataDir}:`,
  );
  let mismatches = 0;
  for (const table of manifest.tables) {
    const key = `${table.schema}.${table.name}`;
    const now = result.counts[key];
    if (now !== table.rows) mismatches++;
    say(`  ${key.padEnd(48)} ${String(now).padStart(9)} rows${now === table.rows ? '' : `  (manifest: ${table.rows})`}`);
  }
  say(`  images: ${result.images} of ${manifest.images.files} (${manifest.images.driver})`);
  if (manifest.database === 'external')
    say('the database was not in this archive (DATABASE_URL): restore it with your own tools (pg_restore)');
  if (mismatches) {
    say(`${mismatches} table(s) differ from the manifest`);
    return 1;
  }
  say('every count matches the manifest. Start Inkwell on this DATA_DIR (npm start): it applies any newer migrations.');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${error instanceof BackupRefused ? 'restore refused' : 'restore failed'}: ${message}\n`);
    process.exit(1);
  },
);

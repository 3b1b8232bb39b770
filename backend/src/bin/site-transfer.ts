import 'reflect-metadata';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { createApp } from '../app.factory';
import { ACCOUNT_INVITATION_QUEUE } from '../imports/account-invitations';
import { loadConfig } from '../config/env';
import { ensureDatabase } from '../database/data-source';
import { EmbeddedDatabase, runningEmbeddedPostgres, startEmbeddedPostgres } from '../database/embedded-postgres';
import { ImportSource, SiteImport } from '../imports/entities/site-import.entity';
import { importsFolder } from '../imports/import-upload.interceptor';
import { ImportsService } from '../imports/imports.service';
import { JobsService } from '../jobs/jobs.service';
import { SiteExporter } from '../imports/site-exporter.service';
import { SiteImporter } from '../imports/site-importer.service';

/**
 * The command line of site import and export, the same services as /admin/import and
 * /admin/export:
 *
 *   npm run import -- --wordpress file.xml [--media media.zip] [--invite]
 *   npm run import -- --ghost file.json [--media images.zip] [--invite]
 *   npm run import -- --inkwell inkwell-export.zip [--invite]
 *   npm run export -- [--out file.zip]
 *
 * On the configured database (DATABASE_URL, or the embedded one in DATA_DIR, through the running
 * server's PostgreSQL when a server holds DATA_DIR, which is then told to drop its caches). The
 * import runs in this process, in the name of the first administrator, and prints its progress.
 * `--invite` (the page's 'E-mail an invitation' box): each author account the import creates is
 * e-mailed a link to choose its password; the command waits (a while) for the queue to send them.
 */
const USAGE =
  'usage: npm run import -- (--wordpress file.xml [--media media.zip] | --ghost file.json [--media images.zip] | --inkwell export.zip) [--invite]\n       npm run export -- [--out file.zip]';

/** How long the command waits for the invitation e-mails it queued before leaving them to the server. */
const INVITATIONS_WAIT_MS = 60_000;

function argument(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  if (config.databaseUrl) return work(config.databaseUrl);
  const running = runningEmbeddedPostgres(config.dataDir);
  if (running) {
    process.stdout.write(`DATA_DIR ${config.dataDir} belongs to the running Inkwell (pid ${running.serverPid}): working on its database\n`);
    const result = await work(await ensureDatabase(running.url, 'inkwell'));
    process.kill(running.serverPid, running.resyncSignal);
    return result;
  }
  let embedded: EmbeddedDatabase | undefined;
  try {
    embedded = await startEmbeddedPostgres(config.dataDir, (line) => process.stdout.write(`${line}\n`));
    return await work(await ensureDatabase(embedded.url, 'inkwell'));
  } finally {
    await embedded?.stop();
  }
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  if (command === 'export') {
    const out = resolve(argument(args, '--out') ?? `inkwell-export-${new Date().toISOString().slice(0, 10)}.zip`);
    return withDatabase(async (databaseUrl) => {
      const app = await createApp({ config, databaseUrl });
      await app.init();
      try {
        const file = createWriteStream(out);
        await app.get(SiteExporter).write(file);
        await finished(file).catch(() => undefined);
        process.stdout.write(`exported the site to ${out}\n`);
        return 0;
      } finally {
        await app.close();
      }
    });
  }
  const sources: [string, ImportSource][] = [
    ['--wordpress', ImportSource.WORDPRESS],
    ['--ghost', ImportSource.GHOST],
    ['--inkwell', ImportSource.INKWELL],
  ];
  const chosen = sources.filter(([flag]) => argument(args, flag));
  if (command !== 'import' || chosen.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const [flag, source] = chosen[0];
  const file = resolve(argument(args, flag)!);
  const media = argument(args, '--media');
  const inviteAuthors = args.includes('--invite');
  return withDatabase(async (databaseUrl) => {
    const app = await createApp({ config, databaseUrl });
    await app.init();
    try {
      const db = app.get(DataSource);
      const [admin] = (await db.query(
        `SELECT u.id FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
          WHERE r.name = 'ADMIN' AND u.status = 'ACTIVE' AND u.is_verified ORDER BY u.id LIMIT 1`,
      )) as { id: number }[];
      if (!admin) throw new Error('No active administrator: start Inkwell once (it creates the first one) before importing.');
      // Copies in DATA_DIR/imports, as an upload's: the import removes its files when it ends.
      const folder = importsFolder(config.dataDir);
      await mkdir(folder, { recursive: true });
      const stamp = `${Date.now()}-cli`;
      const filePath = join(folder, `${stamp}-file`);
      await copyFile(file, filePath);
      const mediaPath = media ? join(folder, `${stamp}-media`) : null;
      if (media && mediaPath) await copyFile(resolve(media), mediaPath);
      const imports = app.get(ImportsService);
      const row = await imports.create(source, basename(file), filePath, mediaPath, admin.id, false, { inviteAuthors });
      const progress = setInterval(() => {
        void db.manager.findOneBy(SiteImport, { id: row.id }).then((now) => {
          if (now)
            process.stdout.write(`${now.state} ${now.processed}/${now.total ?? '?'} posts; imported ${JSON.stringify(now.counts)}\n`);
        });
      }, 2000);
      let result: SiteImport;
      try {
        result = await app.get(SiteImporter).run(row.id);
      } finally {
        clearInterval(progress);
        await imports.removeFiles(row.id);
      }
      process.stdout.write(
        `${result.state}: imported ${JSON.stringify(result.counts)}; skipped ${result.skippedCount}; renamed ${result.renamedCount}\n`,
      );
      for (const skip of result.skipped.slice(0, 20))
        process.stdout.write(`  skipped ${skip.kind} ${skip.sourceId} (${skip.title}): ${skip.reason}\n`);
      for (const rename of result.renamed.slice(0, 20))
        process.stdout.write(`  renamed ${rename.kind} ${rename.sourceId}: ${rename.from} → ${rename.to} (${rename.reason})\n`);
      if (result.error) process.stderr.write(`${result.error}\n`);
      if (result.counts.invitations) await waitForInvitations(app.get(JobsService), result.counts.invitations);
      return result.state === 'DONE' ? 0 : 1;
    } finally {
      await app.close();
    }
  });
}

/** The invitations go out through the job queue, which this process works too: waits for it (a running server sends what is left). */
async function waitForInvitations(jobs: JobsService, queued: number): Promise<void> {
  process.stdout.write(`sending ${queued} invitation e-mail(s)…\n`);
  let left = await jobs.pending(ACCOUNT_INVITATION_QUEUE);
  for (
    const until = Date.now() + INVITATIONS_WAIT_MS;
    left > 0 && Date.now() < until;
    left = await jobs.pending(ACCOUNT_INVITATION_QUEUE)
  ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  process.stdout.write(left ? `${left} invitation e-mail(s) still queued: the server sends them when it runs\n` : 'invitations sent\n');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

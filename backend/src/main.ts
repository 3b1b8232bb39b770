import 'reflect-metadata';
import type { Server } from 'node:http';
import { createApp } from './app.factory';
import { AdminSeedService } from './auth/admin-seed.service';
import { isTerminal, startupSummary } from './common/console-output';
import { ContentEvents } from './common/content-events';
import { ConfigError, loadConfig } from './config/env';
import { ensureDatabase } from './database/data-source';
import { prepareDatabase } from './database/data-version';
import { EmbeddedDatabase, RESYNC_SIGNAL, startEmbeddedPostgres } from './database/embedded-postgres';
import { DrainGate, STOP_SIGNALS, stopOnSignals } from './shutdown';

function fail(message: string): never {
  process.stderr.write(`Inkwell cannot start: ${message}\n`);
  process.exit(1);
}

const say = (line: string) => process.stdout.write(`${line}\n`);

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  // A signal before the server is up: stop what has been started, then leave.
  let embedded: EmbeddedDatabase | undefined;
  const stopEarly = () => void (embedded?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
  for (const signal of STOP_SIGNALS) process.once(signal, stopEarly);
  // `npm run seed:demo` wrote to our database (DATA_DIR/inkwell.pid names the signal): drop every
  // cache. Handled from the start, so that the signal never falls to its default (exit).
  let contentEvents: ContentEvents | undefined;
  process.on(RESYNC_SIGNAL, () => contentEvents?.changed({ kind: 'resync' }));

  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    try {
      embedded = await startEmbeddedPostgres(config.dataDir, say, RESYNC_SIGNAL);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    databaseUrl = await ensureDatabase(embedded.url, 'inkwell');
  }

  // Data a newer Inkwell wrote stops start-up here (one line); pending migrations run one
  // transaction each, a failing one rolled back and named; then this version is recorded.
  try {
    const applied = await prepareDatabase(databaseUrl);
    if (applied.length) say(`applied ${applied.length} migration(s): ${applied.join(', ')}`);
  } catch (error) {
    await embedded?.stop();
    fail(error instanceof Error ? error.message : String(error));
  }

  const app = await createApp({ config, databaseUrl, withFrontend: true }).catch(async (error: unknown) => {
    await embedded?.stop();
    throw error;
  });
  contentEvents = app.get(ContentEvents);

  try {
    await app.listen(config.port);
  } catch (error) {
    await embedded?.stop();
    const code = (error as NodeJS.ErrnoException).code;
    fail(code === 'EADDRINUSE' ? `PORT ${config.port} is already in use` : String(error));
  }
  const server = app.getHttpServer() as Server;

  for (const signal of STOP_SIGNALS) process.removeListener(signal, stopEarly);
  stopOnSignals(server, new DrainGate(server), app, embedded, say);
  if (!isTerminal()) {
    say(`Inkwell is running at ${config.publicUrl} (API docs: ${config.publicUrl}/api/docs)`);
    return;
  }
  // A person is watching: the summary comes last (the start-up log is written synchronously then, see AppModule).
  say(
    startupSummary({
      url: config.publicUrl,
      createdAdmin: app.get(AdminSeedService).createdAdmin,
      smtpUrl: config.smtpUrl,
      embeddedDataDir: embedded ? config.dataDir : undefined,
    }),
  );
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Inkwell failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

import 'reflect-metadata';
import type { Server } from 'node:http';
import { createApp } from './app.factory';
import { AdminSeedService } from './auth/admin-seed.service';
import { isTerminal, startupSummary } from './common/console-output';
import { ContentEvents } from './common/content-events';
import { ConfigError, loadConfig } from './config/env';
import { ensureDatabase } from './database/data-source';
import { EmbeddedDatabase, RESYNC_SIGNAL, startEmbeddedPostgres } from './database/embedded-postgres';
import { DRAIN_TIMEOUT_MS, DrainGate, stopGracefully } from './shutdown';
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

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
  for (const signal of SIGNALS) process.once(signal, stopEarly);
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
  const gate = new DrainGate(server);

  const shutdown = async (signal: string) => {
    say(`\n${signal} received: finishing in-flight requests (up to ${DRAIN_TIMEOUT_MS / 1000} s), then stopping; send it again to stop at once`);
    await stopGracefully(gate, app, embedded);
    say('stopped');
    process.exit(0);
  };
  const stopNow = async (signal: string) => {
    say(`${signal} received again: stopping at once`);
    server.closeAllConnections();
    server.close();
    await embedded?.stop(0);
    process.exit(1);
  };
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return void stopNow(signal);
    stopping = true;
    shutdown(signal).catch((error: unknown) => {
      process.stderr.write(`Inkwell did not stop cleanly: ${error instanceof Error ? error.message : String(error)}\n`);
      void (embedded?.stop(0) ?? Promise.resolve()).finally(() => process.exit(1));
    });
  };
  for (const signal of SIGNALS) {
    process.removeListener(signal, stopEarly);
    process.on(signal, onSignal);
  }
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

import 'reflect-metadata';
import type { Server } from 'node:http';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/env';
import { ensureDatabase } from './database/data-source';
import { EmbeddedDatabase, startEmbeddedPostgres } from './database/embedded-postgres';

const DRAIN_TIMEOUT_MS = 10_000;

function fail(message: string): never {
  process.stderr.write(`Inkwell cannot start: ${message}\n`);
  process.exit(1);
}

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    try {
      embedded = await startEmbeddedPostgres(config.dataDir, (line) => process.stdout.write(`${line}\n`));
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
    databaseUrl = await ensureDatabase(embedded.url, 'inkwell');
  }

  const app = await createApp({ config, databaseUrl, withFrontend: true }).catch(async (error: unknown) => {
    await embedded?.stop();
    throw error;
  });

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    process.stdout.write(`\n${signal} received: finishing in-flight requests, then stopping\n`);
    const server = app.getHttpServer() as Server;
    // Idle keep-alive sockets would hold close() open; busy ones get DRAIN_TIMEOUT_MS to finish.
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS);
    force.unref();
    try {
      await app.close();
    } finally {
      await embedded?.stop();
      process.exit(0);
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal));

  try {
    await app.listen(config.port);
  } catch (error) {
    await embedded?.stop();
    const code = (error as NodeJS.ErrnoException).code;
    fail(code === 'EADDRINUSE' ? `PORT ${config.port} is already in use` : String(error));
  }
  process.stdout.write(`Inkwell is running at ${config.publicUrl} (API docs: ${config.publicUrl}/api/docs)\n`);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Inkwell failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

// The server with its frontend layer (page cache, fast path, the page-view recorder) and a
// stand-in page handler (every page a small 200 HTML page), on DATABASE_URL; DATA_DIR is argv[2].
// Prints `ready <port>`; the analytics test kills it with SIGKILL.
import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/env';

async function main(): Promise<void> {
  const config = loadConfig({
    DATA_DIR: process.argv[2],
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    THROTTLE_DISABLED: '1',
  });
  const app = await createApp({
    config,
    databaseUrl: process.env.DATABASE_URL!,
    frontend: {
      clientDir: mkdtempSync(join(tmpdir(), 'inkwell-serve-pages-')),
      handler: async (req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><html><body>${req.path}</body></html>`);
      },
    },
  });
  await app.listen(0, '127.0.0.1');
  process.stdout.write(`ready ${((app.getHttpServer() as Server).address() as { port: number }).port}\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`failed ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

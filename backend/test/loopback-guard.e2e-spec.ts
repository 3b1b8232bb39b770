import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../src/config/paths';

const GUARD = pathToFileURL(join(PROJECT_ROOT, 'scripts', 'lib', 'loopback-guard.mjs')).href;

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/**
 * The browser tests preload scripts/lib/loopback-guard.mjs into the server and fail when it
 * recorded a connection to the server's own port. This proves it records what it must (fetch and
 * http.request to the own port) and nothing else (another port).
 */
describe('loopback guard of the browser tests', () => {
  it('records each connection a process opens to its own PORT, and only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inkwell-loopback-'));
    const log = join(dir, 'loopback.log');
    const [own, other] = [await freePort(), await freePort()];
    const program = `
      const http = require('node:http');
      const serve = (port) => new Promise((done) => { const s = http.createServer((_, res) => res.end('ok')).listen(port, '127.0.0.1', () => done(s)); });
      (async () => {
        const servers = [await serve(${own}), await serve(${other})];
        await (await fetch('http://127.0.0.1:${own}/api/v1/users/profile')).text();
        await new Promise((done) => http.get('http://127.0.0.1:${own}/api/v1/blog/authors', (res) => { res.resume(); res.on('end', done); }));
        await (await fetch('http://127.0.0.1:${other}/')).text();
        servers.forEach((s) => s.close());
        setTimeout(() => process.exit(0), 50);
      })();`;
    try {
      const run = spawnSync(process.execPath, ['--import', GUARD, '-e', program], {
        env: { ...process.env, PORT: String(own), LOOPBACK_LOG: log },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.status).toBe(0);
      const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      expect(lines).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

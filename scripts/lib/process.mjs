// Small helpers shared by the scripts that start the built server (browser tests, benchmark).
import { createServer } from 'node:net';

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** A port nothing listens on right now, on the loopback interface. */
export function freeLoopbackPort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The Node flags `npm start` runs the server with (package.json scripts.start, e.g. the V8 heap
 * cap), so that the benchmark and the browser tests run the server the way production does.
 */
export function serverNodeFlags(packageJson) {
  const start = packageJson.scripts?.start ?? '';
  const words = start.trim().split(/\s+/);
  if (words[0] !== 'node') return [];
  return words.slice(1).filter((word) => word.startsWith('--'));
}

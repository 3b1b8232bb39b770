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

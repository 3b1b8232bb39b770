// Preloaded into the server by the browser tests (`node --import`): records every connection the
// server opens to its own port, i.e. a page calling the API over loopback HTTP instead of the
// in-process gateway. One line per connection (time and the calling frames) goes to LOOPBACK_LOG;
// scripts/browser-tests.mjs fails the run when the file is not empty.
import { appendFileSync } from 'node:fs';
import net from 'node:net';

const ownPort = Number(process.env.PORT);
const logFile = process.env.LOOPBACK_LOG;

if (ownPort > 0 && logFile) {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connectAndRecord(...args) {
    // net.connect() hands its normalised arguments over as an array; sockets may also be given options or a port.
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const port = typeof first === 'object' && first !== null ? first.port : first;
    if (Number(port) === ownPort) {
      const frames = (new Error().stack ?? '')
        .split('\n')
        .slice(2, 8)
        .map((line) => line.trim());
      appendFileSync(logFile, `${new Date().toISOString()} ${frames.join(' < ')}\n`);
    }
    return connect.apply(this, args);
  };
}

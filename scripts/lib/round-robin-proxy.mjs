#!/usr/bin/env node
// A small round-robin HTTP proxy (node:http only), for the benchmark's two-instance mode:
//   node scripts/lib/round-robin-proxy.mjs <port> <target URL> [<target URL> ...]
// Each request goes to the next target in turn over kept-alive connections; headers and bodies
// pass through unchanged (X-Forwarded-For added); a target that cannot be reached answers 502.
// Prints "listening <port>" once it accepts connections.
import { Agent, createServer, request } from 'node:http';

const [portArg, ...targetArgs] = process.argv.slice(2);
if (!portArg || targetArgs.length === 0) {
  process.stderr.write('usage: round-robin-proxy.mjs <port> <target URL> [<target URL> ...]\n');
  process.exit(2);
}
const targets = targetArgs.map((url) => new URL(url));
const agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256 });
let next = 0;

const server = createServer((req, res) => {
  const target = targets[next];
  next = (next + 1) % targets.length;
  const forwarded = req.headers['x-forwarded-for'];
  const headers = { ...req.headers, 'x-forwarded-for': forwarded ? `${forwarded}, ${req.socket.remoteAddress}` : req.socket.remoteAddress };
  const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway\n');
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(portArg), '127.0.0.1', () => process.stdout.write(`listening ${portArg}\n`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));

// A row's own ceiling: the machine's limit for sending exactly what the app sent.
//
// A ratio only means something against the same bytes: a ceiling that sends a 70 KB page makes a
// 200-byte API answer look several times closer to its limit than it is. So each row:
// - captureAnswer(): asks the app once with the row's own request (method, headers, body) and
//   keeps its answer as sent: status, reason phrase, every header in the app's order and case
//   (content-type, content-encoding, content-length or chunked framing, cache-control, ETag,
//   security headers...) except the ones about the connection or the moment (Date, Connection,
//   Keep-Alive, which the ceiling's Node writes itself), and the body as sent (still compressed);
// - startOwnCeiling(): a bare Node http server, in its own process (autocannon must not share its
//   thread), answering every request with that answer;
// - measurePairs(): app, then ceiling, `pairs` times, alternating (the machine's speed drifts over
//   minutes), and summarizePairs() keeps the medians and the median of the pairs' ratios.
// The usual ceiling is a bare Node server sending the row's exact bytes; here the ceiling runs in its own process, with the
// app's headers and status kept. Tested by own-ceiling.test.mjs (`node --test scripts/lib/`).
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';

/** Headers about the connection or the moment, not the answer: the ceiling's Node sends its own. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive']);
/** What autocannon replaces with a fresh id in each request's body (idReplacement). */
const ID_PLACEHOLDER = /\[<id>\]/g;

/**
 * One request as a row sends it, answered as the app sends it (node:http: no decompression).
 * `request`: { method, headers, body } as autocannon gets them; a body's `[<id>]` becomes a
 * fresh id, as autocannon's idReplacement does.
 */
export function captureAnswer(url, { method = 'GET', headers = {}, body } = {}) {
  const payload = body === undefined ? undefined : Buffer.from(String(body).replace(ID_PLACEHOLDER, () => randomUUID()));
  const sent = { ...headers, ...(payload && { 'content-length': String(payload.length) }) };
  return new Promise((resolveAnswer, reject) => {
    const outgoing = httpRequest(url, { method, headers: sent, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const rawHeaders = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!CONNECTION_HEADERS.has(res.rawHeaders[i].toLowerCase())) rawHeaders.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        }
        resolveAnswer({
          status: res.statusCode,
          statusMessage: res.statusMessage,
          rawHeaders,
          headers: res.headers,
          body: Buffer.concat(chunks),
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** An answer in one line: status, bytes as sent, coding and type (for the bench's log and table). */
export function describeAnswer(answer) {
  const type = String(answer.headers['content-type'] ?? '-').split(';')[0];
  const coding = answer.headers['content-encoding'] ?? 'identity';
  return `${answer.status}, ${answer.body.length} bytes ${coding}, ${type}`;
}

// The ceiling's process: reads the answer (JSON on stdin), prints its port, answers every request
// with it. Request bodies are left unread: Node discards them once the answer is sent.
const CEILING_SOURCE = `
  const chunks = [];
  process.stdin.on('data', (chunk) => chunks.push(chunk));
  process.stdin.on('end', () => {
    const answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const body = Buffer.from(answer.body, 'base64');
    const headers = answer.rawHeaders.flat();
    const server = require('node:http').createServer((req, res) => {
      res.writeHead(answer.status, answer.statusMessage, headers);
      res.end(body);
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
    process.on('SIGTERM', () => { server.closeAllConnections?.(); server.close(() => process.exit(0)); });
  });`;

/**
 * A bare Node http server in its own process answering every request with `answer` (from
 * captureAnswer): { url, stop() }.
 */
export async function startOwnCeiling(answer) {
  const child = spawn(process.execPath, ['-e', CEILING_SOURCE], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = new Promise((resolvePort, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolvePort(Number(out.trim()));
    });
    child.once('exit', (code) => reject(new Error(`the ceiling server exited (${code}) before it listened`)));
    child.once('error', reject);
  });
  child.stdin.end(
    JSON.stringify({
      status: answer.status,
      statusMessage: answer.statusMessage,
      rawHeaders: answer.rawHeaders,
      body: answer.body.toString('base64'),
    }),
  );
  const listening = await port;
  return {
    url: `http://127.0.0.1:${listening}/`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The middle value; with an even count, the mean of the two middle ones (two pairs: their mean, not the better one). */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (!sorted.length) return NaN;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * The row's figures from its pairs ({ app, ceiling }, each { rps, p50, p99, errors }): the
 * app's median req/s, p50 and p99, its errors summed, the ceiling's median req/s and the median
 * of the pairs' ratios (each pair's app against the ceiling measured right after it).
 */
export function summarizePairs(pairs) {
  if (!pairs.length) throw new Error('summarizePairs: no pairs');
  const of = (side, field) => median(pairs.map((pair) => pair[side][field]));
  return {
    rps: of('app', 'rps'),
    p50: of('app', 'p50'),
    p99: of('app', 'p99'),
    errors: pairs.reduce((sum, pair) => sum + pair.app.errors, 0),
    ceilingRps: of('ceiling', 'rps'),
    ownRatio: median(pairs.map((pair) => (pair.ceiling.rps > 0 ? pair.app.rps / pair.ceiling.rps : 0))),
    pairs: pairs.length,
  };
}

/**
 * Alternating runs: runApp(), then runCeiling(), `pairs` times; resolves summarizePairs() of them.
 * Each run resolves { rps, p50, p99, errors }.
 */
export async function measurePairs({ runApp, runCeiling, pairs }) {
  const measured = [];
  for (let i = 0; i < pairs; i += 1) {
    const app = await runApp();
    const ceiling = await runCeiling();
    measured.push({ app, ceiling });
  }
  return summarizePairs(measured);
}

/**
 * A row's run time in seconds, for the bench's estimate: the app's warm-up, the ceiling's
 * (ceilingWarmup), `pairs` app and ceiling runs, about a second after each app run for the
 * requests it left in flight, and one to capture the answer and start the ceiling's process.
 */
export const rowSeconds = ({ warmup, ceilingWarmup = 1, duration, pairs }) => warmup + ceilingWarmup + pairs * (2 * duration + 1) + 1;

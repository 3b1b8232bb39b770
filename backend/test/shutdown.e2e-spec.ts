import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

jest.setTimeout(60_000);

const UNAVAILABLE = 'Service temporarily unavailable. Please try again later.';

interface RawAnswer {
  status: number;
  connection?: string;
  body: string;
}

/** A connection the kernel has accepted (handshake done), before the server has necessarily read a byte of it. */
function open(port: number): Promise<Socket> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => done(socket));
    socket.once('error', fail);
  });
}

/** The one answer on `socket` to `path` (written by the caller): status, Connection header, body (Content-Length). */
function answerOn(socket: Socket): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    let buffer = Buffer.alloc(0);
    const settle = () => {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const head = buffer.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      if (!(buffer.length - end - 4 >= length)) return false;
      done({
        status: Number(head.split(' ')[1]),
        connection: /\r\nconnection: *([^\r]+)/i.exec(head)?.[1]?.toLowerCase(),
        body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
      });
      return true;
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (settle()) socket.destroy();
    });
    socket.once('close', () =>
      settle() ? undefined : fail(new Error(`closed without a whole answer: ${buffer.toString('latin1').slice(0, 200) || '(nothing)'}`)),
    );
    socket.once('error', fail);
  });
}

const requestFor = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

/** Whether a new connection is refused (the listening socket closed). */
const refusesConnections = (port: number): Promise<boolean> =>
  open(port).then(
    (socket) => (socket.destroy(), false),
    (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
  );

/** SIGTERM lets every request already received finish; new connections are refused; later requests get 503. */
describe('Stopping on SIGTERM', () => {
  let child: ChildProcess;
  let dataDir: string;
  let output = '';
  let port: number;
  let exited: Promise<number | null>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'inkwell-stop-'));
    child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'helpers', 'serve-until-signal.ts'), dataDir], {
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    exited = new Promise((done) => child.once('exit', (code) => done(code)));
    port = await new Promise<number>((done, fail) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /ready (\d+)/.exec(output);
        if (ready) done(Number(ready[1]));
        if (output.includes('failed')) fail(new Error(output));
      });
      child.once('exit', () => fail(new Error(`the server exited: ${output}`)));
    });
  }, 60_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers all 30 requests sent before the signal, refuses new connections at once, 503s a kept-alive connection’s next request, exits 0', async () => {
    // A kept-alive connection that has answered once and sits idle at the signal.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const viaAgent = (path: string) =>
      new Promise<RawAnswer & { retryAfter?: string }>((done, fail) => {
        get({ host: '127.0.0.1', port, path, agent }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () =>
            done({
              status: res.statusCode!,
              connection: res.headers.connection,
              retryAfter: res.headers['retry-after'] as string | undefined,
              body,
            }),
          );
        }).once('error', fail);
      });
    expect((await viaAgent('/probe/slow?ms=0')).status).toBe(200);

    // 30 connections the kernel has accepted; 10 ask for a 2.5 s answer, 20 for quick ones (the
    // API's tag list reads the database). All are written, then the signal follows at once: most
    // are still unread by the server when it takes the signal.
    const sockets = await Promise.all(Array.from({ length: 30 }, () => open(port)));
    const paths = sockets.map((_, i) => (i % 3 === 0 ? '/probe/slow?ms=2500' : i % 3 === 1 ? '/api/v1/blog/tags' : '/probe/slow?ms=0'));
    const answers = sockets.map((socket) => answerOn(socket));
    sockets.forEach((socket, i) => socket.write(requestFor(paths[i])));
    child.kill('SIGTERM');
    const signalled = Date.now();

    // Once the server has taken in what was queued and sent (it says so), well before the slow
    // answers are done, new connections are refused...
    while (!output.includes('no longer accepting connections') && Date.now() - signalled < 5_000)
      await new Promise((done) => setTimeout(done, 5));
    const admittedAfterMs = Date.now() - signalled;
    expect(admittedAfterMs).toBeLessThan(2_000);
    expect(await refusesConnections(port)).toBe(true);

    // ...and a request arriving later on a kept-alive connection, while the slow ones still run, gets 503.
    const late = await viaAgent('/probe/slow?ms=0');
    expect(late).toMatchObject({ status: 503, connection: 'close', retryAfter: '5' });
    expect(JSON.parse(late.body)).toMatchObject({ success: false, status: 503, message: UNAVAILABLE });

    const results = await Promise.all(answers);
    expect(results.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    results.forEach((answer, i) => {
      if (paths[i].startsWith('/probe/')) expect(JSON.parse(answer.body).data).toEqual({ waited: Number(paths[i].split('=')[1]) });
      else expect(JSON.parse(answer.body).success).toBe(true);
    });
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM received');
    expect(output).toContain('stopped');
    agent.destroy();
  });
});

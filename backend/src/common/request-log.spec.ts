import express from 'express';
import { Writable } from 'node:stream';
import pinoHttp from 'pino-http';
import { listen, rawRequest } from '../../test/helpers/raw-request';
import { requestLogOptions } from './request-log';

/** An app logging through pino-http with the app's options at `level`; the lines it writes. */
async function logged(
  level: string,
  requests: [string, Record<string, string>?][],
): Promise<{ lines: Record<string, any>[]; sent: Record<string, string | string[] | undefined>[] }> {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = express();
  app.use(pinoHttp(requestLogOptions(level), stream));
  app.get('/api/v1/thing', (_req, res) => res.setHeader('Set-Cookie', 'inkwell_access=secret').json({ ok: true }));
  app.get('/api/v1/health', (_req, res) => res.json({ ok: true }));
  app.get('/api/v1/missing', (_req, res) => res.status(404).json({ ok: false }));
  app.get('/api/v1/broken', (_req, res) => res.status(500).json({ ok: false }));
  const server = await listen(app);
  const sent = [];
  try {
    for (const [path, headers] of requests) sent.push((await rawRequest(server.server, path, headers)).headers);
  } finally {
    await server.close();
  }
  return { lines, sent };
}

const CREDENTIALS = { authorization: 'Bearer secret-token', cookie: 'inkwell_refresh=secret-cookie', 'user-agent': 'probe' };

describe('requestLogOptions', () => {
  it('logs one short line per request at info: request id, method, path (no query), status, response time', async () => {
    const { lines, sent } = await logged('info', [
      ['/api/v1/thing?token=abc', { ...CREDENTIALS, 'x-request-id': 'probe-request-0001' }],
      ['/api/v1/health'],
    ]);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { id: 'probe-request-0001', method: 'GET', path: '/api/v1/thing' },
      res: { statusCode: 200 },
    });
    expect(typeof line.responseTime).toBe('number');
    expect(Object.keys(line.req).sort()).toEqual(['id', 'method', 'path']);
    expect(Object.keys(line.res)).toEqual(['statusCode']);
    expect(JSON.stringify(line)).not.toMatch(/secret|token=abc|probe"|headers/);
    expect(JSON.stringify(line).length).toBeLessThan(300);
    expect(sent[0]['x-request-id']).toBe('probe-request-0001');
    expect(sent[1]['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs 4xx at warn and 5xx at error', async () => {
    const { lines } = await logged('info', [['/api/v1/missing'], ['/api/v1/broken']]);
    expect(lines.map((line) => [line.level, line.res.statusCode])).toEqual([
      [40, 404],
      [50, 500],
    ]);
    expect(lines[1].err).toMatchObject({ message: 'failed with status code 500' });
  });

  it('logs nothing but warnings and errors at warn', async () => {
    const { lines } = await logged('warn', [['/api/v1/thing'], ['/api/v1/missing']]);
    expect(lines.map((line) => line.res.statusCode)).toEqual([404]);
  });

  it('carries every request and response header at debug, with credentials redacted', async () => {
    const { lines } = await logged('debug', [['/api/v1/thing?token=abc', CREDENTIALS]]);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line.req).toMatchObject({ method: 'GET', url: '/api/v1/thing?token=abc', query: { token: 'abc' } });
    expect(line.req.headers).toMatchObject({ authorization: '[Redacted]', cookie: '[Redacted]', 'user-agent': 'probe' });
    expect(line.res.headers).toMatchObject({ 'set-cookie': '[Redacted]', 'content-type': 'application/json; charset=utf-8' });
    expect(JSON.stringify(line)).not.toMatch(/secret/);
  });
});

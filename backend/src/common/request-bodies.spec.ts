import express, { json, urlencoded } from 'express';
import request from 'supertest';
import { hasBody, parseBodies } from './request-bodies';

/** The same parsers as two Express layers (as before) and as one parseBodies layer: the same answers. */
function apps() {
  const parsers = () => [json({ limit: '1kb' }), urlencoded({ extended: false, limit: '1kb' })];
  const build = (use: (app: express.Express) => void) => {
    const app = express();
    use(app);
    app.all('/echo', (req, res) => res.json({ hasBody: 'body' in req, body: req.body ?? null }));
    app.use(
      ((error, _req, res, _next) =>
        void res
          .status((error as { status?: number }).status ?? 500)
          .json({ type: (error as { type?: string }).type })) as express.ErrorRequestHandler,
    );
    return app;
  };
  return [build((app) => parsers().forEach((parser) => app.use(parser))), build((app) => app.use(parseBodies(...parsers())))];
}

describe('parseBodies', () => {
  const [layers, combined] = apps();
  const cases: [string, (agent: ReturnType<typeof request>) => request.Test][] = [
    ['GET without a body', (agent) => agent.get('/echo')],
    ['DELETE without a body', (agent) => agent.delete('/echo')],
    ['JSON', (agent) => agent.post('/echo').send({ a: 1 })],
    ['a form', (agent) => agent.post('/echo').type('form').send('a=1&b=two')],
    ['malformed JSON', (agent) => agent.post('/echo').set('content-type', 'application/json').send('{"a":')],
    ['JSON over the limit', (agent) => agent.post('/echo').send({ a: 'x'.repeat(2000) })],
    ['an empty JSON body', (agent) => agent.post('/echo').set('content-type', 'application/json').set('content-length', '0')],
    ['another type', (agent) => agent.post('/echo').set('content-type', 'text/plain').send('hello')],
    [
      'a chunked GET body',
      (agent) => agent.get('/echo').set('transfer-encoding', 'chunked').set('content-type', 'application/json').send('{"a":2}'),
    ],
  ];

  it.each(cases)('answers %s as the separate parsers do', async (_name, send) => {
    const want = await send(request(layers));
    const got = await send(request(combined));
    expect([got.status, got.body]).toEqual([want.status, want.body]);
  });

  it('finds a body as body-parser does', () => {
    const req = (headers: Record<string, string>) => ({ headers }) as never;
    expect(hasBody(req({}))).toBe(false);
    expect(hasBody(req({ 'content-length': '0' }))).toBe(true);
    expect(hasBody(req({ 'content-length': 'x' }))).toBe(false);
    expect(hasBody(req({ 'transfer-encoding': 'chunked' }))).toBe(true);
  });
});

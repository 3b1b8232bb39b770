import express, { type RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { listen, rawRequest, type RawResponse } from '../../test/helpers/raw-request';
import { loadConfig } from '../config/env';
import { recordHeaderSteps, securityHeaderOptions, securityHeaders } from './security-headers';

/** An app answering a JSON read, an HTML page, an image, an error, a HEAD and a redirect, behind one header middleware. */
function appWith(headers: RequestHandler) {
  const app = express();
  app.set('x-powered-by', true);
  app.use(headers);
  app.get('/api/v1/thing', (_req, res) => res.json({ ok: true }));
  app.get('/page', (_req, res) => res.type('html').send('<p>page</p>'));
  app.get('/images/a.png', (_req, res) => res.type('image/png').send(Buffer.alloc(64, 1)));
  app.get('/boom', () => {
    throw new Error('boom');
  });
  app.get('/moved', (_req, res) => res.redirect('/page'));
  // Express's own error page carries the stack, whose frames differ by middleware.
  app.use(((_error, _req, res, _next) => void res.status(500).type('text').send('failed')) as express.ErrorRequestHandler);
  return app;
}

/** Every header but the ones that change by the second. */
const stable = (res: RawResponse) => Object.entries(res.headers).filter(([name]) => name !== 'date');

const PATHS: [string, string][] = [
  ['GET', '/api/v1/thing'],
  ['GET', '/page'],
  ['GET', '/images/a.png'],
  ['GET', '/boom'],
  ['GET', '/missing'],
  ['HEAD', '/page'],
  ['GET', '/moved'],
  ['POST', '/api/v1/thing'],
];

/** Helmet itself and the recorded headers, each on its own server; the same answers, header for header, in the same order. */
async function expectSameAsHelmet(options: HelmetOptions): Promise<void> {
  const reference = await listen(appWith(helmet(options) as RequestHandler));
  const recorded = await listen(appWith(securityHeaders(options)));
  try {
    for (const [method, path] of PATHS) {
      const headers = { 'x-forwarded-proto': 'https', cookie: 'a=b' };
      const want = await rawRequest(reference.server, path, headers, method);
      const got = await rawRequest(recorded.server, path, headers, method);
      expect([method, path, got.status, stable(got)]).toEqual([method, path, want.status, stable(want)]);
      expect(got.body.equals(want.body)).toBe(true);
    }
  } finally {
    await reference.close();
    await recorded.close();
  }
}

describe('securityHeaders', () => {
  const config = loadConfig({ DATA_DIR: '/tmp/inkwell-security-headers', LOG_LEVEL: 'silent' });

  it("sets exactly helmet's headers for the app's options, on every kind of answer (a helmet upgrade that changes them fails here)", async () => {
    await expectSameAsHelmet(securityHeaderOptions(config));
  });

  it("allows inline scripts only by the build's hashes: script-src has no 'unsafe-inline'", async () => {
    const hashes = ["'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='", "'sha256-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB='"];
    const app = await listen(appWith(securityHeaders(securityHeaderOptions(config, { scriptHashes: hashes }))));
    try {
      const policy = String((await rawRequest(app.server, '/page')).headers['content-security-policy']);
      expect(policy).toContain(`script-src 'self' ${hashes.join(' ')};`);
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(policy).not.toContain('report-uri');
    } finally {
      await app.close();
    }
  });

  it("allows inline styles only by hash: the build's <style> elements, and the table cell alignment of rendered posts as attributes", async () => {
    const styleHash = "'sha256-CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC='";
    const app = await listen(appWith(securityHeaders(securityHeaderOptions(config, { styleHashes: [styleHash] }))));
    try {
      const policy = String((await rawRequest(app.server, '/page')).headers['content-security-policy']);
      const styleSrc = policy.split(';').find((directive) => directive.startsWith('style-src ')) ?? '';
      // sha256 of 'text-align:left', 'text-align:right', 'text-align:center' (the sanitizer's spelling).
      expect(styleSrc).toBe(
        `style-src 'self' ${styleHash} 'unsafe-hashes' 'sha256-De7agAeYqm6ANIVvRRW6HFWi52AJW8inhFE0gSdgXnI=' 'sha256-XzJlZKVo+ff9ozww9Sr2p/2TbJXITZuaWMZ9p53zN1U=' 'sha256-kFAIUwypIt04FgLyVU63Lcmp2AQimPh/TdYjy04Flxs='`,
      );
      expect(policy).not.toContain("'unsafe-inline'");
    } finally {
      await app.close();
    }
  });

  it('adds report-uri and report-sample only when CSP_REPORT_LOG is set (tests)', () => {
    const reporting = loadConfig({
      DATA_DIR: '/tmp/inkwell-security-headers',
      LOG_LEVEL: 'silent',
      CSP_REPORT_LOG: '/tmp/inkwell-csp.log',
    });
    const directives = securityHeaderOptions(reporting).contentSecurityPolicy;
    expect(directives).toMatchObject({ directives: { 'script-src': ["'self'", "'report-sample'"], 'report-uri': ['/csp-report'] } });
  });

  it("matches helmet's defaults and the S3 variant of the app's options too", async () => {
    await expectSameAsHelmet({});
    const s3 = loadConfig({
      DATA_DIR: '/tmp/inkwell-security-headers',
      LOG_LEVEL: 'silent',
      STORAGE: 's3',
      S3_BUCKET: 'images',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_PUBLIC_URL: 'http://127.0.0.1:9000/images',
    });
    const options = securityHeaderOptions(s3);
    expect(JSON.stringify(options)).toContain('http://127.0.0.1:9000');
    await expectSameAsHelmet(options);
  });

  it('records what a header middleware does, and refuses one that looks at the request or fails', () => {
    const steps = recordHeaderSteps(helmet(securityHeaderOptions(config)) as RequestHandler, { method: 'GET', url: '/', headers: {} });
    expect(steps?.map((step) => ('set' in step ? step.set : `-${step.remove}`))).toEqual([
      'Content-Security-Policy',
      'Cross-Origin-Opener-Policy',
      'Cross-Origin-Resource-Policy',
      'Origin-Agent-Cluster',
      'Referrer-Policy',
      'Strict-Transport-Security',
      'X-Content-Type-Options',
      'X-DNS-Prefetch-Control',
      'X-Download-Options',
      'X-Frame-Options',
      'X-Permitted-Cross-Domain-Policies',
      '-X-Powered-By',
      'X-XSS-Protection',
    ]);
    const failing: RequestHandler = (_req, _res, next) => next(new Error('no'));
    expect(recordHeaderSteps(failing, { headers: {} })).toBeUndefined();
    const reading: RequestHandler = (_req, res, next) => {
      if (!res.getHeader('x')) res.setHeader('x', '1');
      next();
    };
    expect(recordHeaderSteps(reading, { headers: {} })).toBeUndefined();
  });

  it('falls back to helmet itself when its headers depend on the request (a nonce)', async () => {
    let nonce = 0;
    const options: HelmetOptions = { contentSecurityPolicy: { directives: { 'script-src': ["'self'", () => `'nonce-${++nonce}'`] } } };
    const app = await listen(appWith(securityHeaders(options)));
    try {
      const first = await rawRequest(app.server, '/page');
      const second = await rawRequest(app.server, '/page');
      expect(first.headers['content-security-policy']).not.toBe(second.headers['content-security-policy']);
    } finally {
      await app.close();
    }
  });
});

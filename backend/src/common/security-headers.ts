import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage } from 'node:http';
import { createHash } from 'node:crypto';
import type { AppConfig } from '../config/env';
import { CELL_ALIGNMENT_STYLES } from './markdown';

/** Where the browser reports Content-Security-Policy violations when CSP_REPORT_LOG is set (common/csp-report.ts). */
export const CSP_REPORT_PATH = '/csp-report';

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The style attributes the pages may carry: only rendered posts' table cell alignment. Every other
 * style attribute is refused; components colour and size through classes, SVG attributes or the
 * CSSOM (which CSP does not govern).
 */
export const STYLE_ATTRIBUTE_HASHES: readonly string[] = CELL_ALIGNMENT_STYLES.map(sha256Source);

/**
 * The security headers' settings: helmet's defaults with the pages' needs. `inline.scriptHashes`
 * and `inline.styleHashes` are the build's inline scripts and `<style>` elements ('sha256-…',
 * frontend/csp-script-hashes.ts): only those apply, never one that is not in the build (no
 * 'unsafe-inline' in script-src nor style-src).
 */
export function securityHeaderOptions(
  config: AppConfig,
  inline: { scriptHashes?: readonly string[]; styleHashes?: readonly string[] } = {},
): HelmetOptions {
  const inlineScriptHashes = inline.scriptHashes ?? [];
  return {
    contentSecurityPolicy: {
      directives: {
        // Astro's island loader, its directive and small inlined scripts, and the no-flash theme script, by hash.
        // With reports on (tests), each report carries the script's first 40 characters.
        'script-src': ["'self'", ...inlineScriptHashes, ...(config.cspReportLog ? ["'report-sample'"] : [])],
        ...(config.cspReportLog ? { 'report-uri': [CSP_REPORT_PATH] } : {}),
        // Images linked at S3_PUBLIC_URL: https is allowed anyway; a plain-http bucket (a local MinIO) is added by origin.
        'img-src': ["'self'", 'data:', 'blob:', 'https:', ...plainHttpImageOrigin(config)],
        // blob: the editor's chosen image is read back through its object URL by Chromium while it is
        // checked and sent (a connect-src report under the browser tests); such URLs are the page's own.
        'connect-src': ["'self'", 'blob:'],
        // The island runtime's one <style> by hash; style attributes only those of STYLE_ATTRIBUTE_HASHES
        // ('unsafe-hashes' applies hashes to attributes; without it they match <style> elements only).
        'style-src': [
          "'self'",
          ...(inline.styleHashes ?? []),
          "'unsafe-hashes'",
          ...STYLE_ATTRIBUTE_HASHES,
          ...(config.cspReportLog ? ["'report-sample'"] : []),
        ],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Same-origin pages keep their referrer (Go Back buttons rely on it); other sites get the origin only.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/** The origin of S3_PUBLIC_URL when it is plain http (for img-src), else nothing. */
function plainHttpImageOrigin(config: AppConfig): string[] {
  const publicUrl = config.storage.driver === 's3' ? config.storage.publicUrl : undefined;
  return publicUrl?.startsWith('http:') ? [new URL(publicUrl).origin] : [];
}

/** What a middleware did to a response's headers, in order. */
export type HeaderStep = { set: string; value: string | number | readonly string[] } | { remove: string };

/**
 * Runs a header-setting middleware once against a stand-in request and response and records what
 * it did. Undefined when it did anything else (called next with an error, never called next, read
 * a header, wrote a body): such a middleware cannot be replayed as a fixed list.
 */
export function recordHeaderSteps(middleware: RequestHandler, req: Partial<IncomingMessage>): HeaderStep[] | undefined {
  const steps: HeaderStep[] = [];
  let replayable = true;
  let nextCalled = false;
  const refuse = () => {
    replayable = false;
  };
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      steps.push({ set: name, value });
      return res;
    },
    removeHeader(name: string) {
      steps.push({ remove: name });
    },
    getHeader: refuse,
    getHeaders: refuse,
    hasHeader: refuse,
    writeHead: refuse,
    write: refuse,
    end: refuse,
    on: refuse,
  };
  middleware(req as never, res as never, (error?: unknown) => {
    nextCalled = true;
    if (error) replayable = false;
  });
  return replayable && nextCalled ? steps : undefined;
}

/** Two stand-in requests unlike each other: a middleware that answers them alike does not look at the request. */
const PROBES: Partial<IncomingMessage>[] = [
  { method: 'GET', url: '/', headers: { host: 'localhost', 'user-agent': 'probe-a' } },
  {
    method: 'POST',
    url: '/api/v1/probe?x=1',
    headers: { host: 'example.test', 'x-forwarded-proto': 'https', cookie: 'a=b', 'user-agent': 'probe-b' },
  },
];

/**
 * The security headers as one cheap middleware. Helmet rebuilds its headers on every request (a
 * dozen small middlewares, the Content-Security-Policy assembled each time), though with these
 * options they never change: they are recorded once here and set with one loop. Should a helmet
 * version ever make its headers depend on the request (a nonce, the protocol), the two probes
 * disagree and helmet itself is used, unchanged.
 */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  const middleware = helmet(options) as RequestHandler;
  const [first, ...others] = PROBES.map((req) => recordHeaderSteps(middleware, req));
  if (!first || others.some((steps) => !steps || JSON.stringify(steps) !== JSON.stringify(first))) return middleware;
  const steps = first.map((step) => ('set' in step ? { name: step.set, value: step.value } : { name: step.remove, value: undefined }));
  return (_req, res, next) => {
    for (const { name, value } of steps) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

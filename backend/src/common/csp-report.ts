import { appendFile } from 'node:fs/promises';
import type { RequestHandler } from 'express';

/** Bytes of one report kept; a browser's report is well under this. */
const MAX_REPORT_BYTES = 64 * 1024;

/**
 * Tests only (CSP_REPORT_LOG): the browser's Content-Security-Policy violation reports
 * (`report-uri`, security-headers.ts) appended to a file, one JSON line each, so that the browser
 * tests can fail on any violation (scripts/browser-tests.mjs). Answers 204 before the other
 * layers see the request (no cookies or Origin rules apply to a browser's report).
 */
export function cspReportLog(file: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REPORT_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const line = JSON.stringify({ at: new Date().toISOString(), report: Buffer.concat(chunks).toString('utf8') });
      void appendFile(file, `${line}\n`).finally(() => res.status(204).end());
    });
  };
}

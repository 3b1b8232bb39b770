import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import { stdSerializers } from 'pino-http';
import { requestIdOf } from './request-id';

/** Paths not logged on their own: health checks (probes every few seconds) and the build's files. */
const NOT_LOGGED = /^\/(api\/v1\/health|_astro\/|favicon)/;

/** Headers never written to the log, whatever the level. */
export const REDACTED_LOG_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/** Levels at which each request's line carries every request and response header (redacted). */
const VERBOSE_LEVELS = new Set(['debug', 'trace']);

type Req = IncomingMessage & { id?: unknown; originalUrl?: string };

/** The request as the short line shows it: its id, method and path (no query string: it may hold a token). */
export function shortRequest(req: Req): { id: unknown; method: string | undefined; path: string } {
  const url = req.originalUrl ?? req.url ?? '';
  const query = url.indexOf('?');
  return { id: req.id, method: req.method, path: query === -1 ? url : url.slice(0, query) };
}

/** The response as the short line shows it: its status. */
export function shortResponse(res: ServerResponse): { statusCode: number } {
  return { statusCode: res.statusCode };
}

/**
 * The request logger's options (pino-http under nestjs-pino). Every request but those NOT_LOGGED
 * gets one line when it ends: error for 5xx, warn for 4xx, info otherwise. At info, warn and error
 * the line is short — `req: { id, method, path }`, `res: { statusCode }`, `responseTime` — and
 * building it costs little (no header copies, nothing to redact). At debug and trace it carries
 * everything pino's standard serializers give (url with query, params, all request and response
 * headers, remote address), with authorization, cookie and set-cookie redacted.
 * The request id is the caller's X-Request-Id when well formed, else a new UUID; it is sent back
 * in X-Request-Id.
 */
export function requestLogOptions(level: string): Options {
  const common: Options = {
    level,
    genReqId: (req, res) => {
      const id = requestIdOf(req);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req) => NOT_LOGGED.test(req.url ?? '') },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  };
  if (VERBOSE_LEVELS.has(level)) return { ...common, redact: REDACTED_LOG_PATHS };
  return {
    ...common,
    wrapSerializers: false,
    serializers: { req: shortRequest, res: shortResponse, err: stdSerializers.err },
  };
}

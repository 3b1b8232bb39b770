import type { RequestHandler } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** As body-parser (type-is) decides that a request has a body: a Transfer-Encoding, or a numeric Content-Length. */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !isNaN(req.headers['content-length'] as unknown as number);
}

/**
 * The body parsers as one middleware that runs them, in order, only for requests with a body.
 * A request without one (every GET, HEAD and DELETE the app answers) gets what each parser would
 * have given it — `req.body` present and undefined — without the parsers' per-request work
 * (each would check the request is unfinished, look for a body and call the next layer). A
 * parser's error goes on to the error handling as before, and the parsers after it do not run.
 */
export function parseBodies(...parsers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req)) {
      const request: { body?: unknown } = req;
      if (!('body' in request)) request.body = undefined;
      return next();
    }
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) return next(error);
      const parser = parsers[index++];
      if (!parser) return next();
      try {
        void parser(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/** Paths whose JSON body is also kept as bytes (`req.rawBody`): bodies checked against a signature over their exact bytes. */
export const RAW_BODY_PATHS: readonly string[] = ['/api/v1/newsletter/bounces'];

/** A body-parser `verify` that runs `next` and, on the given paths, keeps the raw body on the request. */
export function keepRawBodyOf(
  paths: readonly string[],
  next: (req: IncomingMessage, res: ServerResponse, body: Buffer, encoding: string | null) => void,
): (req: IncomingMessage, res: ServerResponse, body: Buffer, encoding: string) => void {
  return (req, res, body, encoding) => {
    next(req, res, body, encoding);
    const path = (req.url ?? '').split('?')[0];
    if (paths.includes(path)) (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
  };
}

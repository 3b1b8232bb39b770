import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';

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

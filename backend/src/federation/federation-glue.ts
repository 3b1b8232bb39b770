import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/env';
import { SLUG_BODY } from '../../../isomorphic/slug';
import { FEDERATION_PATHS, FederationService } from './federation.service';
import { SITE_ACTOR } from './federation.repository';

const POST_PAGE = new RegExp(`^/blog/(${SLUG_BODY})/?$`);
const AUTHOR_PAGE = new RegExp(`^/authors/(${SLUG_BODY})/?$`);
/** Accept values asking for ActivityPub (the content negotiation of the post and author pages). */
const ACTIVITY_JSON = /application\/(activity\+json|ld\+json)/i;
/** Marks Fedify's "not mine" answers: the request goes on to Nest and the pages. */
const PASS = 'x-inkwell-federation-pass';

/** Whether a request is for the social web: a Fedify path, or a post or author page asked for as ActivityPub (one header test for the rest). */
export function isFederationRequest(path: string, accept: string | undefined): boolean {
  if (accept !== undefined && accept.includes('json') && ACTIVITY_JSON.test(accept) && (POST_PAGE.test(path) || AUTHOR_PAGE.test(path)))
    return true;
  return FEDERATION_PATHS.some((prefix) => path.startsWith(prefix));
}

/**
 * The thin glue between Express and Fedify (docs/federation.md): an Express request becomes a web
 * Request for `federation.fetch()`, its Response is written back; what Fedify does not answer goes
 * on (`next()`). Mounted before the body parsers, so an inbox's raw body reaches Fedify's digest
 * and signature checks untouched. Inbox bodies over FEDERATION_INBOX_BODY_LIMIT get 413; a blocked
 * actor's or instance's activities 403; more than FEDERATION_INBOX_PER_MINUTE inbox requests from
 * one remote instance in a minute 429.
 */
@Injectable()
export class FederationGlue {
  private window = 0;
  private readonly perInstance = new Map<string, number>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly federation: FederationService,
  ) {}

  middleware(): RequestHandler {
    return (req, res, next) => {
      if (!this.federation.available) return next();
      const accept = req.headers.accept;
      if (!isFederationRequest(req.path, accept)) return next();
      this.handle(req, res, next).catch(next);
    };
  }

  private async handle(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!(await this.federation.enabled())) return next();
    const handler = this.federation.handler!;
    let url = new URL(req.originalUrl, this.config.publicUrl);
    const page = req.method === 'GET' || req.method === 'HEAD' ? this.pageTarget(req.path) : undefined;
    if (page) {
      const target = await page;
      if (!target) return next();
      url = target;
    }
    let body: Buffer | undefined;
    if (req.method === 'POST') {
      const read = await this.readBody(req, res);
      if (!read) return;
      body = read;
      const actor = actorOf(body);
      if (actor) {
        if (await this.federation.repo.isBlocked(actor)) {
          res.status(403).json({ success: false, message: 'This server or account is blocked here.' });
          return;
        }
        if (!this.allow(actor)) {
          res.setHeader('Retry-After', '60');
          res.status(429).json({ success: false, message: 'Too many requests from this server: try again in a minute.' });
          return;
        }
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const request = new Request(url, { method: req.method, headers, body: body ? new Uint8Array(body) : undefined });
    const notHere = () => new Response(null, { status: 404, headers: { [PASS]: '1' } });
    let response: globalThis.Response;
    try {
      response = await handler.fetch(request, { contextData: {}, onNotFound: notHere, onNotAcceptable: notHere });
    } catch (error) {
      // Fedify throws on some malformed input (an activity's id, a WebFinger resource that is not a URL): the sender's fault, 400.
      // (By name: the URL parser's TypeError may come from another realm.)
      if ((error as { name?: unknown } | null)?.name !== 'TypeError') throw error;
      res.status(400).json({
        success: false,
        message: req.method === 'POST' ? 'The activity is not valid ActivityPub JSON-LD.' : 'The address asked for is not valid.',
      });
      return;
    }
    if (response.headers.get(PASS)) return next();
    res.status(response.status);
    response.headers.forEach((value, name) => res.setHeader(name, value));
    if (page) res.setHeader('Vary', 'Accept, Accept-Encoding');
    const payload = Buffer.from(await response.arrayBuffer());
    res.end(req.method === 'HEAD' ? undefined : payload);
  }

  /** The actor or Article a post or author page stands for, asked for as ActivityPub; null when there is none (the page answers). */
  private pageTarget(path: string): Promise<URL | null> | undefined {
    const post = POST_PAGE.exec(path);
    const author = AUTHOR_PAGE.exec(path);
    if (!post && !author) return undefined;
    return (async () => {
      const ctx = this.federation.context();
      if (post) {
        const found = await this.federation.repo.postBySlug(post[1]);
        return found?.status === 'PUBLISHED' ? this.federation.articleUri(ctx, found.id) : null;
      }
      const found = await this.federation.repo.authorBySlug(author![1]);
      return found ? ctx.getActorUri(String(found.id)) : null;
    })();
  }

  /** The raw body, up to the limit; answers 413 (and null) past it. */
  private async readBody(req: Request, res: Response): Promise<Buffer | null> {
    const limit = this.config.federation.inboxBodyLimit;
    const tooLarge = () => {
      res.setHeader('Connection', 'close');
      res.status(413).json({ success: false, message: `The activity is larger than ${limit} bytes.` });
    };
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      tooLarge();
      req.resume();
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        tooLarge();
        req.resume();
        return null;
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  /** One minute's inbox requests per remote instance (in this process). */
  private allow(actor: string): boolean {
    let host: string;
    try {
      host = new URL(actor).host;
    } catch {
      return true;
    }
    const minute = Math.floor(Date.now() / 60_000);
    if (minute !== this.window) {
      this.window = minute;
      this.perInstance.clear();
    }
    const count = (this.perInstance.get(host) ?? 0) + 1;
    this.perInstance.set(host, count);
    return count <= this.config.federation.inboxPerMinute;
  }
}

/** The `actor` an activity names (a string or an object with an id), without trusting it: Fedify verifies the signature. */
function actorOf(body: Buffer): string | null {
  try {
    const json = JSON.parse(body.toString('utf8')) as { actor?: unknown };
    const actor = json.actor;
    if (typeof actor === 'string') return actor;
    if (actor && typeof actor === 'object' && typeof (actor as { id?: unknown }).id === 'string') return (actor as { id: string }).id;
  } catch {
    // Fedify answers a body that is not JSON.
  }
  return null;
}

export { SITE_ACTOR };

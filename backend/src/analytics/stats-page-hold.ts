import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { ACCESS_COOKIE, type AccessTokenPayload } from '../auth/auth-user';
import { answerWindowEnd } from './analytics-query.service';

/** The pages held: the Stats pages (docs/analytics.md, 'Reading the figures'). */
const HELD_PATHS = new Set(['/author/stats', '/admin/stats']);
/** Held pages at most (each a few KB, compressed): past this the oldest go. */
const MAX_HELD = 500;
/** Headers that belong to one answer and are not replayed (the hold's answer gets its own). */
const NOT_HELD = new Set(['set-cookie', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'x-request-id']);
const ACCESS_IN_COOKIE = new RegExp(`(?:^|;\\s*)${ACCESS_COOKIE}=([^;\\s]+)`);

interface Held {
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** The end of the figures' 30-s window (AnalyticsQueryService): never served later. */
  until: number;
}

/**
 * A Stats page, once rendered for a session, is answered again to that same session (its access
 * token) from memory until the end of the 30-s window in which its figures were computed: the
 * figures could not change before then (AnalyticsQueryService holds its answers for the same
 * window), and a page render costs far more than the figures. Only a GET of the very same address,
 * in the same coding, with the same access token still valid (signature and expiry checked on each
 * use), that rendered 200 without setting a cookie. What it replays is what that session was sent
 * less than 30 s before, as a browser's private cache would; a sign-out clears the token and with
 * it every hit, and any write of the session (a request other than GET or HEAD) drops its pages. The frontend layer (FrontendMiddleware) asks it before rendering a signed-in page.
 */
@Injectable()
export class StatsPageHold {
  private readonly held = new Map<string, Held>();
  /** When each render that may be held began: its figures are from that moment's window, so it is held until that window ends. */
  private readonly started = new WeakMap<IncomingMessage, number>();

  constructor(private readonly jwt: JwtService) {}

  /** Answers the request from the hold when it can (true); false: render it. */
  serve(req: IncomingMessage, res: ServerResponse, coding: string): boolean {
    const key = this.keyOf(req, coding);
    if (!key) return false;
    const now = Date.now();
    const entry = this.held.get(key);
    if (!entry || entry.until <= now || !this.validToken(key)) {
      if (entry) this.held.delete(key);
      this.started.set(req, now);
      return false;
    }
    res.statusCode = 200;
    for (const [name, value] of Object.entries(entry.headers)) if (value !== undefined) res.setHeader(name, value);
    res.setHeader('Content-Length', entry.body.length);
    res.end(entry.body);
    return true;
  }

  /** A page just rendered (its body as sent, in `coding`): kept when it may be held. */
  keep(req: IncomingMessage, res: ServerResponse, body: Buffer, coding: string): void {
    const started = this.started.get(req);
    if (started === undefined || res.statusCode !== 200 || res.hasHeader('set-cookie')) return;
    const key = this.keyOf(req, coding);
    if (!key) return;
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(res.getHeaders())) if (!NOT_HELD.has(name)) headers[name] = value;
    const now = Date.now();
    if (this.held.size >= MAX_HELD) {
      for (const [old, entry] of this.held) if (entry.until <= now || this.held.size >= MAX_HELD) this.held.delete(old);
    }
    const until = answerWindowEnd(started);
    if (until > now) this.held.set(key, { headers, body, until });
  }

  /** Drops every page held for the request's session (called on each of its writes). */
  forget(req: IncomingMessage): void {
    if (this.held.size === 0) return;
    const token = ACCESS_IN_COOKIE.exec(req.headers.cookie ?? '')?.[1];
    if (!token) return;
    const prefix = `${token}\n`;
    for (const key of this.held.keys()) if (key.startsWith(prefix)) this.held.delete(key);
  }

  /** Pages held now (tests). */
  get size(): number {
    return this.held.size;
  }

  private keyOf(req: IncomingMessage, coding: string): string | undefined {
    if (req.method !== 'GET') return undefined;
    const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
    const query = url.indexOf('?');
    if (!HELD_PATHS.has(query === -1 ? url : url.slice(0, query))) return undefined;
    const token = ACCESS_IN_COOKIE.exec(req.headers.cookie ?? '')?.[1];
    return token ? `${token}\n${coding}\n${url}` : undefined;
  }

  /** The key's access token still verifies and has not expired (an expired one goes through the render's renewal). */
  private validToken(key: string): boolean {
    try {
      this.jwt.verify<AccessTokenPayload>(key.slice(0, key.indexOf('\n')));
      return true;
    } catch {
      return false;
    }
  }
}

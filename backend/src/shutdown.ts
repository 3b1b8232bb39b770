import type { INestApplication } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { DATABASE_RETRY_AFTER_SECONDS } from './common/database-unavailable';
import type { Envelope } from './common/envelope';
import { CommonMessages } from './common/messages';
import type { EmbeddedDatabase } from './database/embedded-postgres';

/** In-flight requests get this long to finish after SIGTERM/SIGINT (issue 8). */
export const DRAIN_TIMEOUT_MS = 25_000;

/**
 * The graceful stop, in an order that loses nothing: refuse new work (503), let the requests in
 * flight finish (they still need the database), close the app (stops the job queue, letting
 * running jobs finish; flushes view counts; closes the pool), then stop PostgreSQL. PostgreSQL runs in its own process group, so a signal to ours
 * never reaches it before this.
 */
export async function stopGracefully(gate: DrainGate, app: INestApplication, embedded?: EmbeddedDatabase, drainTimeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
  await gate.drain(drainTimeoutMs);
  await app.close();
  await embedded?.stop();
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The graceful stop's front door. Once closed, every new request (health included) gets 503 with
 * Retry-After and `Connection: close` — a clear answer for clients and load balancers rather than
 * a refused connection — while the requests already in flight finish normally; `drained()`
 * resolves when the last of them has answered (or after `timeoutMs`, cutting the rest off).
 * Installed in front of every other request listener (the page cache's fast path too).
 */
export class DrainGate {
  private closed = false;
  private inFlight = 0;
  private onIdle?: () => void;

  constructor(private readonly server: Server) {
    const listeners = server.listeners('request') as RequestListener[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.closed) return refuse(res);
      this.inFlight += 1;
      res.once('close', () => {
        this.inFlight -= 1;
        if (this.inFlight === 0) this.onIdle?.();
      });
      for (const listener of listeners) listener.call(server, req, res);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** Refuses new requests from now on; resolves once those in flight have answered, then closes the server. */
  async drain(timeoutMs: number): Promise<void> {
    this.closed = true;
    if (this.inFlight > 0) {
      await new Promise<void>((done) => {
        const timer = setTimeout(done, timeoutMs);
        timer.unref();
        this.onIdle = () => {
          clearTimeout(timer);
          done();
        };
      });
    }
    await new Promise<void>((done) => {
      this.server.close(() => done());
      this.server.closeAllConnections();
    });
  }
}

function refuse(res: ServerResponse): void {
  const body: Envelope<null> = { success: false, data: null, message: CommonMessages.TEMPORARILY_UNAVAILABLE, status: 503, errors: null };
  res.shouldKeepAlive = false;
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
    'Cache-Control': 'no-store',
    Connection: 'close',
  });
  res.end(JSON.stringify(body));
}

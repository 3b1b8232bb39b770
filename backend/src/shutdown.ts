import type { INestApplication } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { DATABASE_RETRY_AFTER_SECONDS } from './common/database-unavailable';
import type { Envelope } from './common/envelope';
import { CommonMessages } from './common/messages';
import type { EmbeddedDatabase } from './database/embedded-postgres';

/** In-flight requests get this long to finish after SIGTERM/SIGINT. */
export const DRAIN_TIMEOUT_MS = 25_000;

/**
 * The graceful stop, in an order that loses nothing: stop accepting connections, let every request
 * already received finish (they still need the database), refuse later ones (503), close the app (stops the job queue, letting
 * running jobs finish; flushes view counts; closes the pool), then stop PostgreSQL. PostgreSQL runs in its own process group, so a signal to ours
 * never reaches it before this.
 */
export async function stopGracefully(
  gate: DrainGate,
  app: INestApplication,
  embedded?: EmbeddedDatabase,
  drainTimeoutMs = DRAIN_TIMEOUT_MS,
  say?: (line: string) => void,
): Promise<void> {
  await gate.drain(drainTimeoutMs, () =>
    say?.(`no longer accepting connections; answering the ${gate.requestsInFlight} request(s) received`),
  );
  await app.close();
  await embedded?.stop();
}

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The process's stop signals: the first one stops gracefully and exits 0; a second one closes
 * every connection, stops PostgreSQL at once and exits 1.
 */
export function stopOnSignals(
  server: Server,
  gate: DrainGate,
  app: INestApplication,
  embedded: EmbeddedDatabase | undefined,
  say: (line: string) => void,
): void {
  const shutdown = async (signal: string) => {
    say(
      `\n${signal} received: finishing the requests already received (up to ${DRAIN_TIMEOUT_MS / 1000} s), then stopping; send it again to stop at once`,
    );
    await stopGracefully(gate, app, embedded, DRAIN_TIMEOUT_MS, say);
    say('stopped');
    process.exit(0);
  };
  const stopNow = async (signal: string) => {
    say(`${signal} received again: stopping at once`);
    server.closeAllConnections();
    server.close();
    await embedded?.stop(0);
    process.exit(1);
  };
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return void stopNow(signal);
    stopping = true;
    shutdown(signal).catch((error: unknown) => {
      process.stderr.write(`Inkwell did not stop cleanly: ${error instanceof Error ? error.message : String(error)}\n`);
      void (embedded?.stop(0) ?? Promise.resolve()).finally(() => process.exit(1));
    });
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * After the signal, requests still count as received before it for at least this long (bytes of
 * one request can come in several packets). The connections the kernel had queued are accepted
 * for at most ACCEPT_MAX_MS (one per event-loop turn, and a busy server's turns are slow: 30
 * queued behind 20 photo uploads needed more than 1 s), and what they sent is read for at most
 * READ_MAX_MS more.
 */
export const ADMIT_AFTER_SIGNAL_MS = 100;
export const ACCEPT_MAX_MS = 5_000;
export const READ_MAX_MS = 1_000;

const nextTurn = () => new Promise<void>((done) => setImmediate(done));

/**
 * Event-loop turns (each with a poll phase: accepting, reading sockets) until `quiet` turns in a
 * row leave `count` unchanged, or `deadline`.
 */
async function untilQuiet(count: () => number, quiet: number, deadline: number): Promise<void> {
  // The first turn ends the one that took the signal (its poll phase is over).
  await nextTurn();
  let last = count();
  for (let still = 0; still < quiet && Date.now() < deadline;) {
    await nextTurn();
    still = count() === last ? still + 1 : 0;
    last = count();
  }
}

/**
 * The graceful stop's front door. On `drain()`: every connection the kernel has already queued is
 * accepted, then the listening socket closes (a new connection is refused, so a load balancer
 * moves on); every request already received, on any connection, is served normally, its answer
 * with `Connection: close`; only requests arriving later (a kept-alive connection's next request)
 * get 503 with Retry-After. `drain()` resolves once the last admitted request has answered (or
 * after its timeout, cutting the rest off). Installed in front of every other request listener
 * (the page cache's fast path too).
 */
export class DrainGate {
  private state: 'open' | 'admitting' | 'refusing' = 'open';
  private inFlight = 0;
  private accepted = 0;
  private received = 0;
  private readonly answering = new Set<ServerResponse>();
  private onIdle?: () => void;

  constructor(private readonly server: Server) {
    server.on('connection', () => (this.accepted += 1));
    const listeners = server.listeners('request') as RequestListener[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      this.received += 1;
      if (this.state === 'refusing') return refuse(res);
      // Admitted while stopping: answered in full, then the connection closes.
      if (this.state === 'admitting') res.shouldKeepAlive = false;
      this.inFlight += 1;
      this.answering.add(res);
      res.once('close', () => {
        this.inFlight -= 1;
        this.answering.delete(res);
        if (this.inFlight === 0) this.onIdle?.();
      });
      for (const listener of listeners) listener.call(server, req, res);
    });
  }

  get isClosed(): boolean {
    return this.state !== 'open';
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  /**
   * Stops listening, serves every request already received (their answers close their
   * connections), then refuses later ones with 503; resolves once those admitted have answered
   * (at most `timeoutMs` after the call), then closes every connection. `onAdmitted` is called
   * when new connections are refused and later requests get 503.
   */
  async drain(timeoutMs: number, onAdmitted?: () => void): Promise<void> {
    if (this.state !== 'open') return;
    const signalled = Date.now();
    this.state = 'admitting';
    for (const res of this.answering) if (!res.headersSent) res.shouldKeepAlive = false;
    // Node accepts one queued connection per event-loop turn: accept until a turn finds none.
    await untilQuiet(() => this.accepted, 1, signalled + ACCEPT_MAX_MS);
    // Then close the listening socket only: http.Server#close would also drop the connections
    // with nothing parsed yet, and those hold requests already received, not yet read.
    const listenerClosed = new Promise<void>((done) => NetServer.prototype.close.call(this.server, () => done()));
    // What was already sent on the connections is read and parsed in these turns.
    await untilQuiet(() => this.received, 2, Date.now() + READ_MAX_MS);
    const rest = signalled + ADMIT_AFTER_SIGNAL_MS - Date.now();
    if (rest > 0) await new Promise<void>((done) => setTimeout(done, rest));
    this.state = 'refusing';
    onAdmitted?.();
    const left = signalled + timeoutMs - Date.now();
    if (this.inFlight > 0 && left > 0) {
      await new Promise<void>((done) => {
        const timer = setTimeout(done, left);
        timer.unref();
        this.onIdle = () => {
          clearTimeout(timer);
          done();
        };
      });
    }
    this.server.closeAllConnections();
    await listenerClosed;
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

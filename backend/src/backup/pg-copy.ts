import type { Readable, Writable } from 'node:stream';
import type { Client } from 'pg';

/**
 * `COPY … TO STDOUT` and `COPY … FROM STDIN` on a node-postgres client, streamed (never a whole
 * table in memory). node-postgres has no COPY of its own, but takes any object with `submit()`
 * as a query and hands it the protocol messages (copyData, commandComplete, readyForQuery,
 * error); these two are such objects. Back-pressure: while the destination is full the socket
 * is paused (TO), and while the socket is full the source waits (FROM).
 */
interface Connection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: NodeJS.ReadableStream & NodeJS.WritableStream & { writableNeedDrain?: boolean };
}

abstract class CopyQuery {
  callback?: (error: Error | null) => void;
  protected connection?: Connection;
  protected failed?: Error;
  private settle!: { resolve: (rows: number) => void; reject: (error: Error) => void };
  rows = 0;
  readonly done: Promise<number>;

  constructor(readonly text: string) {
    this.done = new Promise<number>((resolve, reject) => (this.settle = { resolve, reject }));
    // A failure nobody awaited yet must not become an unhandled rejection before `done` is awaited.
    this.done.catch(() => undefined);
  }

  submit(connection: Connection): void {
    this.connection = connection;
    connection.query(this.text);
  }

  handleCommandComplete(message: { text?: string }): void {
    const count = /\s(\d+)$/.exec(message.text ?? '');
    this.rows = count ? Number(count[1]) : 0;
  }

  handleReadyForQuery(): void {
    this.finish();
    if (this.failed) this.settle.reject(this.failed);
    else this.settle.resolve(this.rows);
  }

  handleError(error: Error): void {
    this.finish();
    this.settle.reject(this.failed ?? error);
  }

  // Messages a COPY never gets; node-postgres may still call them.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: Connection): void {
    connection.sendCopyFail('not a COPY FROM STDIN');
  }
  handleCopyData(_message: { chunk: Buffer }): void {}

  protected finish(): void {}
}

class CopyTo extends CopyQuery {
  private paused = false;

  constructor(
    text: string,
    private readonly destination: Writable,
  ) {
    super(text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    if (this.failed) return;
    // A copy: the chunk is a view into node-postgres's read buffer, which it reuses for the next
    // messages, while the destination (the zip) may still hold this one in its queue.
    if (!this.destination.write(Buffer.from(message.chunk)) && !this.paused) {
      // Messages already read still arrive while paused; they queue in the destination.
      const socket = this.connection!.stream;
      this.paused = true;
      socket.pause();
      this.destination.once('drain', () => {
        this.paused = false;
        socket.resume();
      });
    }
  }

  protected finish(): void {
    this.connection?.stream.resume();
  }
}

class CopyFrom extends CopyQuery {
  constructor(
    text: string,
    private readonly source: Readable,
  ) {
    super(text);
  }

  handleCopyInResponse(connection: Connection): void {
    void this.pump(connection);
  }

  private async pump(connection: Connection): Promise<void> {
    try {
      for await (const chunk of this.source) {
        connection.sendCopyFromChunk(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
        if (connection.stream.writableNeedDrain) await new Promise((resolve) => connection.stream.once('drain', resolve));
      }
      connection.endCopyFrom();
    } catch (error) {
      this.failed = error instanceof Error ? error : new Error(String(error));
      connection.sendCopyFail(this.failed.message);
    }
  }
}

/** Streams `sql` (a `COPY … TO STDOUT`) into `destination` (not ended); answers the rows copied. */
export function copyOut(client: Client, sql: string, destination: Writable): Promise<number> {
  const query = new CopyTo(sql, destination);
  void client.query(query as never);
  return query.done;
}

/** Streams `source` into `sql` (a `COPY … FROM STDIN`); answers the rows copied. */
export function copyIn(client: Client, sql: string, source: Readable): Promise<number> {
  const query = new CopyFrom(sql, source);
  void client.query(query as never);
  return query.done;
}

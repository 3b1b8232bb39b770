import type { OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';
import type { Response } from 'express';

export interface BufferedResponse {
  status: number;
  body: Buffer;
}

type Callback = (error?: Error | null) => void;

function toBuffer(chunk: unknown, encoding?: BufferEncoding): Buffer | undefined {
  if (chunk === undefined || chunk === null) return undefined;
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), encoding ?? 'utf8');
}

/**
 * Holds back everything a handler writes (writeHead, write, end — how Astro's node adapter
 * answers) and calls `finish` once the handler ends the response, with the status and the
 * whole body; `finish` then sends it (or a 304) through the real methods, restored by then.
 * Headers given to writeHead are applied with setHeader, so res.getHeaders() sees them all.
 * A response the handler destroys instead of ending never reaches `finish`.
 */
export function bufferResponse(res: Response, finish: (buffered: BufferedResponse) => void): void {
  const chunks: Buffer[] = [];
  const target = res as unknown as Record<string, unknown>;

  // Other middleware may have wrapped these already: put back exactly what was there.
  const original = { writeHead: target.writeHead, write: target.write, end: target.end };
  const restore = () => Object.assign(target, original);

  target.writeHead = (
    status: number,
    reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    maybeHeaders?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ) => {
    res.statusCode = status;
    if (typeof reasonOrHeaders === 'string') res.statusMessage = reasonOrHeaders;
    const headers = typeof reasonOrHeaders === 'string' ? maybeHeaders : reasonOrHeaders;
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(String(headers[i]), headers[i + 1] as string | string[]);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    }
    return res;
  };

  target.write = (chunk: unknown, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback) => {
    const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined;
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    const buffer = toBuffer(chunk, encoding);
    if (buffer) chunks.push(buffer);
    if (done) process.nextTick(done);
    return true;
  };

  target.end = (chunk?: unknown, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback) => {
    if (typeof chunk === 'function') {
      callback = chunk as Callback;
      chunk = undefined;
    }
    const encoding = typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined;
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    const buffer = toBuffer(chunk, encoding);
    if (buffer) chunks.push(buffer);
    restore();
    finish({ status: res.statusCode, body: Buffer.concat(chunks) });
    if (done) process.nextTick(done);
    return res;
  };
}

import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent (not decompressed). */
  body: Buffer;
}

/**
 * One request with node:http, the body kept exactly as it came over the wire: supertest
 * decompresses gzip and br bodies, which would hide what the server sent.
 */
export function rawRequest(server: Server, path: string, headers: OutgoingHttpHeaders = {}, method = 'GET'): Promise<RawResponse> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A listening server for a request listener (an Express app), closed by the returned function. */
export async function listen(listener: RequestListener): Promise<{ server: Server; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, close: () => new Promise<void>((done) => server.close(() => done())) };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface ReceivedHook {
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
  /** The status the receiver answered. */
  answered: number;
}

/** How the receiver answers a request: a status, or 'hang' (no answer: the sender times out). */
export type Answer = number | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedHook[];
  /** Answers for the next requests, in order; then `fallback`. */
  answers: Answer[];
  fallback: Answer;
  /** Waits until `count` requests match `filter`. */
  waitFor(filter: (hook: ReceivedHook) => boolean, count?: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

/** A webhook receiver on loopback (the app needs WEBHOOK_ALLOW_PRIVATE=1 to reach it). */
export async function startWebhookReceiver(path = '/hook'): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const hanging = new Set<http.ServerResponse>();
  const receiver: Partial<WebhookReceiver> = { received, answers: [], fallback: 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = receiver.answers!.length ? receiver.answers!.shift()! : receiver.fallback!;
      received.push({ at: Date.now(), headers: req.headers, body, json: JSON.parse(body), answered: answer === 'hang' ? 0 : answer });
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(`answered ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    async waitFor(filter: (hook: ReceivedHook) => boolean, count = 1, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > until)
          throw new Error(
            `receiver: ${matching.length} of ${count} matching requests after ${timeoutMs} ms (got ${received.map((hook) => hook.json.type).join(', ')})`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  }) as WebhookReceiver;
}

/** What docs/integrations.md tells integrators to do: check `v1` over `t.body` with the secret. */
export function verifySignature(secret: string, header: string | undefined, body: string): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=') as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

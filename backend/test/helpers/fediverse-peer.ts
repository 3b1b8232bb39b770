import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Node >= 22: the suites that need Fedify run; on Node 20 they are skipped (Fedify needs 22, and the app turns federation off). */
export const FEDIFY_RUNS = Number(process.versions.node.split('.')[0]) >= 22;

/** The Fedify library, loaded on demand (its `import()` becomes require() under jest). */
export async function loadFedifyForTests(): Promise<{ fedify: any; vocab: any }> {
  const [fedify, vocab] = await Promise.all([import('@fedify/fedify'), import('@fedify/vocab')]);
  return { fedify, vocab };
}

export interface Peer {
  origin: string;
  /** The peer's one actor, `peer`. */
  actorUri: URL;
  fedify: any;
  vocab: any;
  federation: any;
  /** Every activity the peer's inbox accepted: Fedify hands an activity to its listener only once its signature was verified. */
  received: any[];
  /** Every POST the peer was sent, its path and its body as received (verified or not). */
  posts: { path: string; body: string }[];
  context(): any;
  /** Waits until an accepted activity meets `test` (polls every 50 ms). */
  waitFor(test: (activity: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * An independent fediverse server for the tests: a minimal Fedify app on loopback (its own
 * MemoryKvStore, keys and actor `peer`, WebFinger and NodeInfo by Fedify), with an inbox that
 * verifies every signature and records what it accepted.
 */
export async function startPeer(): Promise<Peer> {
  const { fedify, vocab } = await loadFedifyForTests();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const federation = fedify.createFederation({ kv: new fedify.MemoryKvStore(), allowPrivateAddress: true, origin });
  const keys = [await fedify.generateCryptoKeyPair('RSASSA-PKCS1-v1_5'), await fedify.generateCryptoKeyPair('Ed25519')];
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx: any, identifier: string) => {
      if (identifier !== 'peer') return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new vocab.Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: 'peer',
        name: 'Peer Reader',
        inbox: ctx.getInboxUri(identifier),
        endpoints: new vocab.Endpoints({ sharedInbox: ctx.getInboxUri() }),
        url: new URL('/@peer', origin),
        icon: new vocab.Image({ url: new URL('/avatar.png', origin) }),
        publicKey: pairs[0].cryptographicKey,
        assertionMethods: pairs.map((pair: any) => pair.multikey),
      });
    })
    .setKeyPairsDispatcher(async () => keys);
  const received: any[] = [];
  federation.setInboxListeners('/users/{identifier}/inbox', '/inbox').on(vocab.Activity, async (_ctx: any, activity: any) => {
    received.push(activity);
  });
  const posts: { path: string; body: string }[] = [];
  server.on('request', (req, res) => {
    void (async () => {
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
      if (req.method === 'POST' && body) posts.push({ path: req.url ?? '/', body: body.toString('utf8') });
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, String(value));
      const response: Response = await federation.fetch(
        new Request(new URL(req.url ?? '/', origin), { method: req.method, headers, body: body ? new Uint8Array(body) : undefined }),
        { contextData: undefined },
      );
      res.statusCode = response.status;
      response.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  const context = () => federation.createContext(new URL(origin), undefined);
  return {
    origin,
    actorUri: new URL('/users/peer', origin),
    fedify,
    vocab,
    federation,
    received,
    posts,
    context,
    async waitFor(test, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(test);
        if (found) return found;
        if (Date.now() > until)
          throw new Error(
            `The peer received no such activity in ${timeoutMs} ms (got ${received.map((a) => a.constructor.name).join(', ')})`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

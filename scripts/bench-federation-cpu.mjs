#!/usr/bin/env node
// CPU of one delivery on the sending process (docs/benchmarks.md#federation), the way Inkwell
// sent before and sends now, measured apart with process.cpuUsage() over a loop of deliveries of
// the benchmark's Create{Article} (a 4 KB post) to an inbox in another process that answers 202:
//   per inbox (before): the stored JSON-LD parsed, then Fedify's sendActivity (immediate) to one
//     inbox: Object Integrity Proof, compaction, Linked Data Signature, HTTP signature, POST;
//   once per activity (now): that signed body made once (Fedify's sendActivity preparing it for
//     its outbox queue), then per inbox only Fedify's signRequest (draft-cavage) and the POST
//     (node:http, a connection of its own, as the server sends).
// Node >= 22. `node scripts/bench-federation-cpu.mjs [deliveries]` (default 200).
import { spawn } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';

const N = Number(process.argv[2] ?? 200);
const fedify = await import('@fedify/fedify');
const vocab = await import('@fedify/vocab');

// The inbox: another process, so that its work is not counted.
const child = spawn(
  process.execPath,
  [
    '-e',
    `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.writeHead(202).end()); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); })`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
process.on('exit', () => child.kill());
const port = await new Promise((done) => child.stdout.once('data', (data) => done(Number(String(data).trim()))));
const inbox = new URL(`http://127.0.0.1:${port}/inbox`);

const origin = 'http://127.0.0.1:1';
const prepared = new AsyncLocalStorage();
const take = (message) => prepared.getStore().push(message);
const federation = fedify.createFederation({
  kv: new fedify.MemoryKvStore(),
  origin,
  allowPrivateAddress: true,
  queue: { outbox: { enqueue: async (m) => take(m), enqueueMany: async (ms) => ms.forEach(take), listen: () => new Promise(() => {}) } },
  manuallyStartQueue: true,
  circuitBreaker: false,
});
const keys = [await fedify.generateCryptoKeyPair('RSASSA-PKCS1-v1_5'), await fedify.generateCryptoKeyPair('Ed25519')];
federation
  .setActorDispatcher(
    '/ap/actors/{identifier}',
    (ctx, identifier) => new vocab.Person({ id: ctx.getActorUri(identifier), inbox: ctx.getInboxUri(identifier) }),
  )
  .setKeyPairsDispatcher(() => keys);
federation.setInboxListeners('/ap/actors/{identifier}/inbox', '/ap/inbox');
const ctx = federation.createContext(new URL(origin), undefined);
const author = ctx.getActorUri('1');
const followers = new URL('/ap/actors/1/followers', origin);
const create = new vocab.Create({
  id: new URL('/ap/activities/1', origin),
  actor: author,
  object: new vocab.Article({
    id: new URL('/ap/articles/1', origin),
    name: 'Delivered to ten thousand followers',
    content: `<p>${'Words of the post. '.repeat(200)}</p>`,
    url: new URL('/blog/delivered', origin),
    attribution: author,
    to: vocab.PUBLIC_COLLECTION,
    ccs: [followers],
  }),
  to: vocab.PUBLIC_COLLECTION,
  ccs: [followers],
});
const stored = await create.toJsonLd({ format: 'compact' });
const recipient = { id: new URL('http://127.0.0.1:2/users/u'), inboxId: inbox };

async function cpuPer(label, deliveries, once, each, unit = 'delivery') {
  const start = process.cpuUsage();
  const wall = performance.now();
  const state = await once();
  for (let i = 0; i < deliveries; i += 1) await each(state);
  const used = process.cpuUsage(start);
  const ms = (used.user + used.system) / 1000 / deliveries;
  console.log(`| ${label} | ${ms.toFixed(2)} ms CPU per ${unit} | ${((performance.now() - wall) / deliveries).toFixed(2)} ms wall |`);
  return ms;
}

const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
// Warm-up (JIT, the preloaded contexts, the key dispatcher).
await ctx.sendActivity({ identifier: '1' }, recipient, await vocab.Activity.fromJsonLd(stored, loaders), { immediate: true });

const before = await cpuPer(
  'per inbox: parse + sendActivity (before)',
  N,
  async () => null,
  async () => ctx.sendActivity({ identifier: '1' }, recipient, await vocab.Activity.fromJsonLd(stored, loaders), { immediate: true }),
);
const rsa = (await ctx.getActorKeyPairs('1')).find((pair) => pair.privateKey.algorithm.name === 'RSASSA-PKCS1-v1_5');
const sign = async () => {
  const messages = [];
  await prepared.run(messages, () => ctx.sendActivity({ identifier: '1' }, recipient, create));
  return JSON.stringify(messages[0].activity);
};
// As the server sends (federation.service.ts post()): a connection of its own, closed after the answer.
const post = async (body) => {
  const signed = await fedify.signRequest(
    new Request(inbox, { method: 'POST', headers: { 'Content-Type': 'application/activity+json' }, body }),
    rsa.privateKey,
    rsa.keyId,
    { spec: 'draft-cavage-http-signatures-12' },
  );
  const headers = { 'Content-Length': String(Buffer.byteLength(body)) };
  signed.headers.forEach((value, name) => (headers[name] = value));
  const status = await new Promise((done, fail) => {
    const req = http.request(inbox, { method: 'POST', headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode));
    });
    req.on('error', fail);
    req.end(body);
  });
  if (status !== 202) throw new Error(String(status));
};
const body = await sign();
await post(body);
const signOnce = await cpuPer('signing the body (once per activity)', 20, async () => null, sign, 'signing');
const after = await cpuPer('per inbox: signRequest + POST of the signed body (now)', N, async () => body, post);
console.log(`before / now: x${(before / after).toFixed(1)} (the one signing: ${signOnce.toFixed(1)} ms, amortised over the inboxes)`);
process.exit(0);

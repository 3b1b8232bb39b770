import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, island, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi } from './admin-api';

/**
 * The social web through the real pages (docs/federation.md): the author page's 'Follow on the
 * fediverse' handle is copied; an independent fediverse server (a minimal Fedify app on loopback)
 * replies to the post; the reply waits under Held in /admin/comments naming where it came from;
 * the admin approves it and it shows in the thread. Axe on /admin/federation. Fedify needs Node 22:
 * skipped on older Node (the server then runs with federation off).
 */
const FEDIFY_RUNS = Number(process.versions.node.split('.')[0]) >= 22;
test.skip(!FEDIFY_RUNS, 'Fedify needs Node 22 or later');

async function startPeer() {
  const fedify: any = await import('@fedify/fedify');
  const vocab: any = await import('@fedify/vocab');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const federation = fedify.createFederation({ kv: new fedify.MemoryKvStore(), allowPrivateAddress: true, origin });
  const keys = [await fedify.generateCryptoKeyPair('RSASSA-PKCS1-v1_5')];
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx: any, identifier: string) =>
      identifier !== 'peer'
        ? null
        : new vocab.Person({
            id: ctx.getActorUri(identifier),
            preferredUsername: 'peer',
            name: 'Peer Reader',
            inbox: ctx.getInboxUri(identifier),
            url: new URL('/@peer', origin),
            publicKey: (await ctx.getActorKeyPairs(identifier))[0].cryptographicKey,
          }),
    )
    .setKeyPairsDispatcher(async () => keys);
  federation.setInboxListeners('/users/{identifier}/inbox', '/inbox').on(vocab.Activity, async () => undefined);
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  };
  server.on('request', (req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? await read(req) : undefined;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, String(value));
      const response: Response = await federation.fetch(
        new Request(new URL(req.url ?? '/', origin), { method: req.method, headers, body: body ? new Uint8Array(body) : undefined }),
        { contextData: undefined },
      );
      res.statusCode = response.status;
      response.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  return { origin, vocab, context: () => federation.createContext(new URL(origin), undefined), close: () => server.close() };
}

test('copy the handle on the author page; a reply from the fediverse is held, approved and shown in the thread', async ({
  page,
  asAdmin,
  playwright,
  baseURL,
  hydrated,
  context,
}) => {
  const api = await adminApi(baseURL!, playwright);
  const profile = (await (await api.get('/api/v1/users/profile')).json()).data as { slug?: string; id: number };
  const title = `Federated journey ${randomUUID().slice(0, 8)}`;
  const created = await api.post('/api/v1/blog/posts', { data: { title, content: 'Hello fediverse', status: 'PUBLISHED' } });
  expect(created.status(), await created.text()).toBe(201);
  const post = (await created.json()).data as { id: number; slug: string; author: { slug: string } };
  const slug = post.author?.slug ?? profile.slug!;
  const host = new URL(baseURL!).host;

  // The author page: the handle, copied.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await asAdmin.goto(`/authors/${slug}`);
  const follow = asAdmin.locator('[data-fediverse-follow]');
  await expect(follow.locator('[data-fediverse-handle]')).toHaveText(`@${slug}@${host}`);
  await hydrated(island(asAdmin, 'FollowHandle'));
  await follow.getByRole('button', { name: `Copy @${slug}@${host}` }).click();
  await expect(follow.getByRole('button', { name: `Copy @${slug}@${host}` })).toHaveText('Copied');
  expect(await asAdmin.evaluate(() => navigator.clipboard.readText())).toBe(`@${slug}@${host}`);
  await expect(asAdmin.locator('link[rel="alternate"][type="application/activity+json"]')).toHaveCount(1);

  // The peer replies to the post's Article (found by asking the post page for ActivityPub).
  const peer = await startPeer();
  try {
    const ctx = peer.context();
    const article = await ctx.lookupObject(`${baseURL}/blog/${post.slug}`);
    const author = await ctx.lookupObject(article.attributionId.href);
    const note = new peer.vocab.Note({
      id: new URL(`/notes/${randomUUID()}`, peer.origin),
      attribution: new URL('/users/peer', peer.origin),
      content: '<p>Hello from the fediverse</p>',
      replyTarget: article.id,
    });
    await ctx.sendActivity(
      { identifier: 'peer' },
      author,
      new peer.vocab.Create({
        id: new URL(`/creates/${randomUUID()}`, peer.origin),
        actor: new URL('/users/peer', peer.origin),
        object: note,
      }),
      { immediate: true },
    );
  } finally {
    peer.close();
  }

  // Held: not in the thread; under Held in the queue with where it came from; approved, it shows.
  await page.goto(`/blog/${post.slug}`);
  await expect(page.getByText('Hello from the fediverse')).toHaveCount(0);
  await asAdmin.goto(`/admin/comments?filter=held&search=${encodeURIComponent('Hello from the fediverse')}`);
  await hydrated(island(asAdmin, 'AdminCommentsManager'));
  const row = asAdmin.locator('[data-moderation-row]').filter({ hasText: 'Hello from the fediverse' });
  await expect(row.getByText('Peer Reader (@peer@', { exact: false }).first()).toBeVisible();
  await row.getByRole('button', { name: /Approve comment by Peer Reader/ }).click();
  await expect(row).toHaveCount(0);
  await page.goto(`/blog/${post.slug}`);
  await expect(page.getByText('Hello from the fediverse')).toBeVisible();
  await expect(page.getByText(/Peer Reader \(@peer@/).first()).toBeVisible();

  await asAdmin.goto('/admin/federation');
  await hydrated(island(asAdmin, 'FederationAdmin'));
  await expect(asAdmin.getByRole('heading', { name: 'Federation is on' })).toBeVisible();
  await expectNoSeriousViolations(asAdmin);
  await api.dispose();
});

import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { FEDIFY_RUNS, Peer, startPeer } from './helpers/fediverse-peer';
import { createAdmin, createReader, TestUser } from './helpers/users';
import { freePort } from './helpers/free-port';

jest.setTimeout(90_000);

const AP = 'application/activity+json';

/**
 * The social web (docs/federation.md) against an independent fediverse server: a minimal Fedify
 * app on loopback (helpers/fediverse-peer.ts) follows an Inkwell author, receives the signed
 * Create, Update and Delete of a post (its inbox verifies every signature), replies (a held
 * comment, approved, answered from Inkwell as a Note), edits and deletes the reply, likes and
 * boosts. Fedify needs Node >= 22: on Node 20 this suite is skipped.
 */
(FEDIFY_RUNS ? describe : describe.skip)('Federation (Node >= 22: Fedify)', () => {
  let t: TestApp;
  let db: DataSource;
  let peer: Peer;
  let admin: TestUser;
  let reader: TestUser;
  let base: string;
  let host: string;
  let actorId: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    host = `127.0.0.1:${port}`;
    t = await createTestApp({
      env: {
        PUBLIC_URL: base,
        FEDERATION_ALLOW_PRIVATE: '1',
        JOB_RETRY_DELAY_SECONDS: '1',
        JOB_POLL_SECONDS: '1',
        FEDERATION_INBOX_BODY_LIMIT: '65536',
      },
    });
    await t.app.listen(port, '127.0.0.1');
    db = t.app.get(DataSource);
    peer = await startPeer();
    [admin, reader] = await Promise.all([createAdmin(t), createReader(t)]);
    await db.query(`INSERT INTO tags (name, slug, is_active) VALUES ('Fedi Tag', 'fedi-tag', true) ON CONFLICT DO NOTHING`);
  });
  afterAll(async () => {
    await peer?.close();
    await t?.close();
  });

  it('WebFinger, the Person actor (Mastodon needs publicKey, preferredUsername, url, inbox) and the author page asked for as ActivityPub', async () => {
    const finger = await t.http.get(`/.well-known/webfinger?resource=acct:${admin.slug}@${host}`).expect(200);
    expect(finger.body.subject).toBe(`acct:${admin.slug}@${host}`);
    const self = finger.body.links.find((link: any) => link.rel === 'self' && link.type === AP);
    expect(self).toBeDefined();
    actorId = self.href;
    const actor = await t.http.get(new URL(actorId).pathname).set('Accept', AP).expect(200);
    expect(actor.body).toMatchObject({
      id: actorId,
      type: 'Person',
      preferredUsername: admin.slug,
      name: admin.fullName,
      url: `${base}/authors/${admin.slug}`,
      inbox: `${actorId}/inbox`,
      followers: `${actorId}/followers`,
      endpoints: { sharedInbox: `${base}/ap/inbox` },
    });
    expect(actor.body.publicKey.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(actor.body.publicKey.owner).toBe(actorId);
    expect(actor.body.assertionMethod.length).toBeGreaterThan(0);
    // The key pairs are made once: the same key the second time.
    const again = await t.http.get(new URL(actorId).pathname).set('Accept', AP).expect(200);
    expect(again.body.publicKey.publicKeyPem).toBe(actor.body.publicKey.publicKeyPem);
    const sealed = (await db.query(`SELECT private_sealed FROM federation_keys WHERE actor = $1`, [String(admin.id)])) as {
      private_sealed: string;
    }[];
    expect(sealed).toHaveLength(2);
    for (const row of sealed) expect(row.private_sealed).toMatch(/^v1\./);

    const page = await t.http.get(`/authors/${admin.slug}`).set('Accept', AP).expect(200);
    expect(page.body.id).toBe(actorId);
    expect(page.headers['content-type']).toMatch(/activity\+json|ld\+json/);
    // The publication and NodeInfo.
    const site = await t.http.get(`/.well-known/webfinger?resource=acct:blog@${host}`).expect(200);
    expect(site.body.links.some((link: any) => link.rel === 'self')).toBe(true);
    const service = await t.http.get('/ap/actors/site').set('Accept', AP).expect(200);
    expect(service.body.type).toBe('Service');
    const nodeinfo = await t.http.get('/.well-known/nodeinfo').expect(200);
    expect(nodeinfo.body.links[0].href).toBe(`${base}/nodeinfo/2.1`);
    const info = await t.http.get('/nodeinfo/2.1').expect(200);
    expect(info.body.protocols).toEqual(['activitypub']);
    // A reader is no actor.
    await t.http.get(`/.well-known/webfinger?resource=acct:${reader.slug}@${host}`).expect(404);
  });

  it('Follow is accepted (the peer gets a signed Accept) and listed for the author', async () => {
    const ctx = peer.context();
    const author = await ctx.lookupObject(actorId);
    expect(author?.id?.href).toBe(actorId);
    await ctx.sendActivity(
      { identifier: 'peer' },
      author,
      new peer.vocab.Follow({ id: new URL(`/follows/${randomUUID()}`, peer.origin), actor: peer.actorUri, object: author.id }),
      { immediate: true },
    );
    await peer.waitFor((activity) => activity instanceof peer.vocab.Accept);
    const mine = await t.http.get(api('/federation/me')).set(admin.auth).expect(200);
    expect(mine.body.data).toMatchObject({ handle: `@${admin.slug}@${host}`, followerCount: 1 });
    expect(mine.body.data.followers[0]).toMatchObject({
      uri: peer.actorUri.href,
      handle: `@peer@${new URL(peer.origin).host}`,
      name: 'Peer Reader',
    });
    const followers = await t.http
      .get(`${new URL(actorId).pathname}/followers`)
      .set('Accept', AP)
      .expect(200);
    expect(followers.body.totalItems).toBe(1);
  });

  let postId: number;
  let slug: string;
  let articleId: string;

  it('publishing sends a signed Create{Article} (title, HTML content, url, Hashtag); the post page answers as an Article', async () => {
    const res = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({
        title: `Federated ${uid()}`,
        content: 'Hello **fediverse**',
        summary: 'A summary',
        status: 'PUBLISHED',
        tagSlugs: ['fedi-tag'],
      })
      .expect(201);
    postId = res.body.data.id;
    slug = res.body.data.slug;
    const create = await peer.waitFor((activity) => activity instanceof peer.vocab.Create);
    const article = await create.getObject();
    expect(article).toBeInstanceOf(peer.vocab.Article);
    articleId = article.id.href;
    expect(article.name.toString()).toBe(res.body.data.title);
    expect(article.content.toString()).toContain('<strong>fediverse</strong>');
    expect(article.url.href).toBe(`${base}/blog/${slug}`);
    expect(article.attributionId.href).toBe(actorId);
    const tags = [];
    for await (const tag of article.getTags()) tags.push(tag);
    expect(tags[0]).toBeInstanceOf(peer.vocab.Hashtag);
    expect(tags[0].href.href).toBe(`${base}/tag/fedi-tag`);
    const page = await t.http.get(`/blog/${slug}`).set('Accept', AP).expect(200);
    expect(page.body).toMatchObject({ id: articleId, type: 'Article', url: `${base}/blog/${slug}` });
    const deliveries = (await db.query(
      `SELECT d.status FROM federation_deliveries d JOIN federation_activities a ON a.id = d.activity_id WHERE a.type = 'Create'`,
    )) as { status: string }[];
    expect(deliveries).toEqual([{ status: 'DELIVERED' }]);
  });

  it('an activity is signed once: two inboxes get the same bytes (one Linked Data Signature, one proof), both verified', async () => {
    // A second follower on the peer's server, without a shared inbox: a second inbox for the same Create.
    const [other] = (await db.query(
      `INSERT INTO federation_remote_actors (uri, host, inbox, handle, name) VALUES ($1, $2, $3, $4, 'Other Reader') RETURNING id`,
      [`${peer.origin}/users/other`, new URL(peer.origin).host, `${peer.origin}/users/peer/inbox`, `@other@${new URL(peer.origin).host}`],
    )) as { id: number }[];
    await db.query(`INSERT INTO federation_followers (actor, remote_actor_id) VALUES ($1, $2)`, [String(admin.id), other.id]);
    try {
      const res = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Signed once ${uid()}`, content: 'Signed **once**', status: 'PUBLISHED' })
        .expect(201);
      const [activity] = (await db.query(
        `SELECT a.id, a.uri FROM federation_activities a WHERE a.type = 'Create' AND a.body->'object'->>'id' = $1`,
        [`${base}/ap/articles/${res.body.data.id}`],
      )) as { id: string; uri: string }[];
      const until = Date.now() + 20_000;
      let rows: { inbox: string; status: string }[] = [];
      while (Date.now() < until) {
        rows = (await db.query(`SELECT inbox, status FROM federation_deliveries WHERE activity_id = $1 ORDER BY inbox`, [activity.id])) as {
          inbox: string;
          status: string;
        }[];
        if (rows.length === 2 && rows.every((row) => row.status !== 'PENDING' && row.status !== 'SENDING')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Both accepted (a 2xx from Fedify's inbox: every signature verified).
      expect(rows).toEqual([
        { inbox: `${peer.origin}/inbox`, status: 'DELIVERED' },
        { inbox: `${peer.origin}/users/peer/inbox`, status: 'DELIVERED' },
      ]);
      const copies = peer.posts.filter((post) => post.body.includes(activity.uri));
      expect(copies.map((copy) => copy.path).sort()).toEqual(['/inbox', '/users/peer/inbox']);
      expect(copies[1].body).toBe(copies[0].body);
      const body = JSON.parse(copies[0].body);
      expect(body.signature.signatureValue).toEqual(expect.any(String));
      expect(body.proof.proofValue).toEqual(expect.any(String));
      const [stored] = (await db.query(`SELECT signed_body FROM federation_activities WHERE id = $1`, [activity.id])) as {
        signed_body: string;
      }[];
      expect(stored.signed_body).toBe(copies[0].body);
    } finally {
      await db.query(`DELETE FROM federation_remote_actors WHERE id = $1`, [other.id]);
    }
  });

  let commentId: number;
  const noteId = new URL(`/notes/${randomUUID()}`, 'http://placeholder');

  it('a reply from the fediverse is a HELD comment with its remote author; approved, it shows in the thread; a local reply goes back as a Note', async () => {
    noteId.host = new URL(peer.origin).host;
    const ctx = peer.context();
    const inkwell = await ctx.lookupObject(actorId);
    const note = new peer.vocab.Note({
      id: new URL(noteId.pathname, peer.origin),
      attribution: peer.actorUri,
      content: '<p>Great post &amp; thanks!</p>',
      replyTarget: new URL(articleId),
      to: peer.vocab.PUBLIC_COLLECTION,
    });
    await ctx.sendActivity(
      { identifier: 'peer' },
      inkwell,
      new peer.vocab.Create({ id: new URL(`/creates/${randomUUID()}`, peer.origin), actor: peer.actorUri, object: note }),
      { immediate: true, preferSharedInbox: true },
    );
    const [row] = (await db.query(`SELECT id, moderation, content FROM comments WHERE remote_uri = $1`, [note.id.href])) as any[];
    expect(row).toMatchObject({ moderation: 'HELD', content: 'Great post & thanks!' });
    commentId = row.id;
    const hidden = await t.http.get(api(`/blog/posts/${postId}/comments`)).expect(200);
    expect(JSON.stringify(hidden.body)).not.toContain('Great post');
    const queue = await t.http.get(api('/admin/comments?filter=held')).set(admin.auth).expect(200);
    const held = queue.body.data.content.find((item: any) => item.id === commentId);
    expect(held.remoteAuthor).toEqual({
      name: 'Peer Reader',
      handle: `@peer@${new URL(peer.origin).host}`,
      avatar: `${peer.origin}/avatar.png`,
      url: `${peer.origin}/@peer`,
    });
    await t.http
      .post(api(`/admin/comments/${commentId}/restore`))
      .set(admin.auth)
      .expect(200);
    const thread = await t.http.get(api(`/blog/posts/${postId}/comments`)).expect(200);
    const shown = JSON.stringify(thread.body);
    expect(shown).toContain('Great post & thanks!');
    expect(shown).toContain('"handle":"@peer@');

    await t.http.post(api('/comments')).set(admin.auth).send({ postId, content: 'Thank you for reading', parentId: commentId }).expect(201);
    const back = await peer.waitFor((activity) => activity instanceof peer.vocab.Create && activity.objectId?.href?.includes('/ap/notes/'));
    const answer = await back.getObject();
    expect(answer.replyTargetId.href).toBe(note.id.href);
    expect(answer.content.toString()).toContain('Thank you for reading');
  });

  it('Update and Delete of the Note edit and remove the comment; Like and Announce are counted apart', async () => {
    const ctx = peer.context();
    const inkwell = await ctx.lookupObject(actorId);
    const noteUri = new URL(noteId.pathname, peer.origin);
    const send = (activity: any) => ctx.sendActivity({ identifier: 'peer' }, inkwell, activity, { immediate: true });
    await send(
      new peer.vocab.Update({
        id: new URL(`/updates/${randomUUID()}`, peer.origin),
        actor: peer.actorUri,
        object: new peer.vocab.Note({
          id: noteUri,
          attribution: peer.actorUri,
          content: '<p>Edited reply</p>',
          replyTarget: new URL(articleId),
        }),
      }),
    );
    expect(((await db.query(`SELECT content FROM comments WHERE id = $1`, [commentId])) as any[])[0].content).toBe('Edited reply');
    await send(
      new peer.vocab.Like({ id: new URL(`/likes/${randomUUID()}`, peer.origin), actor: peer.actorUri, object: new URL(articleId) }),
    );
    await send(
      new peer.vocab.Announce({ id: new URL(`/boosts/${randomUUID()}`, peer.origin), actor: peer.actorUri, object: new URL(articleId) }),
    );
    const reactions = await t.http.get(api(`/federation/posts/${postId}/reactions`)).expect(200);
    expect(reactions.body.data).toEqual({ likes: 1, boosts: 1 });
    const likes = (await db.query(`SELECT like_count FROM posts WHERE id = $1`, [postId])) as any[];
    expect(likes[0].like_count).toBe(0);
    await send(new peer.vocab.Delete({ id: new URL(`/deletes/${randomUUID()}`, peer.origin), actor: peer.actorUri, object: noteUri }));
    const gone = (await db.query(`SELECT content, deleted_at FROM comments WHERE id = $1`, [commentId])) as any[];
    // The local reply under it keeps it as a placeholder.
    expect(gone[0].deleted_at).not.toBeNull();
  });

  it('a reply longer than the comment limit (200 characters) is cut to 199 and an ellipsis, and held like any other', async () => {
    const ctx = peer.context();
    const inkwell = await ctx.lookupObject(actorId);
    const words = 'A long reply from the fediverse, longer than any Inkwell comment may be. '.repeat(5);
    const note = new peer.vocab.Note({
      id: new URL(`/notes/${randomUUID()}`, peer.origin),
      attribution: peer.actorUri,
      content: `<p>${words}</p>`,
      replyTarget: new URL(articleId),
      to: peer.vocab.PUBLIC_COLLECTION,
    });
    await ctx.sendActivity(
      { identifier: 'peer' },
      inkwell,
      new peer.vocab.Create({ id: new URL(`/creates/${randomUUID()}`, peer.origin), actor: peer.actorUri, object: note }),
      { immediate: true },
    );
    const [row] = (await db.query(`SELECT content, moderation FROM comments WHERE remote_uri = $1`, [note.id.href])) as any[];
    expect(row.moderation).toBe('HELD');
    expect(Array.from(row.content as string)).toHaveLength(200);
    expect(row.content).toBe(`${words.slice(0, 199)}…`);
  });

  it('editing the published post sends Update; unpublishing sends Delete', async () => {
    await t.http
      .put(api(`/blog/posts/${postId}`))
      .set(admin.auth)
      .send({ title: 'Federated, edited' })
      .expect(200);
    const update = await peer.waitFor((activity) => activity instanceof peer.vocab.Update);
    expect((await update.getObject()).name.toString()).toBe('Federated, edited');
    await t.http
      .delete(api(`/blog/posts/${postId}`))
      .set(admin.auth)
      .expect(204);
    const del = await peer.waitFor((activity) => activity instanceof peer.vocab.Delete);
    expect(del.objectId.href).toBe(articleId);
  });

  it('inboxes refuse unsigned, wrongly signed and stale requests (401, nothing changes), bodies over the limit (413), blocked servers (403)', async () => {
    const count = async () => ((await db.query('SELECT count(*)::int AS n FROM federation_followers')) as any[])[0].n;
    const before = await count();
    const follow = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${peer.origin}/follows/${randomUUID()}`,
      type: 'Follow',
      actor: peer.actorUri.href,
      object: actorId,
    };
    const unsigned = await fetch(`${base}/ap/inbox`, { method: 'POST', headers: { 'content-type': AP }, body: JSON.stringify(follow) });
    expect(unsigned.status).toBe(401);
    // Signed with a key that is not the actor's.
    const stranger = await peer.fedify.generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const wrong = await peer.fedify.signRequest(
      new Request(`${base}/ap/inbox`, { method: 'POST', headers: { 'content-type': AP }, body: JSON.stringify(follow) }),
      stranger.privateKey,
      new URL(`${peer.actorUri.href}#main-key`),
    );
    expect((await fetch(wrong)).status).toBe(401);
    // Signed by the actor's own key, an hour and more ago.
    const keys = await peer.context().getActorKeyPairs('peer');
    const stale = new Request(`${base}/ap/inbox`, {
      method: 'POST',
      headers: { 'content-type': AP, date: new Date(Date.now() - 3 * 3_600_000).toUTCString() },
      body: JSON.stringify(follow),
    });
    const staleSigned = await peer.fedify.signRequest(stale, keys[0].privateKey, keys[0].keyId);
    expect((await fetch(staleSigned)).status).toBe(401);
    expect(await count()).toBe(before);
    const big = await fetch(`${base}/ap/inbox`, { method: 'POST', headers: { 'content-type': AP }, body: 'x'.repeat(70_000) });
    expect(big.status).toBe(413);

    await t.http
      .post(api('/admin/federation/blocks'))
      .set(admin.auth)
      .send({ kind: 'instance', value: new URL(peer.origin).host })
      .expect(201);
    const ctx = peer.context();
    const inkwell = await ctx.lookupObject(actorId);
    await expect(
      ctx.sendActivity(
        { identifier: 'peer' },
        inkwell,
        new peer.vocab.Follow({ id: new URL(`/follows/${randomUUID()}`, peer.origin), actor: peer.actorUri, object: inkwell.id }),
        {
          immediate: true,
        },
      ),
    ).rejects.toThrow(/403/);
    expect(await count()).toBe(0);
    const overview = await t.http.get(api('/admin/federation')).set(admin.auth).expect(200);
    expect(overview.body.data).toMatchObject({ available: true, enabled: true, siteHandle: `@blog@${host}` });
    const deliveries = await t.http.get(api('/admin/federation/deliveries')).set(admin.auth).expect(200);
    expect(deliveries.body.data.length).toBeGreaterThan(0);
  });

  it('fuzz: hostile bodies and headers on the inboxes, actors, WebFinger and NodeInfo never answer 5xx', async () => {
    const json = fc.oneof(
      fc.jsonValue(),
      fc.string(),
      fc.constant('{"@context":"https://www.w3.org/ns/activitystreams","type":"Create","actor":{}}'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/ap/inbox', '/ap/actors/site/inbox', `/ap/actors/${admin.id}/inbox`, '/ap/actors/0/inbox'),
        json,
        fc.constantFrom('application/activity+json', 'application/ld+json', 'text/plain', 'application/json'),
        fc.option(fc.string({ maxLength: 200 })),
        async (path, body, type, signature) => {
          const call = t.http.post(path).set('Content-Type', type);
          if (signature !== null) call.set('Signature', signature);
          const res = await call.send(typeof body === 'string' ? body : JSON.stringify(body));
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), async (value) => {
        const resource = encodeURIComponent(value);
        for (const path of [
          `/.well-known/webfinger?resource=${resource}`,
          `/ap/actors/${resource}`,
          `/ap/articles/${resource}`,
          `/ap/notes/${resource}`,
        ]) {
          const res = await t.http.get(path).set('Accept', AP);
          expect(res.status).toBeLessThan(500);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('federation turned off: the fediverse routes answer 404 and the pages are HTML again', async () => {
    await t.http.put(api('/admin/federation')).set(admin.auth).send({ enabled: false }).expect(200);
    await t.http.get(`/.well-known/webfinger?resource=acct:${admin.slug}@${host}`).expect(404);
    await t.http.put(api('/admin/federation')).set(admin.auth).send({ enabled: true }).expect(200);
    await t.http.put(api('/admin/federation')).set(admin.auth).send({ enabled: 'yes' }).expect(400);
    await t.http.get(api('/admin/federation')).set(reader.auth).expect(403);
    await t.http.get(api('/admin/federation')).expect(401);
  });
});

import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getRepositoryToken } from '@nestjs/typeorm';
import sharp from 'sharp';
import { Thumbnail } from '../src/images/entities/thumbnail.entity';
import { ImageStorageService } from '../src/images/image-storage.service';
import { ImagesService } from '../src/images/images.service';
import { S3ImageStore } from '../src/images/storage/s3-image-store';
import { RoleName } from '../src/users/roles';
import { createTestApp, TestApp } from './helpers/app';
import { api, err } from './helpers/envelope';
import { S3TestServer, startS3Server } from './helpers/s3-server';
import { createUser, TestUser } from './helpers/users';

/**
 * Uploads with STORAGE=s3 against a real S3-compatible server (s3rver, from the npm registry):
 * avatars and thumbnails land in the bucket as WebP objects with their variants and the immutable
 * Cache-Control, the app serves them at the same /images/... paths (200, 304, HEAD, 404), deletes
 * remove every variant, a failed upload leaves no object, S3_PUBLIC_URL links images at the
 * bucket, and the sweep lists and deletes through the adapter.
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';
const png = (width: number, height: number, background = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
const binary = (req: ReturnType<TestApp['http']['get']>) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

describe('Image storage in an S3-compatible bucket (STORAGE=s3)', () => {
  let s3: S3TestServer;
  let t: TestApp;
  let author: TestUser;
  let reader: TestUser;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ env: s3.env });
    author = await createUser(t, [RoleName.AUTHOR]);
    reader = await createUser(t, [RoleName.USER]);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const uploadThumbnail = (bytes: Buffer) =>
    t.http.post('/images/thumbnail/upload').set(author.auth).attach('image', bytes, { filename: 'image.png', contentType: 'image/png' });
  const uploadAvatar = (bytes: Buffer, user = reader) =>
    t.http.post(api('/users/avatar')).set(user.auth).attach('file', bytes, { filename: 'me.png', contentType: 'image/png' });

  it('stores an avatar as one WebP object, serves it with the immutable cache, and deletes the replaced one', async () => {
    const first = await uploadAvatar(await png(900, 600)).expect(200);
    const url: string = first.body.data.avatarUrl;
    expect(url).toMatch(/^\/images\/avatars\/[0-9a-f]{32}\.webp$/);
    const key = url.slice(1);
    expect(await s3.keys('images/avatars/')).toEqual([key]);
    const stored = await s3.object(key);
    expect(stored).toMatchObject({ contentType: 'image/webp', cacheControl: IMMUTABLE });
    expect(await sharp(stored.body).metadata()).toMatchObject({ format: 'webp', width: 512, height: 512 });

    const served = await binary(t.http.get(url)).expect(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe(IMMUTABLE);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(served.body as Buffer, stored.body)).toBe(0);
    const etag = served.headers.etag;
    expect(etag).toBeTruthy();
    const again = await t.http.get(url).set('If-None-Match', etag).expect(304);
    expect(again.headers['cache-control']).toBe(IMMUTABLE);
    const head = await t.http.head(url).expect(200);
    expect(head.headers['content-length']).toBe(String(stored.body.length));

    const second = await uploadAvatar(await png(300, 300, '#aa0000')).expect(200);
    expect(await s3.keys('images/avatars/')).toEqual([second.body.data.avatarUrl.slice(1)]);
    await t.http.get(url).expect(404);

    await t.http.delete(api('/users/avatar')).set(reader.auth).expect(200);
    expect(await s3.keys('images/avatars/')).toEqual([]);
    await t.http.get(second.body.data.avatarUrl).expect(404);
  });

  it('stores a thumbnail with its variants, serves each, and a delete removes all of them', async () => {
    const res = await uploadThumbnail(await png(1700, 850)).expect(201);
    const { filename, url, variants } = res.body.data as { filename: string; url: string; variants: { width: number; url: string }[] };
    const key = filename.split('-')[0];
    expect(variants.map((v) => v.width)).toEqual([400, 800, 1600]);
    expect(await s3.keys(`images/thumbnails/${key}`)).toEqual(
      [
        `images/thumbnails/${key}-1600w.webp`,
        `images/thumbnails/${key}-1700x850.webp`,
        `images/thumbnails/${key}-400w.webp`,
        `images/thumbnails/${key}-800w.webp`,
      ].sort(),
    );
    for (const [u, width] of [[url, 1700], ...variants.map((v) => [v.url, v.width] as const)] as const) {
      const served = await binary(t.http.get(u)).expect(200);
      expect(served.headers['cache-control']).toBe(IMMUTABLE);
      expect((await sharp(served.body as Buffer).metadata()).width).toBe(width);
    }

    await t.http.delete(`/images/${filename}`).set(author.auth).expect(204);
    expect(await s3.keys(`images/thumbnails/${key}`)).toEqual([]);
    await t.http.get(url).expect(404);
    await t.http.get(variants[0].url).expect(404);
  });

  it('leaves no object behind when an upload fails: refused input, a PUT failing half-way, or the record failing', async () => {
    const before = await s3.keys();
    await uploadThumbnail(Buffer.from('not an image at all')).expect(400);
    await uploadAvatar(Buffer.from('not an image at all')).expect(400);
    expect(await s3.keys()).toEqual(before);

    // The server refuses the 800 px variant's PUT: the objects already written are deleted again.
    const store = t.app.get(ImageStorageService).store as S3ImageStore;
    const realSend = store.client.send.bind(store.client);
    const send = jest.spyOn(store.client, 'send').mockImplementation(((command: unknown) => {
      if (command instanceof PutObjectCommand && command.input.Key?.endsWith('-800w.webp'))
        return Promise.reject(new Error('simulated PUT failure'));
      return realSend(command as never);
    }) as never);
    try {
      const res = await uploadThumbnail(await png(1700, 850));
      expect(res.status).toBe(500);
      expect(res.body).toEqual(err(500, 'An unexpected error occurred'));
    } finally {
      send.mockRestore();
    }
    expect(await s3.keys()).toEqual(before);

    const repository = t.app.get(getRepositoryToken(Thumbnail));
    const insert = jest.spyOn(repository, 'insert').mockRejectedValueOnce(new Error('simulated failure after the objects were written'));
    try {
      expect((await uploadThumbnail(await png(1700, 850))).status).toBe(500);
    } finally {
      insert.mockRestore();
    }
    expect(await s3.keys()).toEqual(before);
  });

  it('the sweep lists the bucket through the adapter: objects without a row older than a day go, recorded ones stay', async () => {
    const kept = await uploadThumbnail(await png(800, 400)).expect(201);
    const strayKey = `images/thumbnails/${'e'.repeat(32)}-800x400.webp`;
    await s3.client.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: strayKey,
        Body: await sharp(await png(800, 400))
          .webp()
          .toBuffer(),
        ContentType: 'image/webp',
      }),
    );
    const images = t.app.get(ImagesService);
    expect((await images.sweepOrphans()).strayFiles).toEqual([]);
    expect(await s3.keys()).toContain(strayKey);

    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 25 * 3_600_000);
    try {
      expect((await images.sweepOrphans()).strayFiles).toEqual([strayKey.split('/').pop()]);
    } finally {
      clock.mockRestore();
    }
    expect(await s3.keys()).not.toContain(strayKey);
    expect(await s3.keys()).toContain(`images/thumbnails/${kept.body.data.filename}`);
  });

  describe('with S3_PUBLIC_URL', () => {
    let linked: TestApp;
    beforeAll(async () => {
      linked = await createTestApp({ env: { ...s3.env, S3_PUBLIC_URL: `${s3.publicUrl}/` } });
    });
    afterAll(async () => {
      await linked?.close();
    });

    it('links uploads at the bucket (readable there), still serves the app path, and deletes by the absolute URL', async () => {
      const user = await createUser(linked, [RoleName.AUTHOR]);
      const res = await linked.http
        .post(api('/users/avatar'))
        .set(user.auth)
        .attach('file', await png(600, 600), { filename: 'me.png', contentType: 'image/png' })
        .expect(200);
      const url: string = res.body.data.avatarUrl;
      expect(url).toMatch(new RegExp(`^${s3.publicUrl.replace(/[.]/g, '\\.')}/images/avatars/[0-9a-f]{32}\\.webp$`));
      const direct = await fetch(url);
      expect(direct.status).toBe(200);
      expect((await sharp(Buffer.from(await direct.arrayBuffer())).metadata()).width).toBe(512);
      await linked.http.get(url.slice(s3.publicUrl.length)).expect(200);
      // A plain-http bucket is allowed as an image source by the pages' Content-Security-Policy.
      const csp = String((await linked.http.get('/api/v1/health')).headers['content-security-policy']);
      expect(csp).toMatch(new RegExp(`img-src [^;]*${new URL(s3.publicUrl).origin.replace(/[.]/g, '\\.')}`));

      const thumb = await linked.http
        .post('/images/thumbnail/upload')
        .set(user.auth)
        .attach('image', await png(1700, 850), { filename: 'image.png', contentType: 'image/png' })
        .expect(201);
      expect(thumb.body.data.url.startsWith(`${s3.publicUrl}/images/thumbnails/`)).toBe(true);
      expect(thumb.body.data.srcset).toContain(`${s3.publicUrl}/images/thumbnails/`);
      expect((await fetch(thumb.body.data.variants[0].url)).status).toBe(200);

      await linked.http.delete(api('/users/avatar')).set(user.auth).expect(200);
      expect((await fetch(url)).status).toBe(404);
    });
  });
});

import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { DecodeQueue } from '../src/images/decode-queue';
import { RoleName } from '../src/users/roles';
import { api, err, tooMany, uid } from './helpers/envelope';
import { createTestApp, TestApp } from './helpers/app';
import { createUser, TestUser } from './helpers/users';

/**
 * Uploads under load: every upload endpoint (avatar, thumbnail, validation) streams
 * its file to a temporary file that is always removed; a body over 10 MB is 413 before it is read
 * whole (by its Content-Length, or cut off at the limit without one); a full decode queue is 503
 * with Retry-After; past the per-user upload limit 429; an upload cut short leaves no file and no row.
 */

const MAX = 10_485_760;
const MiB = 1024 * 1024;
const AVATAR_TOO_LARGE = 'File size cannot exceed 10MB';
const BUSY = 'Too many images are being processed right now. Please try again in a few seconds.';
const TOO_MANY = 'Too many uploads. Please wait before uploading another image.';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();

interface Endpoint {
  name: string;
  path: string;
  field: string;
  /** The 413 body: `bytes` is the request's Content-Length, undefined without one. */
  tooLarge: (bytes: number | undefined) => object;
}

const thumbnailTooLarge = (bytes: number | undefined) => {
  const message =
    bytes === undefined ? 'File size cannot exceed 10MB' : `File size (${(bytes / MiB).toFixed(2)} MB) exceeds the maximum limit of 10MB`;
  return err(413, message, { image: [message] });
};

const ENDPOINTS: Endpoint[] = [
  {
    name: 'avatar',
    path: api('/users/avatar'),
    field: 'file',
    tooLarge: () => err(413, AVATAR_TOO_LARGE),
  },
  {
    name: 'thumbnail',
    path: '/images/thumbnail/upload',
    field: 'image',
    tooLarge: thumbnailTooLarge,
  },
  {
    name: 'validate',
    path: '/images/validate',
    field: 'image',
    tooLarge: thumbnailTooLarge,
  },
];

function multipartFrame(field: string, filename = 'photo.png', type = 'image/png') {
  const boundary = `----inkwell${uid()}`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
  };
}

interface StreamedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { message?: string; [key: string]: unknown };
  /** Bytes of the body the client had written when the answer came. */
  written: number;
}

/**
 * A multipart upload over node:http that writes `fileBytes` of file data in 1 MiB chunks and then
 * waits WITHOUT ending the request: it resolves only when the server answers while the body is
 * still open, so a server that read the whole body first would never answer (the test times out).
 * With `contentLength`, that length is announced; without it the body is chunked.
 */
function answerBeforeBodyEnds(
  server: Server,
  path: string,
  headers: OutgoingHttpHeaders,
  field: string,
  fileBytes: number,
  contentLength?: number,
): Promise<StreamedAnswer> {
  const { port } = server.address() as AddressInfo;
  const frame = multipartFrame(field);
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: {
          ...headers,
          'content-type': frame.contentType,
          ...(contentLength === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(contentLength) }),
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
            written,
          });
          req.destroy();
        });
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(MiB, 0x41);
    const writeNext = (): void => {
      if (answered) return;
      if (written === 0) {
        written += frame.head.length;
        if (!req.write(frame.head)) return void req.once('drain', writeNext);
      }
      while (!answered && written - frame.head.length < fileBytes) {
        const piece = chunk.subarray(0, Math.min(MiB, fileBytes - (written - frame.head.length)));
        written += piece.length;
        if (!req.write(piece)) return void req.once('drain', writeNext);
      }
    };
    req.flushHeaders();
    writeNext();
  });
}

describe('Uploads: temporary files, 413, decode queue, upload limit', () => {
  let t: TestApp;
  let author: TestUser;
  const server = () => t.app.getHttpServer() as Server;
  const tempFiles = () => (existsSync(join(t.dataDir, 'upload-tmp')) ? readdirSync(join(t.dataDir, 'upload-tmp')) : []);
  const stored = (kind: 'avatars' | 'thumbnails') =>
    existsSync(join(t.dataDir, 'uploads', kind)) ? readdirSync(join(t.dataDir, 'uploads', kind)).sort() : [];
  const avatarOf = async (id: number) =>
    (
      (await t.app.get(DataSource).query('SELECT avatar FROM users WHERE id = $1', [id])) as {
        avatar: string | null;
      }[]
    )[0].avatar;
  const thumbnailRows = async (id: number) =>
    Number(
      ((await t.app.get(DataSource).query('SELECT count(*) FROM thumbnails WHERE owner_id = $1', [id])) as { count: string }[])[0].count,
    );

  /** Temporary files go once the response has ended; the 'close' handler runs just after the client has its answer. */
  async function noTempFilesLeft(): Promise<string[]> {
    for (let i = 0; i < 200 && tempFiles().length; i++) await new Promise((done) => setTimeout(done, 25));
    return tempFiles();
  }

  beforeAll(async () => {
    t = await createTestApp({
      env: { IMAGE_DECODE_CONCURRENCY: '1', IMAGE_DECODE_QUEUE: '0' },
    });
    // The raw node:http requests below need a port (supertest listens per request).
    await t.app.listen(0, '127.0.0.1');
    author = await createUser(t, [RoleName.AUTHOR]);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(ENDPOINTS)(
    '$name: a 10 MB + 1 byte file is 413 with the spec text, nothing stored',
    async ({ path, field, tooLarge }) => {
      const bytes = Buffer.alloc(MAX + 1);
      (await png(800, 400)).copy(bytes);
      const before = [stored('avatars'), stored('thumbnails')];
      const res = await t.http.post(path).set(author.auth).attach(field, bytes, {
        filename: 'big.png',
        contentType: 'image/png',
      });
      expect(res.status).toBe(413);
      // The whole body is a few hundred bytes over the file: still 10.00 MB in the thumbnail text.
      expect(res.body).toEqual(tooLarge(MAX + 1));
      expect([stored('avatars'), stored('thumbnails')]).toEqual(before);
      expect(await noTempFilesLeft()).toEqual([]);
    },
    60_000,
  );

  it.each(ENDPOINTS)(
    '$name: a Content-Length over 10 MB is 413 before the body is sent',
    async ({ path, field, tooLarge }) => {
      const length = 20 * MiB;
      const res = await answerBeforeBodyEnds(server(), path, author.auth, field, 0, length);
      expect(res.status).toBe(413);
      expect(res.body).toEqual(tooLarge(length));
      expect(res.written).toBeLessThan(1024);
      expect(await noTempFilesLeft()).toEqual([]);
    },
    60_000,
  );

  it.each(ENDPOINTS)(
    '$name: a body without a length is cut off at 10 MB: 413 while it is still arriving',
    async ({ path, field, tooLarge }) => {
      const before = [stored('avatars'), stored('thumbnails')];
      const res = await answerBeforeBodyEnds(server(), path, author.auth, field, 11 * MiB);
      expect(res.status).toBe(413);
      expect(res.body).toEqual(tooLarge(undefined));
      expect([stored('avatars'), stored('thumbnails')]).toEqual(before);
      expect(await noTempFilesLeft()).toEqual([]);
    },
    60_000,
  );

  it('a successful upload leaves no temporary file; the type error is the spec text', async () => {
    const user = await createUser(t);
    await t.http
      .post(api('/users/avatar'))
      .set(user.auth)
      .attach('file', await png(64, 64), 'a.png')
      .expect(200);
    const thumb = await t.http
      .post('/images/thumbnail/upload')
      .set(author.auth)
      .attach('image', await png(800, 400), 'a.png')
      .expect(201);
    expect(thumb.body.data.filename).toMatch(/^[0-9a-f]{32}-800x400\.webp$/);
    const text = await t.http.post('/images/thumbnail/upload').set(author.auth).attach('image', Buffer.from('not an image'), {
      filename: 'a.png',
      contentType: 'image/png',
    });
    const typeError = 'Please select a valid image file (JPG, PNG, WEBP, GIF)';
    expect(text.body).toEqual(err(400, typeError, { image: [typeError] }));
    expect(await noTempFilesLeft()).toEqual([]);
  }, 60_000);

  it('a full decode queue answers 503 with Retry-After without storing the body, and takes uploads again once free', async () => {
    const user = await createUser(t, [RoleName.AUTHOR]);
    const image = await png(64, 64);
    let release: () => void = () => undefined;
    // The one decode slot (IMAGE_DECODE_CONCURRENCY=1, IMAGE_DECODE_QUEUE=0) is held until released.
    const holding = t.app.get(DecodeQueue).run(() => new Promise<void>((done) => (release = done)));
    try {
      for (const { path, field } of ENDPOINTS) {
        const res = await t.http.post(path).set(user.auth).attach(field, image, 'a.png');
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
        expect(res.body).toEqual(err(503, BUSY));
      }
    } finally {
      release();
      await holding;
    }
    expect(await avatarOf(user.id)).toBeNull();
    expect(await noTempFilesLeft()).toEqual([]);
    const res = await t.http.post(api('/users/avatar')).set(user.auth).attach('file', image, 'a.png').expect(200);
    expect(await avatarOf(user.id)).toBe(res.body.data.avatarUrl);
  }, 60_000);

  it('an upload cut short by the client leaves no temporary file, no stored file and no row', async () => {
    const user = await createUser(t, [RoleName.AUTHOR]);
    const before = [stored('avatars'), stored('thumbnails')];
    for (const { path, field } of ENDPOINTS.filter((e) => e.name !== 'validate')) {
      const { port } = server().address() as AddressInfo;
      const frame = multipartFrame(field);
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: {
          ...user.auth,
          'content-type': frame.contentType,
          'content-length': String(5 * MiB),
        },
      });
      const failed = new Promise((done) => req.on('error', done));
      req.write(frame.head);
      req.write(Buffer.alloc(2 * MiB, 0x42));
      // Abort once the server is writing the file (a temporary file exists).
      for (let i = 0; i < 400 && !tempFiles().length; i++) await new Promise((done) => setTimeout(done, 25));
      expect(tempFiles().length).toBe(1);
      req.destroy();
      await failed;
      expect(await noTempFilesLeft()).toEqual([]);
    }
    expect([stored('avatars'), stored('thumbnails')]).toEqual(before);
    expect(await avatarOf(user.id)).toBeNull();
    expect(await thumbnailRows(user.id)).toBe(0);
  }, 60_000);
});

describe('Uploads: the per-user limit (UPLOAD_LIMIT)', () => {
  let t: TestApp;
  /** Every user of this app (its DATA_DIR holds their avatars; the database is shared with other suites). */
  const users: TestUser[] = [];

  beforeAll(async () => {
    t = await createTestApp({ throttle: true, env: { UPLOAD_LIMIT: '3/60m' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 429 with Retry-After past the limit, counted per user across endpoints, without storing the body', async () => {
    const author = await createUser(t, [RoleName.AUTHOR]);
    const other = await createUser(t);
    users.push(author, other);
    const image = await png(64, 64);
    await t.http.post(api('/users/avatar')).set(author.auth).attach('file', image, 'a.png').expect(200);
    await t.http
      .post('/images/thumbnail/upload')
      .set(author.auth)
      .attach('image', await png(800, 400), 'a.png')
      .expect(201);
    await t.http.post(api('/users/avatar')).set(author.auth).attach('file', image, 'a.png').expect(200);
    const avatar = (await t.app.get(DataSource).query('SELECT avatar FROM users WHERE id = $1', [author.id]))[0].avatar;
    for (const [path, field] of [
      [api('/users/avatar'), 'file'],
      ['/images/thumbnail/upload', 'image'],
    ]) {
      const res = await t.http.post(path).set(author.auth).attach(field, image, 'a.png');
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body).toEqual(tooMany(TOO_MANY, res.headers['retry-after']));
    }
    expect((await t.app.get(DataSource).query('SELECT avatar FROM users WHERE id = $1', [author.id]))[0].avatar).toBe(avatar);
    // Another user has their own count.
    await t.http.post(api('/users/avatar')).set(other.auth).attach('file', image, 'a.png').expect(200);
  }, 60_000);

  it("parallel avatar uploads of one user: each removes the file it replaced, so every stored avatar is a row's", async () => {
    const user = await createUser(t);
    const answers = await Promise.all(
      [1, 2, 3].map(
        async (n) =>
          (
            await t.http
              .post(api('/users/avatar'))
              .set(user.auth)
              .attach('file', await png(64 + n, 64), 'a.png')
          ).status,
      ),
    );
    expect(answers).toEqual([200, 200, 200]);
    const rows = (await t.app
      .get(DataSource)
      .query(`SELECT avatar FROM users WHERE id = ANY($1::int[]) AND avatar IS NOT NULL`, [[...users, user].map((u) => u.id)])) as {
      avatar: string;
    }[];
    const dir = join(t.dataDir, 'uploads', 'avatars');
    expect(readdirSync(dir).sort()).toEqual(rows.map((row) => row.avatar.split('/').pop()).sort());
  }, 60_000);
});

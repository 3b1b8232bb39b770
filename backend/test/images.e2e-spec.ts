import { getRepositoryToken } from '@nestjs/typeorm';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { thumbnailSrcset } from '../../isomorphic/thumbnail-srcset';
import { AuthMessages } from '../src/auth/auth.messages';
import { Thumbnail } from '../src/images/entities/thumbnail.entity';
import { ImageStorageService } from '../src/images/image-storage.service';
import { ImagesService } from '../src/images/images.service';
import { RoleName } from '../src/users/roles';
import { api, err, ok, uid } from './helpers/envelope';
import { createTestApp, TestApp } from './helpers/app';
import { createUser, TestUser } from './helpers/users';

/**
 * The images API on the host root (docs/requirements.md#validation-image-upload, docs/requirements.md#api-images, docs/requirements.md#errors-upload, docs/requirements.md#constants-images, docs/requirements.md#decision-images),
 * with real images made by sharp: what is accepted, what is refused and with which words, that a
 * refusal never leaves a file behind, the stored WebP and its variants, ownership on delete, and
 * the sweep of thumbnails no post uses.
 */

type Format = 'jpeg' | 'png' | 'webp' | 'gif';
const RATIO_WARNING = 'Recommended size is 800x400px for optimal display';
const TYPE_ERROR = 'Please select a valid image file (JPG, PNG, WEBP, GIF)';
const LOAD_ERROR = 'Failed to load image for validation';
const NAME = /^[0-9a-f]{32}-\d+x\d+\.webp$/;

const image = (format: Format, width: number, height: number, background = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background } })
    .toFormat(format)
    .toBuffer();

/** A valid PNG of width x height, one bit per pixel, all zeros: a few KB that decode to width*height bytes. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth 1, greyscale, deflate, no filter, no interlace
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const binary = (req: ReturnType<TestApp['http']['get']>) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

describe('Images API (/images on the host root)', () => {
  let t: TestApp;
  let author: TestUser;
  let otherAuthor: TestUser;
  let reader: TestUser;
  let admin: TestUser;
  const thumbDir = () => join(t.dataDir, 'uploads', 'thumbnails');
  const files = () => (existsSync(thumbDir()) ? readdirSync(thumbDir()).sort() : []);
  const rowsOf = async (ownerId: number) =>
    Number((await t.app.get(DataSource).query('SELECT count(*) FROM thumbnails WHERE owner_id = $1', [ownerId]))[0].count);

  beforeAll(async () => {
    t = await createTestApp();
    author = await createUser(t, [RoleName.AUTHOR]);
    otherAuthor = await createUser(t, [RoleName.AUTHOR]);
    reader = await createUser(t, [RoleName.USER]);
    admin = await createUser(t, [RoleName.ADMIN]);
    // Files outside the thumbnails folder that nothing may ever touch.
    mkdirSync(join(t.dataDir, 'uploads', 'avatars'), { recursive: true });
    writeFileSync(join(t.dataDir, 'keep.txt'), 'keep');
    writeFileSync(join(t.dataDir, 'uploads', 'avatars', `${'a'.repeat(32)}.webp`), 'keep');
  });
  afterAll(async () => {
    expect(existsSync(join(t.dataDir, 'keep.txt'))).toBe(true);
    expect(existsSync(join(t.dataDir, 'uploads', 'avatars', `${'a'.repeat(32)}.webp`))).toBe(true);
    await t.close();
  });

  const validate = (bytes: Buffer, filename = 'image.png', contentType = 'image/png') =>
    t.http.post('/images/validate').attach('image', bytes, { filename, contentType });
  const upload = (bytes: Buffer, user: TestUser = author, filename = 'image.png', contentType = 'image/png') =>
    t.http.post('/images/thumbnail/upload').set(user.auth).attach('image', bytes, { filename, contentType });

  describe('GET /images/upload-info', () => {
    it('answers the spec limits, to anyone', async () => {
      const res = await t.http.get('/images/upload-info').expect(200);
      expect(res.body).toEqual(
        ok(
          {
            maxSize: 10485760,
            allowedFormats: ['jpeg', 'jpg', 'png', 'webp', 'gif'],
            recommendedDimensions: { width: 800, height: 400 },
            maxDimensions: { width: 2048, height: 2048 },
          },
          'Upload requirements',
        ),
      );
      await t.http.get(api('/images/upload-info')).expect(404);
    });
  });

  describe('refused files: 400 with the spec words, never 5xx, nothing stored', () => {
    // Files over 10 MB are 413: backend/test/uploads.e2e-spec.ts.
    const refusals: [string, () => Promise<{ bytes: Buffer; filename: string; contentType: string }>, string[] | RegExp][] = [
      [
        'text renamed .png',
        async () => ({ bytes: Buffer.from('just some text, not an image at all'), filename: 'photo.png', contentType: 'image/png' }),
        [TYPE_ERROR],
      ],
      [
        '0 bytes',
        async () => ({ bytes: Buffer.alloc(0), filename: 'empty.png', contentType: 'image/png' }),
        ['Selected file is empty. Please choose a valid image file'],
      ],
      [
        '5000x5000 JPEG',
        async () => ({ bytes: await image('jpeg', 5000, 5000), filename: 'wide.jpg', contentType: 'image/jpeg' }),
        [
          'Invalid image dimensions: 5000x5000px exceeds the maximum of 2048x2048px',
          'Image dimensions 5000x5000px are too different from recommended 800x400px',
        ],
      ],
      [
        '20000x20000 PNG bomb',
        async () => ({ bytes: pngBomb(20000, 20000), filename: 'bomb.png', contentType: 'image/png' }),
        [
          'Invalid image dimensions: 20000x20000px exceeds the maximum of 2048x2048px',
          'Image dimensions 20000x20000px are too different from recommended 800x400px',
        ],
      ],
      [
        'truncated JPEG',
        async () => {
          const jpeg = await sharp({
            create: { width: 800, height: 400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
          })
            .jpeg()
            .toBuffer();
          return { bytes: jpeg.subarray(0, Math.floor(jpeg.length / 2)), filename: 'cut.jpg', contentType: 'image/jpeg' };
        },
        [LOAD_ERROR],
      ],
      [
        'PNG header over garbage pixels',
        async () => {
          const png = await image('png', 800, 400);
          const bytes = Buffer.from(png);
          bytes.fill(0x5a, 41, bytes.length - 12); // IHDR intact, IDAT contents scrambled
          return { bytes, filename: 'liar.png', contentType: 'image/png' };
        },
        [LOAD_ERROR],
      ],
      [
        'SVG with a script',
        async () => ({
          bytes: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><script>alert(document.cookie)</script><rect width="800" height="400"/></svg>',
          ),
          filename: 'x.svg',
          contentType: 'image/svg+xml',
        }),
        [TYPE_ERROR],
      ],
      [
        'HTML named .jpg',
        async () => ({ bytes: Buffer.from('<!DOCTYPE html><script>alert(1)</script>'), filename: 'x.jpg', contentType: 'image/jpeg' }),
        [TYPE_ERROR],
      ],
      [
        'a TIFF (decodable, not an allowed format)',
        async () => ({ bytes: await image('tiff' as Format, 800, 400), filename: 'x.png', contentType: 'image/png' }),
        [TYPE_ERROR],
      ],
      [
        '100x1000 (ratio outside 0.5-3)',
        async () => ({ bytes: await image('png', 100, 1000), filename: 'tall.png', contentType: 'image/png' }),
        ['Image dimensions 100x1000px are too different from recommended 800x400px'],
      ],
      [
        '399x200 (just under half)',
        async () => ({ bytes: await image('webp', 399, 200), filename: 'small.webp', contentType: 'image/webp' }),
        ['Image dimensions 399x200px are too different from recommended 800x400px'],
      ],
    ];

    it.each(refusals)(
      '%s: validate and upload both refuse it',
      async (_name, make, reasons) => {
        const { bytes, filename, contentType } = await make();
        const before = files();
        const rows = await rowsOf(author.id);
        for (const res of [await validate(bytes, filename, contentType), await upload(bytes, author, filename, contentType)]) {
          expect(res.status).toBe(400);
          if (reasons instanceof RegExp) {
            expect(res.body).toEqual(err(400, expect.stringMatching(reasons), { image: [expect.stringMatching(reasons)] }));
          } else {
            expect(res.body).toEqual(err(400, reasons[0], { image: reasons }));
          }
        }
        expect(files()).toEqual(before);
        expect(await rowsOf(author.id)).toBe(rows);
      },
      60_000,
    );

    it('no file under `image` (another field, no body, JSON, two files): 400 Please select a valid file', async () => {
      const png = await image('png', 800, 400);
      const required = err(400, 'Please select a valid file', { image: ['Please select a valid file'] });
      const before = files();
      for (const path of ['/images/validate', '/images/thumbnail/upload']) {
        const auth = path.includes('upload') ? author.auth : {};
        expect((await t.http.post(path).set(auth).attach('file', png, 'a.png')).body).toEqual(required);
        expect((await t.http.post(path).set(auth).field('image', 'not a file')).body).toEqual(required);
        expect((await t.http.post(path).set(auth)).body).toEqual(required);
        expect((await t.http.post(path).set(auth).send({ image: 'data:image/png;base64,AAAA' })).body).toEqual(required);
        expect((await t.http.post(path).set(auth).attach('image', png, 'a.png').attach('image', png, 'b.png')).body).toEqual(required);
      }
      expect(files()).toEqual(before);
    });
  });

  describe('POST /images/validate', () => {
    it('measures JPEG, PNG, WebP and GIF by their bytes, whatever the name and type say', async () => {
      const cases: [Format, number, number, string[]][] = [
        ['jpeg', 800, 400, []],
        ['png', 1200, 600, [RATIO_WARNING]],
        ['webp', 600, 300, []],
        ['gif', 1040, 520, []],
      ];
      for (const [format, width, height, warnings] of cases) {
        const bytes = await image(format, width, height);
        const res = await validate(bytes, 'misnamed.txt', 'text/plain').expect(200);
        expect(res.body).toEqual(ok({ width, height, format, size: bytes.length, warnings }, 'Image is valid'));
      }
    });

    it('applies the EXIF orientation before measuring (400x800 turned a quarter is 800x400)', async () => {
      const turned = await sharp({ create: { width: 400, height: 800, channels: 3, background: '#0a0' } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer();
      const res = await validate(turned, 'phone.jpg', 'image/jpeg').expect(200);
      expect(res.body.data).toEqual({ width: 800, height: 400, format: 'jpeg', size: turned.length, warnings: [] });
    });

    it('needs no session, and a session cookie without X-Request-Timestamp does not matter', async () => {
      await validate(await image('png', 800, 400))
        .set('Cookie', `inkwell_access=${reader.token}`)
        .expect(200);
    });
  });

  describe('POST /images/thumbnail/upload', () => {
    it('401 without a session, 403 for a USER, CSRF header for cookie sessions', async () => {
      const png = await image('png', 800, 400);
      const before = files();
      expect((await t.http.post('/images/thumbnail/upload').attach('image', png, 'a.png')).body).toEqual(
        err(401, 'Authentication required. Please log in to upload images.'),
      );
      expect((await upload(png, reader)).body).toEqual(err(403, 'You do not have permission to upload images.'));
      const cookie = `inkwell_access=${author.token}`;
      expect((await t.http.post('/images/thumbnail/upload').set('Cookie', cookie).attach('image', png, 'a.png')).body).toEqual(
        err(403, AuthMessages.CSRF),
      );
      expect(files()).toEqual(before);
      await t.http
        .post('/images/thumbnail/upload')
        .set('Cookie', cookie)
        .set('X-Request-Timestamp', String(Date.now()))
        .attach('image', png, 'a.png')
        .expect(201);
      await upload(png, admin).expect(201);
    });

    it('stores a clean WebP and 400/800/1600 variants with random names, served with a year of immutable cache', async () => {
      const photo = await sharp({
        create: { width: 2048, height: 1024, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 120, sigma: 50 } },
      })
        .jpeg()
        .withMetadata({ orientation: 1, exif: { IFD0: { Copyright: 'secret-camera-owner', Artist: 'someone' } } })
        .toBuffer();
      expect((await sharp(photo).metadata()).exif).toBeDefined();
      const before = files();
      const res = await upload(photo, author, 'holiday.jpg', 'image/jpeg').expect(201);
      const { url, filename } = res.body.data as { url: string; filename: string };
      expect(filename).toMatch(NAME);
      const key = filename.slice(0, 32);
      const at = (suffix: string) => `/images/thumbnails/${key}-${suffix}.webp`;
      expect(res.body).toEqual(
        ok(
          {
            url: at('2048x1024'),
            imageUrl: at('2048x1024'),
            filename: `${key}-2048x1024.webp`,
            width: 2048,
            height: 1024,
            variants: [400, 800, 1600].map((width) => ({ width, url: at(`${width}w`) })),
            srcset: `${at('400w')} 400w, ${at('800w')} 800w, ${at('1600w')} 1600w, ${at('2048x1024')} 2048w`,
            warnings: [RATIO_WARNING],
          },
          'Thumbnail uploaded successfully!',
          201,
        ),
      );
      expect(files()).toEqual([...before, `${key}-1600w.webp`, `${key}-2048x1024.webp`, `${key}-400w.webp`, `${key}-800w.webp`].sort());

      for (const [path, width, height] of [
        [url, 2048, 1024],
        [at('400w'), 400, 200],
        [at('800w'), 800, 400],
        [at('1600w'), 1600, 800],
      ] as const) {
        const served = await binary(t.http.get(path)).expect(200);
        expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(served.headers['content-type']).toBe('image/webp');
        const meta = await sharp(served.body as Buffer).metadata();
        expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif, icc: meta.icc }).toEqual({
          format: 'webp',
          width,
          height,
          exif: undefined,
          icc: undefined,
        });
        expect((served.body as Buffer).includes('secret-camera-owner')).toBe(false);
      }

      // The frontend derives the same srcset from the URL alone, and it names exactly the stored files.
      const derived = thumbnailSrcset(url, 'card');
      expect(derived).toEqual({ src: url, srcset: res.body.data.srcset, sizes: expect.any(String), width: 2048, height: 1024 });
      const named = derived.srcset!.split(', ').map((candidate) => candidate.split(' ')[0].split('/').pop());
      expect(named.sort()).toEqual(files().filter((name) => name.startsWith(key)));

      const [row] = await t.app
        .get(DataSource)
        .query('SELECT owner_id, width, height, variant_widths, created_at FROM thumbnails WHERE name = $1', [filename]);
      expect(row).toEqual({
        owner_id: author.id,
        width: 2048,
        height: 1024,
        variant_widths: [400, 800, 1600],
        created_at: expect.any(Date),
      });
    });

    it('never upscales: an 800x400 image gets only the 400 variant; 400x200 none', async () => {
      const res = await upload(await image('webp', 800, 400), author, 'a.webp', 'image/webp').expect(201);
      const key = (res.body.data.filename as string).slice(0, 32);
      expect(res.body.data).toMatchObject({
        width: 800,
        height: 400,
        variants: [{ width: 400, url: `/images/thumbnails/${key}-400w.webp` }],
        warnings: [],
      });
      expect(res.body.data.srcset).toBe(`/images/thumbnails/${key}-400w.webp 400w, /images/thumbnails/${key}-800x400.webp 800w`);
      expect(thumbnailSrcset(res.body.data.url).srcset).toBe(res.body.data.srcset);

      const small = await upload(await image('png', 400, 200), author).expect(201);
      expect(small.body.data).toMatchObject({ width: 400, height: 200, variants: [], warnings: [RATIO_WARNING] });
      expect(small.body.data.srcset).toBe(`${small.body.data.url} 400w`);
      expect(files().filter((name) => name.startsWith((small.body.data.filename as string).slice(0, 32)))).toEqual([
        small.body.data.filename,
      ]);
    });

    it('stores an animated GIF as its first frame, with a warning', async () => {
      const frame = (background: string) =>
        sharp({ create: { width: 800, height: 400, channels: 4, background } })
          .png()
          .toBuffer();
      const animated = await sharp([await frame('#ff0000'), await frame('#0000ff')], { join: { animated: true } })
        .gif()
        .toBuffer();
      expect((await sharp(animated).metadata()).pages).toBe(2);
      expect((await validate(animated, 'a.gif', 'image/gif').expect(200)).body.data).toEqual({
        width: 800,
        height: 400,
        format: 'gif',
        size: animated.length,
        warnings: ['Animated images are stored as their first frame'],
      });
      const res = await upload(animated, author, 'a.gif', 'image/gif').expect(201);
      expect(res.body.data.warnings).toEqual(['Animated images are stored as their first frame']);
      const stored = (await binary(t.http.get(res.body.data.url)).expect(200)).body as Buffer;
      const meta = await sharp(stored).metadata();
      expect({ pages: meta.pages ?? 1, width: meta.width, height: meta.height }).toEqual({ pages: 1, width: 800, height: 400 });
      const { dominant } = await sharp(stored).stats();
      expect(dominant.r).toBeGreaterThan(200);
      expect(dominant.b).toBeLessThan(50);
    });

    it('stores the EXIF-rotated image upright (800x400)', async () => {
      const turned = await sharp({ create: { width: 400, height: 800, channels: 3, background: '#0a0' } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer();
      const res = await upload(turned, author, 'phone.jpg', 'image/jpeg').expect(201);
      expect(res.body.data).toMatchObject({ width: 800, height: 400, warnings: [] });
      const meta = await sharp((await binary(t.http.get(res.body.data.url)).expect(200)).body as Buffer).metadata();
      expect({ width: meta.width, height: meta.height, orientation: meta.orientation }).toEqual({
        width: 800,
        height: 400,
        orientation: undefined,
      });
    });

    it('leaves no file when writing fails half-way, and none when recording fails after the write', async () => {
      const storage = t.app.get(ImageStorageService);
      const key = 'f'.repeat(32);
      // The second file cannot take its name (a folder is in the way): the first one is removed again.
      mkdirSync(join(thumbDir(), `${key}-400w.webp`));
      const before = files();
      await expect(
        storage.writeAll('thumbnails', [
          { name: `${key}-800x400.webp`, data: Buffer.from('a') },
          { name: `${key}-400w.webp`, data: Buffer.from('b') },
        ]),
      ).rejects.toThrow();
      expect(files()).toEqual(before);
      await expect(storage.writeAll('thumbnails', [{ name: '../escape.webp', data: Buffer.from('x') }])).rejects.toThrow(/not a stored/);
      expect(existsSync(join(t.dataDir, 'uploads', 'escape.webp'))).toBe(false);

      const repository = t.app.get(getRepositoryToken(Thumbnail));
      const insert = jest.spyOn(repository, 'insert').mockRejectedValueOnce(new Error('simulated failure after the files were written'));
      try {
        const res = await upload(await image('png', 1700, 850), author);
        expect(res.status).toBe(500);
        expect(res.body).toEqual(err(500, 'An unexpected error occurred'));
      } finally {
        insert.mockRestore();
      }
      expect(files()).toEqual(before);
    });
  });

  describe('DELETE /images/{filename}', () => {
    const del = (name: string, user?: TestUser) => {
      const req = t.http.delete(`/images/${name}`);
      return user ? req.set(user.auth) : req;
    };
    const filesOf = (filename: string) => files().filter((name) => name.startsWith(filename.slice(0, 32)));

    it('owner: 204 and every variant gone; others 401/403 and nothing touched; again 404', async () => {
      const res = await upload(await image('jpeg', 1800, 900), author, 'a.jpg', 'image/jpeg').expect(201);
      const { filename, url } = res.body.data as { filename: string; url: string };
      expect(filesOf(filename)).toHaveLength(4);

      expect((await del(filename)).body).toEqual(err(401, 'Authentication required. Please log in to delete images.'));
      expect((await del(filename, otherAuthor)).body).toEqual(err(403, 'You do not have permission to delete this image.'));
      expect((await del(filename, reader)).body).toEqual(err(403, 'You do not have permission to delete this image.'));
      expect(filesOf(filename)).toHaveLength(4);

      await del(filename, author).expect(204, '');
      expect(filesOf(filename)).toEqual([]);
      expect(await t.app.get(DataSource).query('SELECT id FROM thumbnails WHERE name = $1', [filename])).toEqual([]);
      await t.http.get(url).expect(404);
      expect((await del(filename, author)).body).toEqual(err(404, 'Image not found.'));
    });

    it("an ADMIN deletes anyone's thumbnail", async () => {
      const res = await upload(await image('png', 900, 450), otherAuthor).expect(201);
      await del(res.body.data.filename, admin).expect(204);
      expect(filesOf(res.body.data.filename)).toEqual([]);
    });

    it('refuses names that are not thumbnails (traversal, absolute, avatars, variants) and never touches anything else', async () => {
      const res = await upload(await image('png', 800, 400), author).expect(201);
      const { filename } = res.body.data as { filename: string };
      const key = filename.slice(0, 32);
      // A file with a thumbnail name but no record (not ours to delete through the API).
      const unrecorded = `${'e'.repeat(32)}-800x400.webp`;
      writeFileSync(join(thumbDir(), unrecorded), 'x');
      const before = files();
      const invalid = err(400, 'Invalid image file name.');
      for (const name of [
        '..%2F..%2Fkeep.txt',
        '%2e%2e',
        '%2e%2e%2f%2e%2e%2fkeep.txt',
        '..%5C..%5Ckeep.txt',
        '%2Fetc%2Fpasswd',
        encodeURIComponent(join(thumbDir(), filename)),
        `${'a'.repeat(32)}.webp`,
        `${key}-400w.webp`,
        `${key}-800x400.webp%00`,
        `${key}-800x400.WEBP`,
        `..%2F${filename}`,
        `${filename}%2F..`,
      ]) {
        const answer = await del(name, admin);
        expect({ name, status: answer.status, body: answer.body }).toEqual({
          name,
          status: 400,
          body: name.includes('%00') ? expect.objectContaining({ status: 400 }) : invalid,
        });
      }
      for (const path of [
        '/images/../keep.txt',
        '/images/..',
        `/images/thumbnails/${filename}`,
        `/images/avatars/${'a'.repeat(32)}.webp`,
      ]) {
        const answer = await t.http.delete(path).set(admin.auth);
        expect({ path, refused: [400, 404].includes(answer.status) }).toEqual({ path, refused: true });
      }
      expect((await del(unrecorded, admin)).body).toEqual(err(404, 'Image not found.'));
      expect(files()).toEqual(before);
    });

    it('409 while a post shows the thumbnail; deletable once the post no longer does', async () => {
      const res = await upload(await image('png', 1000, 500), author).expect(201);
      const { filename, url } = res.body.data as { filename: string; url: string };
      const post = await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: `Thumb ${uid()}`, content: 'Body', thumbnail: url })
        .expect(201);
      expect((await del(filename, author)).body).toEqual(err(409, 'This image is the thumbnail of a post. Remove it from the post first.'));
      expect((await del(filename, admin)).status).toBe(409);
      expect(filesOf(filename)).toHaveLength(3);
      await t.http
        .put(api(`/blog/posts/author/${post.body.data.id}`))
        .set(author.auth)
        .send({ thumbnail: null })
        .expect(200);
      await del(filename, author).expect(204);
      expect(filesOf(filename)).toEqual([]);
    });
  });

  describe('sweep of thumbnails no post uses', () => {
    it('removes those older than a day that no post names, files without a record and old temporary files; keeps the rest', async () => {
      const dataSource = t.app.get(DataSource);
      const uploaded = async () =>
        (await upload(await image('png', 1000, 500), author).expect(201)).body.data as { filename: string; url: string };
      const orphan = await uploaded();
      const usedByPath = await uploaded();
      const usedByAbsoluteUrl = await uploaded();
      const young = await uploaded();
      await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: `Sweep ${uid()}`, content: 'Body', thumbnail: usedByPath.url })
        .expect(201);
      const second = await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: `Sweep ${uid()}`, content: 'Body', thumbnail: `http://localhost:3000${usedByAbsoluteUrl.url}` })
        .expect(201);
      await dataSource.query(`UPDATE thumbnails SET created_at = now() - interval '25 hours' WHERE name = ANY($1)`, [
        [orphan.filename, usedByPath.filename, usedByAbsoluteUrl.filename],
      ]);

      const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000);
      const strayOld = `${'d'.repeat(32)}-800w.webp`;
      const strayYoung = `${'c'.repeat(32)}-800x400.webp`;
      const tempOld = `.tmp-0123456789abcdef-${'b'.repeat(32)}-800x400.webp`;
      const tempYoung = `.tmp-fedcba9876543210-${'b'.repeat(32)}-400w.webp`;
      for (const name of [strayOld, strayYoung, tempOld, tempYoung]) writeFileSync(join(thumbDir(), name), 'x');
      utimesSync(join(thumbDir(), strayOld), twoDaysAgo, twoDaysAgo);
      utimesSync(join(thumbDir(), tempOld), twoDaysAgo, twoDaysAgo);
      // A file of a recorded thumbnail is never a stray, however old.
      utimesSync(join(thumbDir(), young.filename), twoDaysAgo, twoDaysAgo);

      const result = await t.app.get(ImagesService).sweepOrphans();
      expect(result).toEqual({ thumbnails: [orphan.filename], strayFiles: [strayOld] });
      const left = files();
      expect(left.filter((name) => name.startsWith(orphan.filename.slice(0, 32)))).toEqual([]);
      for (const kept of [usedByPath, usedByAbsoluteUrl, young]) expect(left).toContain(kept.filename);
      expect(left).toEqual(expect.arrayContaining([strayYoung, tempYoung]));
      expect(left).not.toContain(strayOld);
      expect(left).not.toContain(tempOld);
      expect(await dataSource.query('SELECT name FROM thumbnails WHERE name = $1', [orphan.filename])).toEqual([]);

      // Once the post moves to another image, the old one goes at the next sweep.
      await t.http
        .put(api(`/blog/posts/author/${second.body.data.id}`))
        .set(author.auth)
        .send({ thumbnail: 'https://example.com/elsewhere.png' })
        .expect(200);
      expect((await t.app.get(ImagesService).sweepOrphans()).thumbnails).toEqual([usedByAbsoluteUrl.filename]);
      expect(files().filter((name) => name.startsWith(usedByAbsoluteUrl.filename.slice(0, 32)))).toEqual([]);
      expect(files()).toContain(usedByPath.filename);
    });
  });

  describe('frontend helper thumbnailSrcset', () => {
    it('falls back to just src for foreign and older URLs', () => {
      for (const url of [
        'https://cdn.example.com/a.jpg',
        '/images/thumbnails/0123456789abcdef0123456789abcdef.webp',
        '/images/avatars/0123456789abcdef0123456789abcdef.webp',
        '/images/thumbnails/../x-800x400.webp',
        'javascript:alert(1)',
      ]) {
        expect(thumbnailSrcset(url)).toEqual({ src: url });
      }
      expect(thumbnailSrcset('https://blog.example/images/thumbnails/0123456789abcdef0123456789abcdef-1700x850.webp', 'post')).toEqual({
        src: 'https://blog.example/images/thumbnails/0123456789abcdef0123456789abcdef-1700x850.webp',
        srcset:
          'https://blog.example/images/thumbnails/0123456789abcdef0123456789abcdef-400w.webp 400w, https://blog.example/images/thumbnails/0123456789abcdef0123456789abcdef-800w.webp 800w, https://blog.example/images/thumbnails/0123456789abcdef0123456789abcdef-1600w.webp 1600w, https://blog.example/images/thumbnails/0123456789abcdef0123456789abcdef-1700x850.webp 1700w',
        sizes: '(min-width: 800px) 736px, calc(100vw - 2rem)',
        width: 1700,
        height: 850,
      });
    });
  });
});

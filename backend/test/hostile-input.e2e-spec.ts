import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { DataSource } from 'typeorm';
import { MAX_JSON_DEPTH } from '../src/common/request-limits';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, uid } from './helpers/envelope';
import { startMailCatcher, MailCatcher } from './helpers/mail';
import { createAdmin, createAuthor, TestUser } from './helpers/users';

const INVALID_REQUEST = 'Invalid request. Please check your input.';
const INVALID_ID = 'Invalid id: it must be a positive whole number.';
const PAGE_TOO_LARGE = 'page must not be greater than 1000000';
const nul = (field: string) => `${field} must not contain the NUL character (U+0000)`;
const surrogate = (field: string) => `${field} must be well-formed Unicode text (it contains a lone surrogate)`;
const fieldErr = (field: string, message: string) => err(400, message, { [field]: [message] });

/** Sends raw bytes on a fresh connection and answers the whole reply (the server closes it). */
function rawRequest(server: Server, bytes: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

/** Status line and JSON body of a raw reply. */
function parseRaw(reply: string): { statusLine: string; headers: string; body: unknown } {
  const split = reply.indexOf('\r\n\r\n');
  const head = reply.slice(0, split);
  return { statusLine: head.split('\r\n')[0], headers: head, body: JSON.parse(reply.slice(split + 4)) };
}

describe('Hostile input never gives a 500', () => {
  let t: TestApp;
  let db: DataSource;
  let mail: MailCatcher;
  let admin: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({ env: { SMTP_URL: mail.url } });
    db = t.app.get(DataSource);
    admin = await createAdmin(t);
    author = await createAuthor(t);
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  describe('page numbers and ids beyond range', () => {
    const huge = '99999999999999999999';

    it('refuses a page beyond 1,000,000 with a field error on page, on every paged list', async () => {
      const lists: [string, TestUser | null][] = [
        ['/blog/posts/public', null],
        ['/blog/tags', null],
        ['/blog/posts/public/tag/some-tag', null],
        ['/blog/posts/author/my-posts', author],
        ['/blog/posts/admin/all', admin],
        ['/blog/posts', admin],
      ];
      for (const [path, user] of lists) {
        for (const page of [huge, '1000001', '9007199254740993']) {
          const req = t.http.get(api(path)).query({ page });
          const res = await (user ? req.set(user.auth) : req);
          expect({ path, page, status: res.status, body: res.body }).toEqual({
            path,
            page,
            status: 400,
            body: fieldErr('page', PAGE_TOO_LARGE),
          });
        }
      }
    });

    it('answers the last allowed page (empty) and clamps a huge size', async () => {
      const last = await t.http.get(api('/blog/posts/public')).query({ page: '1000000', size: huge }).expect(200);
      expect(last.body.data).toMatchObject({ content: [], number: 1000000, size: 100, empty: true });
      const tags = await t.http.get(api('/blog/tags')).query({ page: '1000000', size: huge }).expect(200);
      expect(tags.body.data).toMatchObject({ content: [], number: 1000000, size: 1000 });
    });

    it('answers 400 for non-numeric pages (exponents, NaN, Infinity)', async () => {
      for (const page of ['1e309', 'NaN', 'Infinity', '1.5', '-1']) {
        const res = await t.http.get(api('/blog/posts/public')).query({ page }).expect(400);
        expect(res.body.errors).toHaveProperty('page');
      }
    });

    it('answers 400 for ids beyond a 32-bit integer and 404 for the largest one', async () => {
      for (const id of [huge, '2147483648', '9007199254740993', '1e309', 'NaN']) {
        expect((await t.http.get(api(`/blog/tags/${id}`)).expect(400)).body).toEqual(err(400, INVALID_ID));
        expect(
          (
            await t.http
              .get(api(`/blog/posts/${id}`))
              .set(admin.auth)
              .expect(400)
          ).body,
        ).toEqual(err(400, INVALID_ID));
      }
      expect((await t.http.get(api('/blog/tags/2147483647')).expect(404)).body.status).toBe(404);
    });
  });

  describe('NUL characters', () => {
    it('in a path parameter: 400 naming the parameter', async () => {
      expect((await t.http.get(api('/blog/posts/public/%00')).expect(400)).body).toEqual(fieldErr('slug', nul('slug')));
      expect((await t.http.get(api('/blog/posts/public/tag/a%00b')).expect(400)).body).toEqual(fieldErr('slug', nul('slug')));
    });

    it('in a query parameter: 400 naming the parameter', async () => {
      expect((await t.http.get(api('/blog/tags?search=%00')).expect(400)).body).toEqual(fieldErr('search', nul('search')));
      expect((await t.http.get(api('/auth/validate-reset-token?token=ab%00')).expect(400)).body).toEqual(fieldErr('token', nul('token')));
    });

    it('in the profile: 400 naming the field, the profile unchanged', async () => {
      await t.http.put(api('/users/profile')).set(author.auth).send({ bio: 'Before' }).expect(200);
      for (const body of [{ bio: '\u0000' }, { bio: 'ok', location: 'Hà\u0000Nội' }]) {
        const field = Object.keys(body).pop() as string;
        expect((await t.http.put(api('/users/profile')).set(author.auth).send(body).expect(400)).body).toEqual(fieldErr(field, nul(field)));
      }
      const profile = await t.http.get(api('/users/profile')).set(author.auth).expect(200);
      expect(profile.body.data).toMatchObject({ bio: 'Before', location: null });
    });

    it('in a tag: 400 naming the field, nothing created or changed', async () => {
      const name = `Hostile ${uid()}`;
      const created = await t.http.post(api('/blog/tags')).set(admin.auth).send({ name, description: 'Fine' }).expect(201);
      const id = created.body.data.id as number;
      expect(
        (
          await t.http
            .put(api(`/blog/tags/${id}`))
            .set(admin.auth)
            .send({ description: 'x\u0000y' })
            .expect(400)
        ).body,
      ).toEqual(fieldErr('description', nul('description')));
      expect((await t.http.get(api(`/blog/tags/${id}`)).expect(200)).body.data.description).toBe('Fine');
      const other = `Other\u0000${uid()}`;
      expect((await t.http.post(api('/blog/tags')).set(admin.auth).send({ name: other }).expect(400)).body).toEqual(
        fieldErr('name', nul('name')),
      );
      const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM tags WHERE name LIKE 'Other%'`);
      expect(count).toBe(0);
    });

    it('in nested values and keys: the field path is named', async () => {
      const res = await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: 'T', content: 'c', tagSlugs: ['ok', 'b\u0000d'] })
        .expect(400);
      expect(res.body).toEqual(fieldErr('tagSlugs.1', nul('tagSlugs.1')));
      const key = await t.http.put(api('/users/profile')).set(author.auth).send({ 'bi\u0000o': 'x' }).expect(400);
      expect(key.body).toEqual(fieldErr('bi\\u0000o', nul('bi\\u0000o')));
    });
  });

  describe('lone UTF-16 surrogates', () => {
    const email = 'a\ud800@x.com';

    it('in the e-mail of every auth call: 400 on email, nothing written or sent', async () => {
      const before = mail.messages.length;
      const calls: [string, Record<string, unknown>][] = [
        ['/auth/login', { email, password: 'Secret-123' }],
        ['/auth/register', { fullName: 'Lone Surrogate', email, password: 'Str0ng!Pass', confirmPassword: 'Str0ng!Pass' }],
        ['/auth/verify-email', { email, verificationCode: '123456' }],
        ['/auth/resend-verification', { email }],
        ['/auth/forgot-password', { email }],
      ];
      for (const [path, body] of calls) {
        const res = await t.http.post(api(path)).send(body);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: fieldErr('email', surrogate('email')) });
      }
      const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM users WHERE full_name = 'Lone Surrogate'`);
      expect(count).toBe(0);
      expect(mail.messages.length).toBe(before);
    });

    it('in a low surrogate alone and in the profile: 400, the profile unchanged', async () => {
      await t.http.put(api('/users/profile')).set(author.auth).send({ bio: 'Kept' }).expect(200);
      expect((await t.http.put(api('/users/profile')).set(author.auth).send({ bio: 'x\udc00' }).expect(400)).body).toEqual(
        fieldErr('bio', surrogate('bio')),
      );
      expect((await t.http.get(api('/users/profile')).set(author.auth).expect(200)).body.data.bio).toBe('Kept');
      // A surrogate pair (an emoji) is fine.
      expect((await t.http.put(api('/users/profile')).set(author.auth).send({ bio: 'Kept 😀' }).expect(200)).body.data.bio).toBe('Kept 😀');
    });

    it('as malformed %-encoding in a path or query: 400', async () => {
      expect((await t.http.get(api('/blog/posts/public/%ED%A0%80')).expect(400)).body).toEqual(err(400, INVALID_REQUEST));
      expect((await t.http.get(api('/blog/posts/public/%E0%A4%A')).expect(400)).body).toEqual(err(400, INVALID_REQUEST));
      // Node's query decoder turns invalid UTF-8 into U+FFFD, which is harmless text.
      expect((await t.http.get(api('/blog/tags?search=%ED%A0%80')).expect(200)).body.data.content).toEqual([]);
    });
  });

  describe('deeply nested JSON', () => {
    it('5,000 levels are refused by the body parser with 400, before any handler', async () => {
      for (const body of ['['.repeat(5000) + ']'.repeat(5000), '{"a":'.repeat(5000) + '1' + '}'.repeat(5000), '['.repeat(5000)]) {
        const res = await t.http.post(api('/auth/login')).set('Content-Type', 'application/json').send(body).expect(400);
        expect(res.body).toEqual(err(400, INVALID_REQUEST));
      }
      const put = await t.http
        .put(api('/users/profile'))
        .set(author.auth)
        .set('Content-Type', 'application/json')
        .send(`{"bio":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`);
      expect(put.body).toEqual(err(400, INVALID_REQUEST));
    });

    it(`${MAX_JSON_DEPTH} levels pass the parser (and meet validation)`, async () => {
      const bio = '['.repeat(MAX_JSON_DEPTH - 1) + ']'.repeat(MAX_JSON_DEPTH - 1);
      const res = await t.http
        .put(api('/users/profile'))
        .set(author.auth)
        .set('Content-Type', 'application/json')
        .send(`{"bio":${bio}}`)
        .expect(400);
      expect(res.body).toEqual(fieldErr('bio', 'Bio must be at most 500 characters'));
    });

    it('brackets inside strings do not count', async () => {
      const res = await t.http
        .put(api('/users/profile'))
        .set(author.auth)
        .send({ bio: '['.repeat(400) + '\\"{' })
        .expect(200);
      expect(res.body.data.bio).toBe('['.repeat(400) + '\\"{');
    });

    it("a corrupt compressed body: 400 with our text, not the decompressor's", async () => {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const res = await t.http
          .post(api('/auth/login'))
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .send(Buffer.from([1, 2, 3, 4, 5]))
          .expect(400);
        expect(res.body).toEqual(err(400, INVALID_REQUEST));
      }
    });

    it('a 2 MB post body is still accepted', async () => {
      const content = 'Words and [links](https://example.com) {braces} "quotes"\n'.repeat(3000).slice(0, 199_000);
      const res = await t.http
        .post(api('/blog/posts/author/create'))
        .set(author.auth)
        .send({ title: `Big ${uid()}`, content, summary: 'x'.repeat(1000) })
        .expect(201);
      expect(res.body.data.content).toBe(content.trim());
    });
  });

  describe('requests Node refuses before Express', () => {
    let server: Server;
    beforeAll(async () => {
      server = t.app.getHttpServer() as Server;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });

    it('a 20 kB Authorization header: 431 in the envelope', async () => {
      const res = await t.http
        .get(api('/users/profile'))
        .set('Authorization', `Bearer ${'x'.repeat(20_000)}`)
        .expect(431);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual(err(431, 'Request headers are too large.'));
      expect(res.headers['x-request-id']).toBe(res.body.requestId);
    });

    it('a malformed request line: 400 in the envelope', async () => {
      for (const bytes of [
        'GARBAGE\r\n\r\n',
        'GET /api/v1/health HTTP/9.9.9\r\n\r\n',
        'GET /a b c\r\nHost: x\r\n\r\n',
        'GET / HTTP/1.1\r\nBad Header\r\n\r\n',
      ]) {
        const { statusLine, body } = parseRaw(await rawRequest(server, bytes));
        expect({ bytes, statusLine, body }).toEqual({ bytes, statusLine: 'HTTP/1.1 400 Bad Request', body: err(400, INVALID_REQUEST) });
      }
    });

    it('the server still answers normally afterwards', async () => {
      await t.http.get(api('/health')).expect(200);
    });
  });
});

import * as bcrypt from 'bcrypt';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DataSource } from 'typeorm';
import { CanonicalizeUserEmails1795684721035 } from '../../migrations/1795684721035-CanonicalizeUserEmails';
import { PEPPERED_PREFIX } from '../src/auth/password-hasher';
import { User, UserStatus } from '../src/users/entities/user.entity';
import { login, registerVerified, STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, uid } from './helpers/envelope';
import { MailCatcher, startMailCatcher } from './helpers/mail';
import { createAdmin, createReader, TestUser } from './helpers/users';

jest.setTimeout(120_000);

/** Passwords past bcrypt's 72 bytes, self password generation, lengths, look-alike e-mails, banned sign-in. */
describe('Accounts hardening', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let db: DataSource;
  let admin: TestUser;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({ env: { SMTP_URL: mail.url } });
    db = t.app.get(DataSource);
    admin = await createAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  const storedHash = async (id: number) =>
    (await db.getRepository(User).findOneOrFail({ where: { id }, select: { id: true, passwordHash: true } })).passwordHash;

  describe('passwords longer than 72 bytes', () => {
    // 80 characters; the two differ only after byte 72, which plain bcrypt never reads.
    const head = `Aa1!${'x'.repeat(68)}`;
    const first = `${head}FIRST-01`;
    const second = `${head}OTHER-02`;

    it('signs in with the password given, not with another sharing its first 72 bytes', async () => {
      expect(Buffer.byteLength(first)).toBe(80);
      const account = await registerVerified(t, mail, { password: first });
      await login(t, account.email, first);
      const wrong = await t.http.post(api('/auth/login')).send({ email: account.email, password: second });
      expect(wrong.body).toEqual(err(401, 'Incorrect email or password.'));
    });

    it('tells long passwords apart on reset, change and admin create too', async () => {
      const created = await t.http
        .post(api('/admin/users'))
        .set(admin.auth)
        .send({
          fullName: 'Long Pass',
          email: uniqueEmail(),
          password: first,
          confirmPassword: first,
          roles: ['USER'],
          status: 'ACTIVE',
          markEmailAsVerified: true,
        })
        .expect(201);
      expect((await t.http.post(api('/auth/login')).send({ email: created.body.data.email, password: second })).status).toBe(401);
      const session = await login(t, created.body.data.email, first);
      await t.http
        .post(api('/user/change-password'))
        .set('Authorization', `Bearer ${session.accessToken}`)
        .send({ currentPassword: first, newPassword: second, confirmNewPassword: second })
        .expect(200);
      expect((await t.http.post(api('/auth/login')).send({ email: created.body.data.email, password: first })).status).toBe(401);
      await login(t, created.body.data.email, second);
    });

    it('still accepts a hash of the old scheme and upgrades it at the next sign-in', async () => {
      const account = await registerVerified(t, mail);
      const legacy = await bcrypt.hash(STRONG_PASSWORD, 4);
      await db.getRepository(User).update({ id: account.id }, { passwordHash: legacy });
      expect((await t.http.post(api('/auth/login')).send({ email: account.email, password: 'Wrong!Pass1' })).status).toBe(401);
      expect(await storedHash(account.id)).toBe(legacy);
      await login(t, account.email, STRONG_PASSWORD);
      const upgraded = await storedHash(account.id);
      expect(upgraded.startsWith(PEPPERED_PREFIX)).toBe(true);
      await login(t, account.email, STRONG_PASSWORD);
    });

    it('hashes and compares passwords in one service only', () => {
      const root = join(__dirname, '..', 'src');
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (statSync(path).isDirectory()) walk(path);
          else if (path.endsWith('.ts') && !path.endsWith('.spec.ts')) files.push(path);
        }
      };
      walk(root);
      const users = files.filter((file) => /from 'bcrypt'/.test(readFileSync(file, 'utf8'))).map((file) => relative(root, file));
      expect(users).toEqual(['auth/password-hasher.ts']);
    });
  });

  describe('an admin generating their own password', () => {
    it('is refused with 409, and the password and sessions stay', async () => {
      const self = await createAdmin(t);
      const res = await t.http.post(api(`/admin/users/${self.id}/generate-password`)).set(self.auth);
      expect(res.body).toEqual(
        err(409, 'You cannot generate a new password for your own account. Use Change Password on your account page.'),
      );
      expect(await storedHash(self.id)).toBe('!');
      await t.http.get(api('/users/profile')).set(self.auth).expect(200);
    });
  });

  describe('lengths in characters, invisible characters trimmed', () => {
    let postId: number;
    let reader: TestUser;
    beforeAll(async () => {
      reader = await createReader(t);
      const post = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Lengths ${uid()}`, content: 'Body', status: 'PUBLISHED' })
        .expect(201);
      postId = post.body.data.id;
    });
    const comment = (content: string) => t.http.post(api('/comments')).set(reader.auth).send({ postId, content });

    it('accepts a comment of 101 emoji (200 allowed) and refuses 201', async () => {
      const emoji = '😀'.repeat(101);
      const res = await comment(emoji);
      expect(res.status).toBe(201);
      expect(res.body.data.content).toBe(emoji);
      expect((await comment('😀'.repeat(201))).body).toEqual(
        err(400, 'Comment content cannot exceed 200 characters', { content: ['Comment content cannot exceed 200 characters'] }),
      );
    });

    it('refuses a comment of only invisible characters as empty, and trims them at the edges', async () => {
      for (const blank of ['\u200B\u200B\u200B', '\uFEFF \u200D\u2060', '\u3164']) {
        expect((await comment(blank)).body).toEqual(
          err(400, 'Comment content cannot be empty', { content: ['Comment content cannot be empty'] }),
        );
      }
      const res = await comment('\u200BHello\u200B world\u200C ');
      expect(res.status).toBe(201);
      expect(res.body.data.content).toBe('Hello\u200B world');
    });

    it('counts characters in names, titles and tags the same way', async () => {
      const name = '🙂'.repeat(60);
      const profile = await t.http.put(api('/users/profile')).set(reader.auth).send({ fullName: name });
      expect(profile.status).toBe(200);
      expect(profile.body.data.fullName).toBe(name);
      const title = '❤️'.repeat(101); // 202 code points: over the 200 a title may have
      const post = await t.http.post(api('/blog/posts')).set(admin.auth).send({ title, content: 'Body' });
      expect(post.body).toEqual(err(400, 'Title must be at most 200 characters', { title: ['Title must be at most 200 characters'] }));
      const tag = await t.http
        .post(api('/blog/tags'))
        .set(admin.auth)
        .send({ name: '\u200Ba\u200B', slug: `t-${uid()}` });
      expect(tag.body).toEqual(
        err(400, 'Tag name must be between 2-100 characters', { name: ['Tag name must be between 2-100 characters'] }),
      );
    });
  });

  describe('look-alike e-mails', () => {
    const register = (email: string) =>
      t.http
        .post(api('/auth/register'))
        .send({ fullName: 'Look Alike', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD });
    const fullWidth = (text: string) => text.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x61 + 0xff41));

    it('stores a full-width address in its plain form, so the plain one is taken and either signs in', async () => {
      const plain = uniqueEmail('wide');
      const [local, domain] = plain.split('@');
      const res = await register(`${fullWidth(local)}@${domain}`).expect(201);
      expect(res.body.data.email).toBe(plain);
      expect((await register(plain)).status).toBe(409);
      // Sign-in with the look-alike finds the same (unverified) account.
      const signIn = await t.http.post(api('/auth/login')).send({ email: `${fullWidth(local)}@${domain}`, password: STRONG_PASSWORD });
      expect(signIn.status).toBe(403);
    });

    it('existing look-alike addresses were rewritten to their plain form by a migration, unless that one is taken', async () => {
      const insert = async (email: string) =>
        (
          (await db.query(
            `INSERT INTO users (full_name, email, password_hash, status, is_verified) VALUES ('Old Row', $1, '!', 'ACTIVE', true) RETURNING id`,
            [email],
          )) as { id: number }[]
        )[0].id;
      const free = uniqueEmail('legacy');
      const taken = uniqueEmail('taken');
      const wide = (email: string) => `${fullWidth(email.split('@')[0])}@${email.split('@')[1]}`;
      const freeId = await insert(wide(free));
      const takenId = await insert(wide(taken));
      await insert(taken);
      const runner = db.createQueryRunner();
      try {
        await new CanonicalizeUserEmails1795684721035().up(runner);
      } finally {
        await runner.release();
      }
      const emailOf = async (id: number) => (await db.getRepository(User).findOneByOrFail({ id })).email;
      expect(await emailOf(freeId)).toBe(free);
      expect(await emailOf(takenId)).toBe(wide(taken));
    });

    it('refuses invisible characters wherever an e-mail is entered', async () => {
      const hidden = `ad\u200Bmin.${uid()}@example.test`;
      expect((await register(hidden)).body).toEqual(err(400, 'Email format is invalid', { email: ['Email format is invalid'] }));
      expect((await t.http.post(api('/auth/login')).send({ email: hidden, password: STRONG_PASSWORD })).body).toEqual(
        err(400, 'Invalid email address', { email: ['Invalid email address'] }),
      );
      expect((await t.http.post(api('/auth/forgot-password')).send({ email: hidden })).body).toEqual(
        err(400, 'Email không hợp lệ', { email: ['Email không hợp lệ'] }),
      );
      expect((await t.http.post(api('/auth/resend-verification')).send({ email: hidden })).status).toBe(400);
      const created = await t.http
        .post(api('/admin/users'))
        .set(admin.auth)
        .send({
          fullName: 'Hidden',
          email: hidden,
          password: STRONG_PASSWORD,
          confirmPassword: STRONG_PASSWORD,
          roles: ['USER'],
          status: 'ACTIVE',
        });
      expect(created.status).toBe(400);
      expect(created.body.errors).toEqual({ email: [expect.any(String)] });
    });

    it('refuses a local part or domain label mixing scripts wherever an e-mail is set, with a 400 on email', async () => {
      const MIXED = 'Email mixes letters from different alphabets (such as Latin and Cyrillic); please type it in one alphabet';
      const token = uid();
      // 'duрX' with a Cyrillic 'р' (U+0440): the probe's look-alike of 'dupX'.
      const lookAlike = `du\u0440X.${token}@example.com`;
      expect((await register('du\u0440X@example.com')).body).toEqual(err(400, MIXED, { email: [MIXED] }));
      expect((await register(lookAlike)).body).toEqual(err(400, MIXED, { email: [MIXED] }));
      expect((await register(`dupx.${token}@ex\u0430mple.com`)).body).toEqual(err(400, MIXED, { email: [MIXED] }));
      const created = await t.http
        .post(api('/admin/users'))
        .set(admin.auth)
        .send({
          fullName: 'Look Alike',
          email: lookAlike,
          password: STRONG_PASSWORD,
          confirmPassword: STRONG_PASSWORD,
          roles: ['USER'],
          status: 'ACTIVE',
        });
      expect(created.body).toEqual(err(400, MIXED, { email: [MIXED] }));
      const reader = await createReader(t);
      expect((await t.http.put(api('/users/profile')).set(reader.auth).send({ email: lookAlike })).body).toEqual(
        err(400, MIXED, { email: [MIXED] }),
      );
      // An account holding such an address from before the rule still saves its profile, the address unchanged.
      const legacy = `legacy.du\u0440x.${token}@example.com`;
      await db.getRepository(User).update({ id: reader.id }, { email: legacy });
      const saved = await t.http.put(api('/users/profile')).set(reader.auth).send({ fullName: 'Still Me', email: legacy }).expect(200);
      expect(saved.body.data).toMatchObject({ fullName: 'Still Me', email: legacy });
      // Nobody was created under the look-alike; a lookup with it is only a failed sign-in.
      expect(await db.getRepository(User).countBy({ email: lookAlike.toLowerCase() })).toBe(0);
      expect((await t.http.post(api('/auth/login')).send({ email: lookAlike, password: STRONG_PASSWORD })).status).toBe(401);

      // One script per label is fine: Cyrillic (made unique with digits, which go with any script), Vietnamese Latin, Latin with Han.
      const digits = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
      for (const email of [
        `\u0438\u0432\u0430\u043d.${digits}@\u043f\u0440\u0438\u043c\u0435\u0440.com`,
        `nguy\u1ec5n.${token}@example.com`,
        `tanaka\u6771\u4eac.${token}@example.com`,
      ]) {
        const res = await register(email);
        expect([res.status, res.body.data?.email]).toEqual([201, email]);
      }
    });
  });

  describe('signing in to a locked account', () => {
    it('tells a banned user they are banned, with the reason, and nothing about verification', async () => {
      const account = await registerVerified(t, mail);
      await t.http
        .post(api(`/admin/users/${account.id}/ban`))
        .set(admin.auth)
        .send({ reason: 'Spam in comments', adminNote: 'internal only' })
        .expect(200);
      const res = await t.http.post(api('/auth/login')).send({ email: account.email, password: account.password });
      expect(res.body).toEqual(err(403, 'Your account has been banned. Reason: Spam in comments'));
    });

    it('marks an unverified account with a field error on email; an inactive one gets the plain text', async () => {
      const email = uniqueEmail();
      await t.http
        .post(api('/auth/register'))
        .send({ fullName: 'Not Yet', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
        .expect(201);
      const pending = await t.http.post(api('/auth/login')).send({ email, password: STRONG_PASSWORD });
      expect(pending.body).toEqual(
        err(403, 'Account not verified or locked.', {
          email: ['This email address is not verified yet. Enter the code we sent you, or ask for a new one.'],
        }),
      );
      const inactive = await registerVerified(t, mail);
      await db.getRepository(User).update({ id: inactive.id }, { status: UserStatus.INACTIVE });
      expect((await t.http.post(api('/auth/login')).send({ email: inactive.email, password: inactive.password })).body).toEqual(
        err(403, 'Account not verified or locked.'),
      );
    });
  });
});

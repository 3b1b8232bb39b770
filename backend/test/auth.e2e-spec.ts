import { DataSource, IsNull } from 'typeorm';
import { RefreshSession } from '../src/sessions/entities/refresh-session.entity';
import { EmailVerificationCode } from '../src/auth/entities/email-verification-code.entity';
import { PasswordResetToken } from '../src/auth/entities/password-reset-token.entity';
import { SessionsService } from '../src/sessions/sessions.service';
import { User, UserStatus } from '../src/users/entities/user.entity';
import { login, registerVerified, signedInUser, STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import { createTestApp, TestApp } from './helpers/app';
import { tooMany } from './helpers/envelope';
import { codeOf, MailCatcher, resetTokenOf, startMailCatcher } from './helpers/mail';

const API = '/api/v1';

/** The error envelope of a plain (non-field) failure. */
function failure(status: number, message: string) {
  return { success: false, data: null, message, status, errors: null, requestId: expect.any(String) };
}

function fieldFailure(errors: Record<string, string[]>) {
  return { success: false, data: null, message: Object.values(errors)[0][0], status: 400, errors, requestId: expect.any(String) };
}

/** The session (`sid`) an access token belongs to. */
function sidOf(accessToken: string): string {
  return JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()).sid as string;
}

function setCookies(res: { headers: Record<string, unknown> }): string[] {
  const value = res.headers['set-cookie'];
  return Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
}

const USER_SHAPE = {
  id: expect.any(Number),
  fullName: expect.any(String),
  email: expect.any(String),
  roles: expect.any(Array),
  role: expect.any(String),
  avatar: null,
  bio: null,
  website: null,
  location: null,
  isVerified: expect.any(Boolean),
  emailVerifiedAt: expect.anything(),
  status: expect.any(String),
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
  lastLoginAt: expect.anything(),
};

describe('Accounts API (auth)', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let db: DataSource;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({ env: { SMTP_URL: mail.url, PUBLIC_URL: 'http://localhost:3000' } });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  describe('POST /auth/register', () => {
    it('answers 400 with the spec messages per field', async () => {
      const res = await t.http.post(`${API}/auth/register`).send({}).expect(400);
      expect(res.body).toEqual(
        fieldFailure({
          fullName: ['Full name is required'],
          email: ['Email is required'],
          password: ['Password is required'],
          confirmPassword: ['Please confirm your password'],
        }),
      );

      const bad = await t.http
        .post(`${API}/auth/register`)
        .send({ fullName: 'A', email: 'not-an-email', password: 'short', confirmPassword: 'other' })
        .expect(400);
      expect(bad.body).toEqual(
        fieldFailure({
          fullName: ['Full name must be at least 2 characters'],
          email: ['Email format is invalid'],
          password: [
            'Password must be at least 8 characters',
            'Password must contain at least one uppercase letter',
            'Password must contain at least one number',
            'Password must contain at least one special character',
          ],
          confirmPassword: ["Passwords don't match"],
        }),
      );

      const long = await t.http
        .post(`${API}/auth/register`)
        .send({ fullName: 'x'.repeat(101), email: uniqueEmail(), password: 'ALLUPPER1!', confirmPassword: 'ALLUPPER1!' })
        .expect(400);
      expect(long.body).toEqual(
        fieldFailure({
          fullName: ['Full name must be less than 100 characters'],
          password: ['Password must contain at least one lowercase letter'],
        }),
      );
    });

    it('refuses fields it does not know (no role or status from the client)', async () => {
      const res = await t.http
        .post(`${API}/auth/register`)
        .send({
          fullName: 'Eve Admin',
          email: uniqueEmail(),
          password: STRONG_PASSWORD,
          confirmPassword: STRONG_PASSWORD,
          roles: ['ADMIN'],
        })
        .expect(400);
      expect(res.body.errors).toEqual({ roles: ['property roles should not exist'] });
    });

    it('creates a PENDING, unverified USER, e-mails a 6-digit code and stores only its hash', async () => {
      const email = uniqueEmail('Mixed.Case');
      const since = mail.messages.length;
      const res = await t.http
        .post(`${API}/auth/register`)
        .send({
          fullName: '  Ann <b>Lee</b> ',
          email: `  ${email.toUpperCase()} `,
          password: STRONG_PASSWORD,
          confirmPassword: STRONG_PASSWORD,
        })
        .expect(201);
      expect(res.body).toEqual({
        success: true,
        data: {
          ...USER_SHAPE,
          fullName: 'Ann <b>Lee</b>',
          email: email.toLowerCase(),
          roles: [{ name: 'USER', displayName: 'User', description: 'Reads, likes and comments', assignedAt: expect.any(String) }],
          role: 'USER',
          isVerified: false,
          emailVerifiedAt: null,
          status: 'PENDING',
          lastLoginAt: null,
        },
        message: 'Registration successful! Please check your email for the 6-digit verification code.',
        status: 201,
        errors: null,
      });
      const message = await mail.waitFor(email, { since });
      expect(message.subject).toBe('Your Inkwell verification code');
      const code = codeOf(message);
      expect(code).toMatch(/^\d{6}$/);
      // The HTML part escapes the user's name.
      expect(message.html).toContain('Ann &lt;b&gt;Lee&lt;/b&gt;');
      expect(message.html).not.toContain('<b>Lee</b>');
      const row = await db.getRepository(EmailVerificationCode).findOneByOrFail({ userId: res.body.data.id });
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.codeHash).not.toContain(code);
      expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
      expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    });

    it('answers 409 for an e-mail in use, whatever its case, verified or not', async () => {
      const email = uniqueEmail();
      const body = { fullName: 'Bob Stone', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD };
      await t.http.post(`${API}/auth/register`).send(body).expect(201);
      const again = await t.http
        .post(`${API}/auth/register`)
        .send({ ...body, email: email.toUpperCase() })
        .expect(409);
      expect(again.body).toEqual(failure(409, 'Email already in use.'));
    });
  });

  describe('POST /auth/verify-email', () => {
    async function pending(): Promise<{ email: string; code: string; id: number }> {
      const email = uniqueEmail();
      const since = mail.messages.length;
      const res = await t.http
        .post(`${API}/auth/register`)
        .send({ fullName: 'Vera Code', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
        .expect(201);
      return { email, code: codeOf(await mail.waitFor(email, { since })), id: res.body.data.id };
    }
    const otherCode = (code: string) => (code === '000000' ? '000001' : '000000');

    it('answers 400 for a malformed code or e-mail', async () => {
      for (const verificationCode of [undefined, '', '12345', '1234567', '12a456', 123456]) {
        const res = await t.http.post(`${API}/auth/verify-email`).send({ email: 'a@b.co', verificationCode }).expect(400);
        expect(res.body).toEqual(fieldFailure({ verificationCode: ['Mã xác thực phải là 6 số'] }));
      }
      const res = await t.http.post(`${API}/auth/verify-email`).send({ email: 'nope', verificationCode: '123456' }).expect(400);
      expect(res.body).toEqual(fieldFailure({ email: ['Invalid email address'] }));
    });

    it('answers a wrong code and an unknown e-mail alike', async () => {
      const { email, code } = await pending();
      const wrong = await t.http
        .post(`${API}/auth/verify-email`)
        .send({ email, verificationCode: otherCode(code) })
        .expect(400);
      expect(wrong.body).toEqual(failure(400, 'Mã xác thực không đúng. Vui lòng thử lại.'));
      const unknown = await t.http.post(`${API}/auth/verify-email`).send({ email: uniqueEmail(), verificationCode: code }).expect(400);
      expect(unknown.body).toEqual(failure(400, 'Mã xác thực không đúng. Vui lòng thử lại.'));
    });

    it('activates the account with the right code, once', async () => {
      const { email, code, id } = await pending();
      const res = await t.http.post(`${API}/auth/verify-email`).send({ email: email.toUpperCase(), verificationCode: code }).expect(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          ...USER_SHAPE,
          id,
          email,
          fullName: 'Vera Code',
          roles: expect.any(Array),
          role: 'USER',
          isVerified: true,
          emailVerifiedAt: expect.any(String),
          status: 'ACTIVE',
          lastLoginAt: null,
        },
        message: 'Xác thực email thành công!',
        status: 200,
        errors: null,
      });
      const again = await t.http.post(`${API}/auth/verify-email`).send({ email, verificationCode: code }).expect(400);
      expect(again.body).toEqual(failure(400, 'Mã xác thực không đúng. Vui lòng thử lại.'));
    });

    it('invalidates the code after 5 wrong tries', async () => {
      const { email, code } = await pending();
      for (let i = 0; i < 5; i++) {
        const res = await t.http
          .post(`${API}/auth/verify-email`)
          .send({ email, verificationCode: otherCode(code) })
          .expect(400);
        expect(res.body.message).toBe('Mã xác thực không đúng. Vui lòng thử lại.');
      }
      const res = await t.http.post(`${API}/auth/verify-email`).send({ email, verificationCode: code }).expect(400);
      expect(res.body).toEqual(failure(400, 'Bạn đã nhập sai quá nhiều lần. Vui lòng yêu cầu mã mới.'));
    });

    it('refuses an expired code', async () => {
      const { email, code, id } = await pending();
      await db.getRepository(EmailVerificationCode).update({ userId: id }, { expiresAt: new Date(Date.now() - 1000) });
      const res = await t.http.post(`${API}/auth/verify-email`).send({ email, verificationCode: code }).expect(400);
      expect(res.body).toEqual(failure(400, 'Mã xác thực đã hết hạn. Vui lòng yêu cầu mã mới.'));
    });
  });

  describe('POST /auth/resend-verification', () => {
    it('answers 400 for a bad e-mail', async () => {
      const res = await t.http.post(`${API}/auth/resend-verification`).send({ email: '' }).expect(400);
      expect(res.body).toEqual(fieldFailure({ email: ['Email is required'] }));
    });

    it('sends a replacing code at once after sign-up, then waits 60 s between sends', async () => {
      const email = uniqueEmail();
      let since = mail.messages.length;
      await t.http
        .post(`${API}/auth/register`)
        .send({ fullName: 'Res End', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
        .expect(201);
      const first = codeOf(await mail.waitFor(email, { since }));

      since = mail.messages.length;
      const res = await t.http.post(`${API}/auth/resend-verification`).send({ email }).expect(200);
      expect(res.body).toEqual({
        success: true,
        data: null,
        message: 'Mã xác thực đã được gửi lại thành công!',
        status: 200,
        errors: null,
      });
      const second = codeOf(await mail.waitFor(email, { since }));

      const wait = await t.http.post(`${API}/auth/resend-verification`).send({ email }).expect(429);
      expect(wait.body).toEqual(
        tooMany(expect.stringMatching(/^Please wait (60|59|58) seconds before requesting a new code\.$/), wait.headers['retry-after']),
      );
      // The wait is a number in the envelope, the one the message says: clients never read it from the text.
      expect(wait.body.message).toBe(`Please wait ${wait.body.retryAfterSeconds} seconds before requesting a new code.`);

      if (first !== second) {
        const old = await t.http.post(`${API}/auth/verify-email`).send({ email, verificationCode: first }).expect(400);
        expect(old.body.message).toBe('Mã xác thực không đúng. Vui lòng thử lại.');
      }
      await t.http.post(`${API}/auth/verify-email`).send({ email, verificationCode: second }).expect(200);
    });

    it('answers unknown and verified e-mails the same, without sending', async () => {
      const verified = await registerVerified(t, mail);
      const unknown = uniqueEmail();
      const since = mail.messages.length;
      for (const email of [unknown, verified.email]) {
        const res = await t.http.post(`${API}/auth/resend-verification`).send({ email }).expect(200);
        expect(res.body.message).toBe('Mã xác thực đã được gửi lại thành công!');
        // The cool-down looks the same as for a pending account.
        const wait = await t.http.post(`${API}/auth/resend-verification`).send({ email }).expect(429);
        expect(wait.body).toEqual(
          tooMany(expect.stringMatching(/^Please wait (60|59|58) seconds before requesting a new code\.$/), wait.headers['retry-after']),
        );
      }
      // A later message proves the earlier ones would have arrived by now.
      const probe = uniqueEmail();
      await t.http
        .post(`${API}/auth/register`)
        .send({ fullName: 'Probe', email: probe, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
        .expect(201);
      await mail.waitFor(probe, { since });
      expect(mail.to(unknown)).toHaveLength(0);
      expect(mail.to(verified.email).length).toBe(1);
    });
  });

  describe('POST /auth/login', () => {
    it('answers 400 with the login messages', async () => {
      const res = await t.http.post(`${API}/auth/login`).send({}).expect(400);
      expect(res.body).toEqual(fieldFailure({ email: ['Email is required'], password: ['Password is required'] }));
      const bad = await t.http.post(`${API}/auth/login`).send({ email: 'x@', password: '12345' }).expect(400);
      expect(bad.body).toEqual(fieldFailure({ email: ['Invalid email address'], password: ['Password must be at least 6 characters'] }));
    });

    it('answers 401 alike for an unknown e-mail and a wrong password', async () => {
      const account = await registerVerified(t, mail);
      const unknown = await t.http.post(`${API}/auth/login`).send({ email: uniqueEmail(), password: STRONG_PASSWORD }).expect(401);
      expect(unknown.body).toEqual(failure(401, 'Incorrect email or password.'));
      const wrong = await t.http.post(`${API}/auth/login`).send({ email: account.email, password: 'Wrong!Pass1' }).expect(401);
      expect(wrong.body).toEqual(failure(401, 'Incorrect email or password.'));
    });

    it('answers 403 for unverified, inactive and banned accounts', async () => {
      const email = uniqueEmail();
      await t.http
        .post(`${API}/auth/register`)
        .send({ fullName: 'Not Yet', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
        .expect(201);
      const pending = await t.http.post(`${API}/auth/login`).send({ email, password: STRONG_PASSWORD }).expect(403);
      expect(pending.body).toEqual({
        ...failure(403, 'Account not verified or locked.'),
        errors: { email: ['This email address is not verified yet. Enter the code we sent you, or ask for a new one.'] },
      });
      const inactive = await registerVerified(t, mail);
      await db.getRepository(User).update({ id: inactive.id }, { status: UserStatus.INACTIVE });
      const res = await t.http.post(`${API}/auth/login`).send({ email: inactive.email, password: inactive.password }).expect(403);
      expect(res.body).toEqual(failure(403, 'Account not verified or locked.'));
      // Banned by hand (no ban row): told so, without a reason.
      const banned = await registerVerified(t, mail);
      await db.getRepository(User).update({ id: banned.id }, { status: UserStatus.BANNED });
      const refused = await t.http.post(`${API}/auth/login`).send({ email: banned.email, password: banned.password }).expect(403);
      expect(refused.body).toEqual(failure(403, 'Your account has been banned.'));
    });

    it('answers the token set and sets the session cookies', async () => {
      const account = await registerVerified(t, mail, { fullName: 'Lou Gin' });
      const res = await t.http
        .post(`${API}/auth/login`)
        .send({ email: account.email.toUpperCase(), password: account.password })
        .expect(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          accessToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
          refreshToken: expect.stringMatching(/^[\w-]{43}$/),
          tokenType: 'Bearer',
          expiresIn: 900,
          user: {
            ...USER_SHAPE,
            id: account.id,
            email: account.email,
            fullName: 'Lou Gin',
            role: 'USER',
            isVerified: true,
            emailVerifiedAt: expect.any(String),
            status: 'ACTIVE',
            lastLoginAt: expect.any(String),
          },
        },
        message: 'Login successful',
        status: 200,
        errors: null,
      });
      const payload = JSON.parse(Buffer.from(res.body.data.accessToken.split('.')[1], 'base64url').toString());
      expect(payload).toEqual({
        sub: account.id,
        sid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        iat: expect.any(Number),
        exp: expect.any(Number),
      });
      expect(payload.exp - payload.iat).toBe(900);

      const cookies = setCookies(res);
      const access = cookies.find((c) => c.startsWith('inkwell_access='));
      const refresh = cookies.find((c) => c.startsWith('inkwell_refresh='));
      expect(access).toContain(`inkwell_access=${res.body.data.accessToken};`);
      expect(access).toMatch(/Max-Age=900;/);
      expect(access).toMatch(/Path=\//);
      expect(access).toMatch(/HttpOnly/);
      expect(access).toMatch(/SameSite=Lax/);
      expect(access).not.toMatch(/Secure/);
      expect(refresh).toContain(`inkwell_refresh=${res.body.data.refreshToken};`);
      expect(refresh).toMatch(/Max-Age=(28800|28799);/);
      expect(refresh).toMatch(/HttpOnly/);
      // The signed-in hint for the public pages' script: readable, nothing personal, the refresh cookie's lifetime.
      const hint = cookies.find((c) => c.startsWith('inkwell_signed_in='));
      expect(hint).toMatch(/^inkwell_signed_in=1; Max-Age=(28800|28799); Path=\/;/);
      expect(hint).not.toMatch(/HttpOnly/);
      expect(hint).toMatch(/SameSite=Lax/);

      const stored = await db.getRepository(RefreshSession).findOneByOrFail({ userId: account.id });
      expect(stored.tokenHash).not.toBe(res.body.data.refreshToken);
      expect(stored.rememberMe).toBe(false);
    });

    it('keeps a remember-me session for 30 days', async () => {
      const account = await registerVerified(t, mail);
      const res = await t.http
        .post(`${API}/auth/login`)
        .send({ email: account.email, password: account.password, rememberMe: true })
        .expect(200);
      const refresh = setCookies(res).find((c) => c.startsWith('inkwell_refresh='));
      expect(refresh).toMatch(/Max-Age=(2592000|2591999);/);
    });
  });

  describe('sessions: refresh, logout, guard', () => {
    it('goes register → e-mail code → verify → login → refresh → logout', async () => {
      const email = uniqueEmail('journey');
      const since = mail.messages.length;
      await t.http
        .post(`${API}/auth/register`)
        .send({ fullName: 'Jo Urney', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
        .expect(201);
      const code = codeOf(await mail.waitFor(email, { since }));
      await t.http.post(`${API}/auth/verify-email`).send({ email, verificationCode: code }).expect(200);
      const session = await login(t, email, STRONG_PASSWORD);
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${session.accessToken}`).expect(200);

      const refreshed = await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: session.refreshToken }).expect(200);
      expect(refreshed.body).toEqual({
        success: true,
        data: {
          accessToken: expect.any(String),
          refreshToken: expect.any(String),
          tokenType: 'Bearer',
          expiresIn: 900,
          user: expect.objectContaining({ email }),
        },
        message: 'Token refreshed',
        status: 200,
        errors: null,
      });
      expect(refreshed.body.data.refreshToken).not.toBe(session.refreshToken);
      expect(setCookies(refreshed).some((c) => c.startsWith(`inkwell_refresh=${refreshed.body.data.refreshToken};`))).toBe(true);
      expect(setCookies(refreshed).some((c) => c.startsWith('inkwell_signed_in=1;'))).toBe(true);
      const access = refreshed.body.data.accessToken as string;
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${access}`).expect(200);

      const out = await t.http.post(`${API}/auth/logout`).send({ refreshToken: refreshed.body.data.refreshToken }).expect(200);
      expect(out.body).toEqual({ success: true, data: null, message: 'Logged out successfully', status: 200, errors: null });
      const cleared = setCookies(out);
      expect(cleared.some((c) => /^inkwell_access=;.*Expires=Thu, 01 Jan 1970/.test(c))).toBe(true);
      expect(cleared.some((c) => /^inkwell_refresh=;.*Expires=Thu, 01 Jan 1970/.test(c))).toBe(true);
      expect(cleared.some((c) => /^inkwell_signed_in=;.*Expires=Thu, 01 Jan 1970/.test(c))).toBe(true);

      // The session is over: its access token is refused at once and its refresh token too.
      const refused = await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${access}`).expect(401);
      expect(refused.body).toEqual(failure(401, 'Authentication failed. Please log in again.'));
      await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: refreshed.body.data.refreshToken }).expect(401);
    });

    it('answers re-use within the grace with the same successor, and revokes the session after it', async () => {
      const session = await signedInUser(t, mail);
      const first = await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: session.refreshToken }).expect(200);
      // A second use of the same token within 10 s (another tab) gets the very same successor.
      const again = await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: session.refreshToken }).expect(200);
      expect(again.body.data.refreshToken).toBe(first.body.data.refreshToken);
      expect(sidOf(again.body.data.accessToken)).toBe(sidOf(first.body.data.accessToken));
      expect(setCookies(again).some((c) => c.startsWith(`inkwell_refresh=${first.body.data.refreshToken};`))).toBe(true);

      // The sealed successor is on the rotated row only: never the plaintext token.
      const sessions = db.getRepository(RefreshSession);
      const original = await sessions.findOneByOrFail({ userId: session.id, parentId: IsNull() });
      expect(original.successorToken).toMatch(/^v1\./);
      expect(original.successorToken).not.toContain(first.body.data.refreshToken);

      await sessions.update({ id: original.id }, { rotatedAt: new Date(Date.now() - 60_000) });
      const reuse = await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: session.refreshToken }).expect(401);
      expect(reuse.body).toEqual(failure(401, 'Token refresh failed'));
      // The legitimate newer token and its access token are dead too.
      await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: first.body.data.refreshToken }).expect(401);
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${first.body.data.accessToken}`).expect(401);
      const rows = await sessions.findBy({ userId: session.id });
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.revokedAt && row.successorToken === null)).toBe(true);
    });

    it('gives 20 parallel refreshes of one token one successor; a 21st use after the grace revokes the family', async () => {
      const session = await signedInUser(t, mail);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: session.refreshToken })),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
      const successor = answers[0].body.data.refreshToken as string;
      expect(successor).not.toBe(session.refreshToken);
      expect(new Set(answers.map((res) => res.body.data.refreshToken))).toEqual(new Set([successor]));
      expect(new Set(answers.map((res) => sidOf(res.body.data.accessToken)))).toEqual(new Set([sidOf(session.accessToken)]));

      const sessions = db.getRepository(RefreshSession);
      const family = sidOf(session.accessToken);
      expect(await sessions.countBy({ familyId: family })).toBe(2);
      expect(await sessions.countBy({ familyId: family, revokedAt: IsNull(), rotatedAt: IsNull() })).toBe(1);
      for (const res of answers.slice(0, 3)) {
        await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${res.body.data.accessToken}`).expect(200);
      }

      // The successor works (and rotates in turn).
      const next = await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: successor }).expect(200);
      expect(next.body.data.refreshToken).not.toBe(successor);

      // After the grace, the first token is a stolen copy: the whole family ends.
      await sessions.update({ familyId: family, parentId: IsNull() }, { rotatedAt: new Date(Date.now() - 11_000) });
      await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: session.refreshToken }).expect(401);
      expect(await sessions.countBy({ familyId: family, revokedAt: IsNull() })).toBe(0);
      await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: next.body.data.refreshToken }).expect(401);
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${next.body.data.accessToken}`).expect(401);
    });

    it('wipes sealed successors once their grace is over', async () => {
      const session = await signedInUser(t, mail);
      await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: session.refreshToken }).expect(200);
      const sessions = db.getRepository(RefreshSession);
      const rotated = await sessions.findOneByOrFail({ userId: session.id, parentId: IsNull() });
      expect(rotated.successorToken).not.toBeNull();
      await t.app.get(SessionsService).sweepGraceState();
      expect((await sessions.findOneByOrFail({ id: rotated.id })).successorToken).not.toBeNull();
      await sessions.update({ id: rotated.id }, { rotatedAt: new Date(Date.now() - 11_000) });
      await t.app.get(SessionsService).sweepGraceState();
      expect((await sessions.findOneByOrFail({ id: rotated.id })).successorToken).toBeNull();
    });

    it('refreshes from the cookie and answers 401 (clearing cookies) for unknown, expired or missing tokens', async () => {
      const session = await signedInUser(t, mail);
      const refreshCookie = session.cookies.find((c) => c.startsWith('inkwell_refresh='))!;
      const viaCookie = await t.http.post(`${API}/auth/refresh-token`).set('Cookie', refreshCookie).send({}).expect(200);
      expect(viaCookie.body.data.tokenType).toBe('Bearer');

      for (const body of [{ refreshToken: 'x'.repeat(43) }, {}]) {
        const res = await t.http.post(`${API}/auth/refresh-token`).send(body).expect(401);
        expect(res.body).toEqual(failure(401, 'Token refresh failed'));
        expect(setCookies(res).some((c) => /^inkwell_refresh=;/.test(c))).toBe(true);
      }
      const current = viaCookie.body.data.refreshToken as string;
      await db.getRepository(RefreshSession).update({ userId: session.id }, { expiresAt: new Date(Date.now() - 1000) });
      const expired = await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: current }).expect(401);
      expect(expired.body).toEqual(failure(401, 'Token refresh failed'));
    });

    it('logs out with neither cookie nor body, and with only the access cookie', async () => {
      const none = await t.http.post(`${API}/auth/logout`).expect(200);
      expect(none.body.message).toBe('Logged out successfully');
      const session = await signedInUser(t, mail);
      const accessCookie = session.cookies.find((c) => c.startsWith('inkwell_access='))!;
      await t.http.post(`${API}/auth/logout`).set('Cookie', accessCookie).expect(200);
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${session.accessToken}`).expect(401);
    });

    it('authenticates by cookie; a cookie-authenticated write needs X-Request-Timestamp', async () => {
      const session = await signedInUser(t, mail);
      const cookie = session.cookies.join('; ');
      const profile = await t.http.get(`${API}/users/profile`).set('Cookie', cookie).expect(200);
      expect(profile.body.data.email).toBe(session.email);
      const csrf = await t.http.put(`${API}/users/profile`).set('Cookie', cookie).send({ bio: 'hi' }).expect(403);
      expect(csrf.body).toEqual(
        failure(403, 'Missing X-Request-Timestamp header: cookie-authenticated requests that change data must send it.'),
      );
      await t.http
        .put(`${API}/users/profile`)
        .set('Cookie', cookie)
        .set('X-Request-Timestamp', String(Date.now()))
        .send({ bio: 'hi' })
        .expect(200);
      const post = await t.http
        .post(`${API}/user/change-password`)
        .set('Cookie', cookie)
        .send({ currentPassword: session.password, newPassword: 'N3w!Password', confirmNewPassword: 'N3w!Password' })
        .expect(403);
      expect(post.body.message).toBe('Missing X-Request-Timestamp header: cookie-authenticated requests that change data must send it.');
    });

    it('refuses a banned or deactivated user mid-session with 403', async () => {
      const session = await signedInUser(t, mail);
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${session.accessToken}`).expect(200);
      await db.getRepository(User).update({ id: session.id }, { status: UserStatus.BANNED });
      const res = await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${session.accessToken}`).expect(403);
      expect(res.body).toEqual(failure(403, 'Account not verified or locked.'));
      const refresh = await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: session.refreshToken }).expect(401);
      expect(refresh.body).toEqual(failure(401, 'Token refresh failed'));
    });

    it('refuses tokens signed with another key or without a session', async () => {
      const res = await t.http.get(`${API}/users/profile`).set('Authorization', 'Bearer abc.def.ghi').expect(401);
      expect(res.body).toEqual(failure(401, 'Authentication failed. Please log in again.'));
      const account = await registerVerified(t, mail);
      const { JwtService } = await import('@nestjs/jwt');
      const jwt = t.app.get(JwtService);
      const noSid = await jwt.signAsync({ sub: account.id });
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${noSid}`).expect(401);
    });
  });

  describe('password reset', () => {
    it('answers 400 with the Vietnamese e-mail messages', async () => {
      const res = await t.http.post(`${API}/auth/forgot-password`).send({}).expect(400);
      expect(res.body).toEqual(fieldFailure({ email: ['Email là bắt buộc'] }));
      const bad = await t.http.post(`${API}/auth/forgot-password`).send({ email: 'abc' }).expect(400);
      expect(bad.body).toEqual(fieldFailure({ email: ['Email không hợp lệ'] }));
    });

    it('answers the same for unknown e-mails and sends nothing', async () => {
      const unknown = uniqueEmail();
      const res = await t.http
        .post(`${API}/auth/forgot-password`)
        .send({ email: unknown, redirectUrl: 'http://localhost:3000/reset-password' })
        .expect(200);
      expect(res.body).toEqual({
        success: true,
        data: null,
        message: 'Nếu email tồn tại trong hệ thống, liên kết đặt lại mật khẩu đã được gửi đến hộp thư của bạn.',
        status: 200,
        errors: null,
      });
      const account = await registerVerified(t, mail);
      const since = mail.messages.length;
      const known = await t.http.post(`${API}/auth/forgot-password`).send({ email: account.email }).expect(200);
      expect(known.body).toEqual(res.body.requestId ? { ...res.body, requestId: known.body.requestId } : res.body);
      await mail.waitFor(account.email, { since });
      expect(mail.to(unknown)).toHaveLength(0);
    });

    it('mails a single-use link on the own origin only (no open redirect)', async () => {
      const account = await registerVerified(t, mail);
      let since = mail.messages.length;
      await t.http
        .post(`${API}/auth/forgot-password`)
        .send({ email: account.email, redirectUrl: 'https://evil.example/steal' })
        .expect(200);
      const evil = resetTokenOf(await mail.waitFor(account.email, { since }));
      expect(evil.link.startsWith('http://localhost:3000/reset-password?token=')).toBe(true);

      since = mail.messages.length;
      await t.http
        .post(`${API}/auth/forgot-password`)
        .send({ email: account.email, redirectUrl: 'http://localhost:3000/anything?x=1' })
        .expect(200);
      const message = await mail.waitFor(account.email, { since });
      expect(message.subject).toBe('Reset your Inkwell password');
      const { link, token } = resetTokenOf(message);
      expect(link).toBe(`http://localhost:3000/reset-password?token=${token}`);

      // A newer link replaces the older one.
      expect((await t.http.get(`${API}/auth/validate-reset-token`).query({ token: evil.token }).expect(200)).body.data).toEqual({
        valid: false,
      });
      const valid = await t.http.get(`${API}/auth/validate-reset-token`).query({ token }).expect(200);
      expect(valid.body).toEqual({ success: true, data: { valid: true }, message: 'OK', status: 200, errors: null });
      expect((await t.http.get(`${API}/auth/validate-reset-token`).expect(200)).body.data).toEqual({ valid: false });

      const session = await login(t, account.email, account.password);
      const res = await t.http
        .post(`${API}/auth/reset-password`)
        .send({ token, newPassword: 'N3w!Password', confirmPassword: 'N3w!Password' })
        .expect(200);
      expect(res.body).toEqual({
        success: true,
        data: null,
        message: 'Đặt lại mật khẩu thành công! Vui lòng đăng nhập bằng mật khẩu mới.',
        status: 200,
        errors: null,
      });

      // Single use, every session ended, the new password works and the old one no longer does.
      const again = await t.http
        .post(`${API}/auth/reset-password`)
        .send({ token, newPassword: 'An0ther!Pass', confirmPassword: 'An0ther!Pass' })
        .expect(400);
      expect(again.body).toEqual(failure(400, 'Token không hợp lệ hoặc đã hết hạn'));
      expect((await t.http.get(`${API}/auth/validate-reset-token`).query({ token }).expect(200)).body.data).toEqual({ valid: false });
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${session.accessToken}`).expect(401);
      await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: session.refreshToken }).expect(401);
      await t.http.post(`${API}/auth/login`).send({ email: account.email, password: account.password }).expect(401);
      await login(t, account.email, 'N3w!Password');
    });

    it('answers 400 for invalid, expired tokens and weak passwords', async () => {
      const weak = await t.http
        .post(`${API}/auth/reset-password`)
        .send({ token: 'abc', newPassword: 'abc', confirmPassword: 'abd' })
        .expect(400);
      expect(weak.body).toEqual(
        fieldFailure({
          newPassword: [
            'Mật khẩu phải có ít nhất 8 ký tự',
            'Mật khẩu phải có ít nhất một chữ cái viết hoa',
            'Mật khẩu phải có ít nhất một chữ số',
            'Mật khẩu phải có ít nhất một ký tự đặc biệt (!@#$%^&*...)',
          ],
          confirmPassword: ['Mật khẩu xác nhận không khớp'],
        }),
      );
      const lower = await t.http
        .post(`${API}/auth/reset-password`)
        .send({ token: 'abc', newPassword: 'ABCDEFG1!', confirmPassword: 'ABCDEFG1!' })
        .expect(400);
      expect(lower.body).toEqual(fieldFailure({ newPassword: ['Mật khẩu phải có ít nhất một chữ cái viết thường'] }));
      const unknown = await t.http
        .post(`${API}/auth/reset-password`)
        .send({ token: 'x'.repeat(43), newPassword: 'N3w!Password', confirmPassword: 'N3w!Password' })
        .expect(400);
      expect(unknown.body).toEqual(failure(400, 'Token không hợp lệ hoặc đã hết hạn'));

      const account = await registerVerified(t, mail);
      const since = mail.messages.length;
      await t.http.post(`${API}/auth/forgot-password`).send({ email: account.email }).expect(200);
      const { token } = resetTokenOf(await mail.waitFor(account.email, { since }));
      await db.getRepository(PasswordResetToken).update({ userId: account.id }, { expiresAt: new Date(Date.now() - 1000) });
      expect((await t.http.get(`${API}/auth/validate-reset-token`).query({ token }).expect(200)).body.data).toEqual({ valid: false });
      const expired = await t.http
        .post(`${API}/auth/reset-password`)
        .send({ token, newPassword: 'N3w!Password', confirmPassword: 'N3w!Password' })
        .expect(400);
      expect(expired.body).toEqual(failure(400, 'Token không hợp lệ hoặc đã hết hạn'));
    });
  });

  describe('POST /user/change-password', () => {
    it('answers 401 without a session', async () => {
      const res = await t.http.post(`${API}/user/change-password`).send({}).expect(401);
      expect(res.body).toEqual(failure(401, 'Authentication required. Please log in to continue.'));
    });

    it('answers 400 with the Vietnamese messages and for a wrong current password', async () => {
      const session = await signedInUser(t, mail);
      const auth = `Bearer ${session.accessToken}`;
      const empty = await t.http.post(`${API}/user/change-password`).set('Authorization', auth).send({}).expect(400);
      expect(empty.body).toEqual(
        fieldFailure({
          currentPassword: ['Mật khẩu hiện tại là bắt buộc'],
          newPassword: ['Mật khẩu mới là bắt buộc'],
          confirmNewPassword: ['Vui lòng xác nhận mật khẩu'],
        }),
      );
      const mismatch = await t.http
        .post(`${API}/user/change-password`)
        .set('Authorization', auth)
        .send({ currentPassword: session.password, newPassword: 'N3w!Password', confirmNewPassword: 'N3w!Passwore' })
        .expect(400);
      expect(mismatch.body).toEqual(fieldFailure({ confirmNewPassword: ['Mật khẩu xác nhận không khớp'] }));
      const wrong = await t.http
        .post(`${API}/user/change-password`)
        .set('Authorization', auth)
        .send({ currentPassword: 'Wrong!Pass1', newPassword: 'N3w!Password', confirmNewPassword: 'N3w!Password' })
        .expect(400);
      expect(wrong.body).toEqual(failure(400, 'Mật khẩu hiện tại không đúng'));
    });

    it("changes the password and ends the user's other sessions only", async () => {
      const session = await signedInUser(t, mail);
      const other = await login(t, session.email, session.password);
      const res = await t.http
        .post(`${API}/user/change-password`)
        .set('Authorization', `Bearer ${session.accessToken}`)
        .send({ currentPassword: session.password, newPassword: 'N3w!Password', confirmNewPassword: 'N3w!Password' })
        .expect(200);
      expect(res.body).toEqual({ success: true, data: null, message: 'Đổi mật khẩu thành công!', status: 200, errors: null });
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${session.accessToken}`).expect(200);
      await t.http.get(`${API}/users/profile`).set('Authorization', `Bearer ${other.accessToken}`).expect(401);
      await t.http.post(`${API}/auth/refresh-token`).send({ refreshToken: other.refreshToken }).expect(401);
      await t.http.post(`${API}/auth/login`).send({ email: session.email, password: session.password }).expect(401);
      await login(t, session.email, 'N3w!Password');
    });
  });

  it('documents every accounts endpoint in Swagger', async () => {
    const res = await t.http.get('/api/docs-json').expect(200);
    const ops = Object.entries(res.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(ops).toEqual(
      expect.arrayContaining([
        'POST /api/v1/auth/register register',
        'POST /api/v1/auth/verify-email verifyEmail',
        'POST /api/v1/auth/resend-verification resendVerification',
        'POST /api/v1/auth/login login',
        'POST /api/v1/auth/refresh-token refreshToken',
        'POST /api/v1/auth/logout logout',
        'POST /api/v1/auth/forgot-password forgotPassword',
        'GET /api/v1/auth/validate-reset-token validateResetToken',
        'POST /api/v1/auth/reset-password resetPassword',
        'POST /api/v1/user/change-password changePassword',
        'GET /api/v1/users/profile getProfile',
        'PUT /api/v1/users/profile updateProfile',
        'POST /api/v1/users/avatar uploadAvatar',
        'DELETE /api/v1/users/avatar deleteAvatar',
      ]),
    );
  });
});

describe('Accounts API rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ throttle: true });
  });
  afterAll(() => t.close());

  it('allows 10 logins a minute per address, then 429', async () => {
    for (let i = 0; i < 10; i++) {
      await t.http.post(`${API}/auth/login`).send({ email: uniqueEmail(), password: 'whatever1' }).expect(401);
    }
    const res = await t.http.post(`${API}/auth/login`).send({ email: uniqueEmail(), password: 'whatever1' }).expect(429);
    expect(res.body).toEqual(tooMany('Too many attempts. Please wait before trying again.', res.headers['retry-after']));
  });

  it('allows 5 a minute on register, verify, resend, forgot and reset', async () => {
    const calls: [string, object][] = [
      ['register', {}],
      ['verify-email', {}],
      ['resend-verification', {}],
      ['forgot-password', {}],
      ['reset-password', {}],
    ];
    for (const [path, body] of calls) {
      for (let i = 0; i < 5; i++) await t.http.post(`${API}/auth/${path}`).send(body).expect(400);
      const res = await t.http.post(`${API}/auth/${path}`).send(body).expect(429);
      expect(res.body.message).toBe('Too many attempts. Please wait before trying again.');
    }
  });
});

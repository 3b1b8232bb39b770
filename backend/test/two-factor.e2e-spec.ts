import { generate } from 'otplib';
import { DataSource } from 'typeorm';
import { PasswordHasher } from '../src/auth/password-hasher';
import { RoleName } from '../src/users/roles';
import { TwoFactorService } from '../src/two-factor/two-factor.service';
import { cookiePairs } from './helpers/accounts';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ok } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { MailCatcher, resetTokenOf, startMailCatcher } from './helpers/mail';
import { createUser, TestUser } from './helpers/users';

/**
 * Two-factor sign-in, with the real rate limits on (each request from an address of
 * its own, so only the per-account limit can stop a caller). The policy test turns on a site-wide
 * setting: the suite has a database of its own.
 */
const PASSWORD = 'Tw0!Factor';
const CODE_WRONG = 'That code is not right. Try again.';
const CHALLENGE_ENDED = 'This sign-in has expired or had too many wrong codes. Please sign in again.';
const SETUP_REQUIRED = 'Administrators must sign in with two-factor authentication. Set it up on your account page first.';
const LIMIT_TEXT = 'Too many attempts. Please wait before trying again.';

let lastAddress = 0;
function nextAddress(): string {
  lastAddress += 1;
  return `10.27.${(lastAddress >> 8) & 255}.${lastAddress & 255}`;
}

/** The authenticator's code `steps` 30-second steps from now. */
function codeAt(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** Codes one step back are right only while the step does not change under the test: wait for a fresh one when it ends within 3 s. */
async function awayFromStepEnd(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('Two-factor sign-in', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let db: DataSource;
  let passwordHash: string;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({
      databaseUrl: await createFreshDatabase('inkwell_two_factor'),
      throttle: true,
      env: { SMTP_URL: mail.url, TRUST_PROXY: 'loopback' },
    });
    db = t.app.get(DataSource);
    passwordHash = await t.app.get(PasswordHasher).hash(PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  const post = (path: string) => t.http.post(api(path)).set('X-Forwarded-For', nextAddress());
  const get = (path: string) => t.http.get(api(path)).set('X-Forwarded-For', nextAddress());

  /** An account that can sign in with PASSWORD. */
  async function account(roles: RoleName[] = [RoleName.USER]): Promise<TestUser> {
    const user = await createUser(t, roles);
    await db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [passwordHash, user.id]);
    return user;
  }

  /** Turns two-factor sign-in on with the code of the step before now, so this step and the next stay usable. */
  async function enable(
    user: TestUser,
    options: { signOutOtherSessions?: boolean } = {},
  ): Promise<{ secret: string; recoveryCodes: string[] }> {
    await awayFromStepEnd();
    const setup = await post('/account/two-factor/setup').set(user.auth).expect(200);
    const secret = setup.body.data.secret as string;
    const confirmed = await post('/account/two-factor/confirm')
      .set(user.auth)
      .send({ code: await codeAt(secret, -1), ...options })
      .expect(200);
    return { secret, recoveryCodes: confirmed.body.data.recoveryCodes as string[] };
  }

  /** The account's events about its sign-in secrets (two-factor, recovery codes, passwords), oldest first. */
  const userEvents = async (userId: number) =>
    (await db.query(
      `SELECT name, actor_id, data->>'via' AS via FROM domain_events
        WHERE subject_type = 'user' AND subject_id = $1 AND (name LIKE 'user.two_factor_%' OR name LIKE 'user.recovery_codes_%' OR name LIKE 'user.password_%') ORDER BY id`,
      [userId],
    )) as { name: string; actor_id: number; via: string | null }[];

  const signIn = (user: TestUser) => post('/auth/login').send({ email: user.email, password: PASSWORD });
  async function challengeOf(user: TestUser): Promise<string> {
    const res = await signIn(user).expect(202);
    return res.body.data.challengeToken as string;
  }
  /**
   * A challenge as a right password makes it, without the password's check: for the tests of the
   * code step (a sign-in hashes with bcrypt, which would make up most of this suite's time).
   */
  async function codeStep(user: TestUser): Promise<string> {
    return (await t.app.get(TwoFactorService).startChallenge(user.id, false)).challengeToken;
  }
  const finish = (challengeToken: string, code: string) => post('/auth/login/two-factor').send({ challengeToken, code });

  it('sets up: a QR code and the key with issuer Inkwell, a 6-digit code to confirm, then 10 recovery codes shown once', async () => {
    const user = await account();
    expect((await get('/account/two-factor').set(user.auth).expect(200)).body).toEqual(
      ok({ enabled: false, enabledAt: null, recoveryCodesLeft: 0, setupRequired: false }),
    );

    const setup = await post('/account/two-factor/setup').set(user.auth).expect(200);
    const { secret, otpauthUrl, qrCode } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/Inkwell:${encodeURIComponent(user.email)}?secret=${secret}&issuer=Inkwell`);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    // Sealed at rest: the row does not hold the key.
    const [row] = (await db.query('SELECT secret_sealed, enabled_at FROM user_two_factor WHERE user_id = $1', [user.id])) as {
      secret_sealed: string;
      enabled_at: Date | null;
    }[];
    expect(row.enabled_at).toBeNull();
    expect(row.secret_sealed).toMatch(/^v1\./);
    expect(row.secret_sealed).not.toContain(secret);

    // A wrong code or a recovery-style code does not turn it on.
    const wrong = await post('/account/two-factor/confirm')
      .set(user.auth)
      .send({ code: (Number(await codeAt(secret)) ^ 1).toString().padStart(6, '0') })
      .expect(400);
    expect(wrong.body).toEqual(err(400, CODE_WRONG, { code: [CODE_WRONG] }));
    const notDigits = await post('/account/two-factor/confirm').set(user.auth).send({ code: 'abcde-fghjk' }).expect(400);
    expect(notDigits.body.errors).toEqual({ code: ['Enter the 6-digit code from your authenticator app.'] });

    const confirmed = await post('/account/two-factor/confirm')
      .set(user.auth)
      .send({ code: await codeAt(secret) })
      .expect(200);
    const codes = confirmed.body.data.recoveryCodes as string[];
    expect(confirmed.body.message).toBe('Two-factor sign-in is on. Keep your recovery codes somewhere safe.');
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = (await db.query('SELECT code_hash FROM two_factor_recovery_codes WHERE user_id = $1', [user.id])) as {
      code_hash: string;
    }[];
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(codes[0].replace('-', ''));

    // After set-up the key is never answered again; a second set-up is refused.
    const status = await get('/account/two-factor').set(user.auth).expect(200);
    expect(status.body.data).toEqual({ enabled: true, enabledAt: expect.any(String), recoveryCodesLeft: 10, setupRequired: false });
    expect(JSON.stringify(status.body)).not.toContain(secret);
    expect((await post('/account/two-factor/setup').set(user.auth).expect(409)).body).toEqual(
      err(409, 'Two-factor sign-in is already on.'),
    );
    expect((await post('/account/two-factor/confirm').set(user.auth).send({ code: '123456' }).expect(409)).body).toEqual(
      err(409, 'Two-factor sign-in is already on.'),
    );
  });

  it("signs out the owner's other sessions when it is turned on (refresh tokens included), unless asked not to", async () => {
    const user = await account();
    const elsewhere = (await signIn(user).expect(200)).body.data as { accessToken: string; refreshToken: string };
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
    await awayFromStepEnd();
    const { secret } = (await post('/account/two-factor/setup').set(user.auth).expect(200)).body.data as { secret: string };
    // Neither true nor false: the field's error, and nothing turned on.
    const bad = await post('/account/two-factor/confirm')
      .set(user.auth)
      .send({ code: await codeAt(secret, -1), signOutOtherSessions: 'yes' })
      .expect(400);
    expect(bad.body.errors).toEqual({ signOutOtherSessions: ['signOutOtherSessions must be true or false'] });
    // No choice sent: the other sessions end (the default), this one stays.
    await post('/account/two-factor/confirm')
      .set(user.auth)
      .send({ code: await codeAt(secret, -1) })
      .expect(200);
    await get('/users/profile').set(user.auth).expect(200);
    await get('/users/profile').set(bearer(elsewhere.accessToken)).expect(401);
    expect((await post('/auth/refresh-token').send({ refreshToken: elsewhere.refreshToken })).status).toBe(401);

    // Asked to keep them: another device's session survives the set-up.
    const keeper = await account();
    const kept = (await signIn(keeper).expect(200)).body.data as { accessToken: string; refreshToken: string };
    await awayFromStepEnd();
    const keeperSecret = (await post('/account/two-factor/setup').set(keeper.auth).expect(200)).body.data.secret as string;
    await post('/account/two-factor/confirm')
      .set(keeper.auth)
      .send({ code: await codeAt(keeperSecret, -1), signOutOtherSessions: false })
      .expect(200);
    await get('/users/profile').set(bearer(kept.accessToken)).expect(200);
    await post('/auth/refresh-token').send({ refreshToken: kept.refreshToken }).expect(200);
  });

  it('signs in with a challenge, not a session, then the code gives the usual answer and cookies; accounts without 2FA sign in as before', async () => {
    const plain = await account();
    const direct = await signIn(plain).expect(200);
    expect(Object.keys(direct.body.data).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken', 'tokenType', 'user']);

    const user = await account();
    const { secret } = await enable(user);
    const first = await signIn(user).expect(202);
    expect(first.body).toEqual(
      ok(
        { twoFactorRequired: true, challengeToken: expect.any(String), expiresIn: 300 },
        'Enter the code from your authenticator app to finish signing in.',
        202,
      ),
    );
    expect(first.headers['set-cookie']).toBeUndefined();
    const { challengeToken } = first.body.data;
    // The challenge is not a session.
    await get('/users/profile').set('Authorization', `Bearer ${challengeToken}`).expect(401);

    const done = await finish(challengeToken, await codeAt(secret)).expect(200);
    expect(done.body.message).toBe('Login successful');
    expect(Object.keys(done.body.data).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken', 'tokenType', 'user']);
    expect(done.body.data.user.id).toBe(user.id);
    expect(cookiePairs(done.headers['set-cookie']).map((pair) => pair.split('=')[0])).toEqual(
      expect.arrayContaining(['inkwell_access', 'inkwell_refresh']),
    );
    await get('/users/profile').set('Authorization', `Bearer ${done.body.data.accessToken}`).expect(200);
    // A used challenge is gone.
    expect((await finish(challengeToken, await codeAt(secret, 1)).expect(401)).body).toEqual(err(401, CHALLENGE_ENDED));
    // Bad input is a 400 with the field, not a counted try.
    const bad = await post('/auth/login/two-factor').send({ challengeToken: 'x', code: 'not a code' }).expect(400);
    expect(bad.body.errors).toEqual({ code: ['Enter the 6-digit code from your authenticator app, or a recovery code.'] });
  });

  it('accepts codes one step either side, never further, and never a code (or an older one) twice', async () => {
    const user = await account();
    const { secret } = await enable(user); // the step before now is used

    // Replay: the confirming code, and this step's neighbours already passed, are refused.
    await awayFromStepEnd();
    expect((await finish(await codeStep(user), await codeAt(secret, -1)).expect(401)).body).toEqual(
      err(401, CODE_WRONG, { code: [CODE_WRONG] }),
    );
    // Outside the window.
    await finish(await codeStep(user), await codeAt(secret, 2)).expect(401);
    await finish(await codeStep(user), await codeAt(secret, -2)).expect(401);
    // The next step (a phone a little ahead) is accepted...
    const ahead = await codeAt(secret, 1);
    await finish(await codeStep(user), ahead).expect(200);
    // ...and then neither it nor the current step (older than it) works any more.
    await finish(await codeStep(user), ahead).expect(401);
    await finish(await codeStep(user), await codeAt(secret, 0)).expect(401);

    // Two sign-ins racing with one code: only one gets through.
    await db.query('UPDATE user_two_factor SET last_used_step = last_used_step - 10 WHERE user_id = $1', [user.id]);
    const [a, b] = [await codeStep(user), await codeStep(user)];
    const code = await codeAt(secret, 0);
    const statuses = (await Promise.all([finish(a, code), finish(b, code)])).map((res) => res.status).sort();
    expect(statuses).toEqual([200, 401]);
  });

  it('ends a challenge after its 5 minutes, and after 5 wrong codes (the right one then fails too)', async () => {
    const user = await account();
    const { secret } = await enable(user);

    const expired = await codeStep(user);
    await db.query("UPDATE two_factor_challenges SET expires_at = now() - interval '1 second' WHERE user_id = $1", [user.id]);
    expect((await finish(expired, await codeAt(secret)).expect(401)).body).toEqual(err(401, CHALLENGE_ENDED));

    const challenge = await codeStep(user);
    for (let i = 0; i < 5; i++) {
      const res = await finish(challenge, '000000').expect(401);
      expect(res.body.message).toBe(CODE_WRONG);
    }
    expect((await finish(challenge, await codeAt(secret)).expect(401)).body).toEqual(err(401, CHALLENGE_ENDED));
    // A new sign-in gets a new challenge.
    await finish(await codeStep(user), await codeAt(secret)).expect(200);
  });

  it('counts codes in the per-account sign-in limit, password and code alike', async () => {
    const user = await account();
    const { secret } = await enable(user);
    // Limit 10 in 15 minutes: a password (1) and 5 wrong codes (6), a password (7) and 3 wrong codes (10)...
    const first = await challengeOf(user);
    for (let i = 0; i < 5; i++) await finish(first, '000000').expect(401);
    const second = await challengeOf(user);
    for (let i = 0; i < 3; i++) await finish(second, '000000').expect(401);
    // ...then the 11th attempt is 429, the right code included, and so is the password.
    const limited = await finish(second, await codeAt(secret)).expect(429);
    expect(limited.body.message).toBe(LIMIT_TEXT);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
    await signIn(user).expect(429);
  });

  it('takes each recovery code once, typed any way; new codes replace the old ones', async () => {
    const user = await account();
    const { secret, recoveryCodes } = await enable(user);
    await finish(await codeStep(user), ` ${recoveryCodes[0].toUpperCase()} `).expect(200);
    expect((await finish(await codeStep(user), recoveryCodes[0]).expect(401)).body.message).toBe(CODE_WRONG);
    await finish(await codeStep(user), recoveryCodes[1].replace('-', '')).expect(200);
    expect((await get('/account/two-factor').set(user.auth).expect(200)).body.data.recoveryCodesLeft).toBe(8);

    const renewed = await post('/account/two-factor/recovery-codes')
      .set(user.auth)
      .send({ code: await codeAt(secret, 0) })
      .expect(200);
    expect(renewed.body.data.recoveryCodes).toHaveLength(10);
    expect((await userEvents(user.id)).map((row) => row.name)).toEqual(['user.two_factor_enabled', 'user.recovery_codes_renewed']);
    await finish(await codeStep(user), recoveryCodes[2]).expect(401);
    await finish(await codeStep(user), renewed.body.data.recoveryCodes[0]).expect(200);
  });

  it('turns off with the password and a code; a password reset by e-mail leaves it on', async () => {
    const user = await account();
    const { secret, recoveryCodes } = await enable(user);

    const since = mail.messages.length;
    await post('/auth/forgot-password').send({ email: user.email }).expect(200);
    const { token } = resetTokenOf(await mail.waitFor(user.email, { since }));
    await post('/auth/reset-password').send({ token, newPassword: 'N3w!Factor', confirmPassword: 'N3w!Factor' }).expect(200);
    await post('/auth/login').send({ email: user.email, password: 'N3w!Factor' }).expect(202);
    await db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [passwordHash, user.id]);
    const signedIn = await finish(await challengeOf(user), await codeAt(secret)).expect(200);
    const auth = { Authorization: `Bearer ${signedIn.body.data.accessToken}` };

    const wrongPassword = await post('/account/two-factor/disable')
      .set(auth)
      .send({ password: 'Not!Right1', code: await codeAt(secret, 1) })
      .expect(400);
    expect(wrongPassword.body).toEqual(err(400, 'The password is not right.', { password: ['The password is not right.'] }));
    const wrongCode = await post('/account/two-factor/disable').set(auth).send({ password: PASSWORD, code: '000000' }).expect(400);
    expect(wrongCode.body).toEqual(err(400, CODE_WRONG, { code: [CODE_WRONG] }));
    expect(
      (await post('/account/two-factor/disable').set(auth).send({ password: PASSWORD, code: recoveryCodes[0] }).expect(200)).body,
    ).toEqual(ok(null, 'Two-factor sign-in is off.'));
    await signIn(user).expect(200);
    expect((await db.query('SELECT count(*)::int AS n FROM two_factor_recovery_codes WHERE user_id = $1', [user.id]))[0].n).toBe(0);
    // Each step is an event of the account's; the owner's own steps write no audit entry.
    expect(await userEvents(user.id)).toEqual([
      { name: 'user.two_factor_enabled', actor_id: user.id, via: null },
      { name: 'user.password_changed', actor_id: user.id, via: 'reset' },
      { name: 'user.two_factor_disabled', actor_id: user.id, via: 'self' },
    ]);
    expect((await db.query(`SELECT count(*)::int AS n FROM audit_log WHERE target_type = 'user' AND target_id = $1`, [user.id]))[0].n).toBe(
      0,
    );
  });

  it("lets an admin reset a user's 2FA: audit-logged, the user told by e-mail", async () => {
    const admin = await createUser(t, [RoleName.ADMIN]);
    const user = await account();
    await enable(user);
    const reader = await createUser(t, [RoleName.USER]);
    await t.http
      .delete(api(`/admin/users/${user.id}/two-factor`))
      .set(reader.auth)
      .expect(403);
    await t.http.delete(api(`/admin/users/${user.id}/two-factor`)).expect(401);
    expect(
      (
        await t.http
          .delete(api(`/admin/users/${admin.id}/two-factor`))
          .set(admin.auth)
          .expect(409)
      ).body.message,
    ).toBe('You cannot reset your own two-factor sign-in: turn it off on your account page.');
    expect((await t.http.delete(api('/admin/users/999999/two-factor')).set(admin.auth).expect(404)).body).toEqual(
      err(404, 'User not found'),
    );

    expect(
      (
        await t.http
          .get(api(`/admin/users/${user.id}`))
          .set(admin.auth)
          .expect(200)
      ).body.data.twoFactorEnabled,
    ).toBe(true);
    const since = mail.messages.length;
    const reset = await t.http
      .delete(api(`/admin/users/${user.id}/two-factor`))
      .set(admin.auth)
      .expect(200);
    expect(reset.body).toEqual(ok(null, 'Two-factor sign-in was reset; the user was told by e-mail.'));
    const told = await mail.waitFor(user.email, { since });
    expect(told.subject).toBe('Two-factor sign-in was turned off on your Inkwell account');
    const log = await t.http
      .get(api(`/admin/users/${user.id}/audit-log`))
      .set(admin.auth)
      .expect(200);
    expect(log.body.data.content[0]).toMatchObject({
      type: 'TWO_FACTOR_RESET',
      title: 'Two-factor sign-in reset',
      description: `${admin.fullName} reset two-factor sign-in for ${user.fullName}`,
    });
    // The entry and the e-mail follow the reset's event.
    expect((await userEvents(user.id)).at(-1)).toEqual({ name: 'user.two_factor_disabled', actor_id: admin.id, via: 'admin' });
    await signIn(user).expect(200);
    expect(
      (
        await t.http
          .get(api(`/admin/users/${user.id}`))
          .set(admin.auth)
          .expect(200)
      ).body.data.twoFactorEnabled,
    ).toBe(false);
    expect(
      (
        await t.http
          .delete(api(`/admin/users/${user.id}/two-factor`))
          .set(admin.auth)
          .expect(409)
      ).body.message,
    ).toBe('This user has not turned on two-factor sign-in.');
  });

  it('makes an admin without 2FA set it up before any admin route answers, when the site requires it', async () => {
    const admin = await account([RoleName.ADMIN]);
    const other = await createUser(t, [RoleName.ADMIN]);
    await enable(other);
    await t.http.patch(api('/admin/settings')).set(other.auth).send({ requireAdminTwoFactor: true }).expect(200);
    try {
      const signedIn = await signIn(admin).expect(200);
      expect(signedIn.body.data.twoFactorSetupRequired).toBe(true);
      const auth = { Authorization: `Bearer ${signedIn.body.data.accessToken}` };
      const refused = await get('/admin/users').set(auth).expect(403);
      expect(refused.body).toEqual(err(403, SETUP_REQUIRED, { twoFactor: [SETUP_REQUIRED] }));
      expect((await get('/account/two-factor').set(auth).expect(200)).body.data.setupRequired).toBe(true);
      // Readers are not concerned.
      const reader = await account();
      expect((await signIn(reader).expect(200)).body.data.twoFactorSetupRequired).toBeUndefined();

      // Set up from another session of theirs, which it leaves signed in when asked to.
      await enable(admin, { signOutOtherSessions: false });
      await get('/admin/users').set(auth).expect(200);
      expect((await get('/account/two-factor').set(auth).expect(200)).body.data.setupRequired).toBe(false);
    } finally {
      await t.http.patch(api('/admin/settings')).set(other.auth).send({ requireAdminTwoFactor: false }).expect(200);
    }
  });

  it('refuses wrong input with field errors and no 5xx', async () => {
    const user = await account();
    const noBody = await post('/auth/login/two-factor').send({}).expect(400);
    expect(noBody.body.errors).toEqual({
      challengeToken: ['The sign-in to finish is missing. Please sign in again.'],
      code: ['Enter the 6-digit code from your authenticator app, or a recovery code.'],
    });
    await post('/account/two-factor/disable').set(user.auth).send({ password: PASSWORD, code: '123456' }).expect(400);
    expect((await post('/account/two-factor/recovery-codes').set(user.auth).send({ code: '123456' }).expect(409)).body).toEqual(
      err(409, 'Two-factor sign-in is not on.'),
    );
    expect((await post('/account/two-factor/confirm').set(user.auth).send({ code: '123456' }).expect(409)).body).toEqual(
      err(409, 'Start the set-up first: no key is waiting for its first code.'),
    );
  });
});

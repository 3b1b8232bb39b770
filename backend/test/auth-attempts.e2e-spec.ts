import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AttemptCounterRow } from '../src/auth/entities/attempt-counter.entity';
import { deriveKey } from '../src/common/secret-box';
import { APP_CONFIG, AppConfig } from '../src/config/env';
import { STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import { createTestApp, TestApp } from './helpers/app';
import { tooMany } from './helpers/envelope';
import { codeOf, MailCatcher, resetTokenOf, startMailCatcher } from './helpers/mail';

/**
 * The per-account sign-in limit (OWASP ASVS 2.2.1), with the real rate limits on: every request
 * comes from another client address (X-Forwarded-For, trusted from loopback), so only the
 * per-account count can stop it.
 */
const API = '/api/v1';
const LIMIT_TEXT = 'Too many attempts. Please wait before trying again.';

let lastAddress = 0;
/** A client address no earlier request used. */
function nextAddress(): string {
  lastAddress += 1;
  return `10.${(lastAddress >> 16) & 255}.${(lastAddress >> 8) & 255}.${lastAddress & 255}`;
}

describe('Per-account sign-in limit', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let db: DataSource;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({ throttle: true, env: { SMTP_URL: mail.url, TRUST_PROXY: 'loopback' } });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  /** A verified account, made from an address of its own (sign-up is limited to 5 a minute). */
  async function registerVerified(): Promise<{ email: string; password: string }> {
    const email = uniqueEmail('limited');
    const since = mail.messages.length;
    await t.http
      .post(`${API}/auth/register`)
      .set('X-Forwarded-For', nextAddress())
      .send({ fullName: 'Lim Ited', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
      .expect(201);
    const verificationCode = codeOf(await mail.waitFor(email, { since }));
    await t.http.post(`${API}/auth/verify-email`).set('X-Forwarded-For', nextAddress()).send({ email, verificationCode }).expect(200);
    return { email, password: STRONG_PASSWORD };
  }

  const signIn = (email: string, password: string) =>
    t.http.post(`${API}/auth/login`).set('X-Forwarded-For', nextAddress()).send({ email, password });

  async function fail(email: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++) {
      const res = await signIn(email, 'Wrong!Pass1');
      expect([res.status, res.body.message]).toEqual([401, 'Incorrect email or password.']);
    }
  }

  /** Where the counter of an e-mail is stored (its key is an HMAC, never the address). */
  function counterKeyOf(email: string): string {
    const config = t.app.get<AppConfig>(APP_CONFIG);
    return createHmac('sha256', deriveKey(config.jwtSecret, 'attempt-counter-keys')).update(`login:${email}`).digest('hex');
  }

  it('answers the 11th attempt after 10 failures from 10 addresses with 429, even with the right password', async () => {
    const account = await registerVerified();
    const other = await registerVerified();
    await fail(account.email, 10);

    const limited = await signIn(account.email, account.password).expect(429);
    expect(limited.body).toEqual(tooMany(LIMIT_TEXT, limited.headers['retry-after']));
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(limited.headers['set-cookie']).toBeUndefined();
    // The account is the e-mail as normalised: other spellings are the same account.
    await signIn(`  ${account.email.toUpperCase()} `, account.password).expect(429);

    // Another account is unaffected.
    await signIn(other.email, 'Wrong!Pass1').expect(401);
    await signIn(other.email, other.password).expect(200);

    // The counter holds no e-mail address; once its window ends, the right password works again.
    const counters = db.getRepository(AttemptCounterRow);
    const row = await counters.findOneByOrFail({ keyHash: counterKeyOf(account.email) });
    expect(row.count).toBe(12);
    expect(JSON.stringify(await counters.find())).not.toContain(account.email);
    await counters.update({ keyHash: row.keyHash }, { windowEndsAt: new Date(Date.now() - 1000) });
    await signIn(account.email, account.password).expect(200);
    expect(await counters.existsBy({ keyHash: row.keyHash })).toBe(false);
  });

  it('counts unknown e-mails the same way, so the 429 does not tell whether an account exists', async () => {
    const unknown = uniqueEmail('nobody');
    await fail(unknown, 10);
    const res = await signIn(unknown, 'Any!Pass123').expect(429);
    expect(res.body).toEqual(tooMany(LIMIT_TEXT, res.headers['retry-after']));
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });

  it('starts the count again after a successful sign-in', async () => {
    const account = await registerVerified();
    await fail(account.email, 9);
    await signIn(account.email, account.password).expect(200);
    // Without the reset, the next failure would already be the 11th attempt.
    await fail(account.email, 10);
    await signIn(account.email, account.password).expect(429);
  });

  it('lets no more than the limit through when guesses arrive in parallel', async () => {
    const account = await registerVerified();
    const answers = await Promise.all(Array.from({ length: 20 }, () => signIn(account.email, 'Wrong!Pass1')));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(10).fill(429)]);
  });

  describe('cancelling a pending deletion (it takes the password too)', () => {
    const cancel = (email: string, password: string) =>
      t.http.post(`${API}/account/deletion/cancel`).set('X-Forwarded-For', nextAddress()).send({ email, password });
    /** Schedules the owner's deletion as 'Delete my account' leaves it (a week of grace). */
    const schedule = (email: string) =>
      db.query(`UPDATE users SET deletion_due_at = now() + interval '7 days', deletion_via = 'self' WHERE email = $1`, [email]);

    it('is refused once sign-in is (429, the right password included)', async () => {
      const account = await registerVerified();
      await schedule(account.email);
      await fail(account.email, 10);
      const limited = await cancel(account.email, account.password).expect(429);
      expect(limited.body).toEqual(tooMany(LIMIT_TEXT, limited.headers['retry-after']));
    });

    it("counts its wrong passwords against sign-in's limit, with sign-in's answer", async () => {
      const account = await registerVerified();
      await schedule(account.email);
      for (let i = 0; i < 10; i++) {
        const res = await cancel(account.email, 'Wrong!Pass1');
        expect([res.status, res.body.message]).toEqual([401, 'Incorrect email or password.']);
      }
      await cancel(account.email, account.password).expect(429);
      await signIn(account.email, account.password).expect(429);
    });

    it('clears the count when it cancels, as a sign-in does', async () => {
      const account = await registerVerified();
      await schedule(account.email);
      await fail(account.email, 9);
      await cancel(account.email, account.password).expect(200);
      await fail(account.email, 10);
      await signIn(account.email, account.password).expect(429);
    });
  });

  it('lifts the limit when the owner resets the password by e-mail', async () => {
    const account = await registerVerified();
    await fail(account.email, 10);
    await signIn(account.email, account.password).expect(429);

    const since = mail.messages.length;
    await t.http.post(`${API}/auth/forgot-password`).set('X-Forwarded-For', nextAddress()).send({ email: account.email }).expect(200);
    const { token } = resetTokenOf(await mail.waitFor(account.email, { since }));
    await t.http
      .post(`${API}/auth/reset-password`)
      .set('X-Forwarded-For', nextAddress())
      .send({ token, newPassword: 'N3w!Password', confirmPassword: 'N3w!Password' })
      .expect(200);
    await signIn(account.email, 'N3w!Password').expect(200);
  });
});

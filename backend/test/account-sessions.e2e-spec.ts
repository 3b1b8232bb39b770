import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccountSessionsMessages } from '../src/sessions/account-sessions.messages';
import { NEW_SIGN_IN_QUEUE, NewDeviceAlerts } from '../src/sessions/new-device-alerts';
import { JOBS_SCHEMA } from '../src/jobs/jobs.service';
import { PasswordHasher } from '../src/auth/password-hasher';
import { registerVerified, STRONG_PASSWORD } from './helpers/accounts';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, ok, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { CapturedMail, MailCatcher, startMailCatcher } from './helpers/mail';

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const FIREFOX_WINDOWS_NEWER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:134.0) Gecko/20100101 Firefox/134.0';
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const EDGE_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
const ALERT_SUBJECT = 'New sign-in to your account';

interface Signed {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  auth: { Authorization: string };
}

/**
 * 'Where you're signed in': the list, signing out one or all other sessions (at once,
 * for access tokens too), only one's own, and the new-device e-mail. A database of its own: the
 * alert goes through the job queue, and another suite's workers on the shared database would take
 * its jobs.
 */
describe('Account sessions', () => {
  let mail: MailCatcher;
  let t: TestApp;

  beforeAll(async () => {
    const databaseUrl = await createFreshDatabase('inkwell_sessions');
    mail = await startMailCatcher();
    // TRUST_PROXY: the tests name the client address with X-Forwarded-For.
    t = await createTestApp({ databaseUrl, env: { SMTP_URL: mail.url, JOB_POLL_SECONDS: '1', TRUST_PROXY: 'true' } });
    passwordHash = await t.app.get(PasswordHasher).hash(STRONG_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  let passwordHash: string;
  let serial = 0;

  /**
   * A verified, active reader written straight to the database (one bcrypt hash for the suite, so
   * the tests stay fast); the sign-up path itself is the first list test's.
   */
  async function reader(): Promise<{ id: number; email: string; password: string }> {
    serial += 1;
    const email = `sessions-${uid()}-${serial}@example.test`;
    const [{ id }] = (await t.app
      .get(DataSource)
      .query(
        `INSERT INTO users (full_name, email, password_hash, status, is_verified, email_verified_at) VALUES ($1, $2, $3, 'ACTIVE', true, now()) RETURNING id`,
        [`Sessions Reader ${serial}`, email, passwordHash],
      )) as { id: number }[];
    await t.app.get(DataSource).query(`INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = 'USER'`, [id]);
    return { id, email, password: STRONG_PASSWORD };
  }

  async function signIn(account: { email: string; password: string }, userAgent: string, ip: string): Promise<Signed> {
    const res = await t.http
      .post(api('/auth/login'))
      .set('User-Agent', userAgent)
      .set('X-Forwarded-For', ip)
      .send({ email: account.email, password: account.password });
    expect(res.status).toBe(200);
    const { accessToken, refreshToken } = res.body.data as { accessToken: string; refreshToken: string };
    const sessionId = JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()).sid as string;
    return { accessToken, refreshToken, sessionId, auth: { Authorization: `Bearer ${accessToken}` } };
  }

  /** The alert jobs enqueued for a user (in the sign-in's transaction: there is one exactly when an alert is due). */
  async function alertJobs(userId: number): Promise<number> {
    const [{ count }] = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS count FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND (data->>'userId')::int = $2`, [
        NEW_SIGN_IN_QUEUE,
        userId,
      ]);
    return count as number;
  }

  /** Waits for the n-th alert e-mail to the address and answers them all. */
  async function alerts(email: string, n: number): Promise<CapturedMail[]> {
    const deadline = Date.now() + 15_000;
    while (alertsTo(email).length < n) {
      if (Date.now() > deadline) throw new Error(`${n} alerts to ${email} expected, got ${alertsTo(email).length}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return alertsTo(email);
  }

  const alertsTo = (email: string) => mail.to(email).filter((m) => m.subject === ALERT_SUBJECT);

  it('needs a session: 401 for every route', async () => {
    const id = randomUUID();
    for (const [method, path] of [
      ['get', '/account/sessions'],
      ['delete', '/account/sessions'],
      ['delete', `/account/sessions/${id}`],
      ['get', '/account/sessions/alerts'],
      ['put', '/account/sessions/alerts'],
    ] as const) {
      const res = await t.http[method](api(path)).send(method === 'put' ? { newDeviceEmail: false } : undefined);
      expect([method, path, res.status]).toEqual([method, path, 401]);
    }
  });

  it('lists the live sessions with device, place and times, the current one marked; alerts on a new device only', async () => {
    const account = await registerVerified(t, mail);
    const since = mail.messages.length;
    // The account's very first sign-in: nothing to compare with, no alert.
    const home = await signIn(account, FIREFOX_WINDOWS, '203.0.113.57');
    const laptop = await signIn(account, CHROME_LINUX, '198.51.100.9');

    const list = await t.http.get(api('/account/sessions')).set(laptop.auth);
    expect(list.status).toBe(200);
    expect(list.body).toEqual(
      ok(
        [
          {
            id: laptop.sessionId,
            device: 'Chrome on Linux',
            browser: 'Chrome',
            os: 'Linux',
            place: '198.51.100.x',
            createdAt: ISO,
            lastUsedAt: ISO,
            current: true,
          },
          {
            id: home.sessionId,
            device: 'Firefox on Windows',
            browser: 'Firefox',
            os: 'Windows',
            place: '203.0.113.x',
            createdAt: ISO,
            lastUsedAt: ISO,
            current: false,
          },
        ],
        AccountSessionsMessages.LIST,
      ),
    );
    // The same list from the other device marks that one.
    const fromHome = await t.http.get(api('/account/sessions')).set(home.auth);
    expect(fromHome.body.data.map((s: { id: string; current: boolean }) => [s.id, s.current])).toEqual([
      [laptop.sessionId, false],
      [home.sessionId, true],
    ]);

    // A refresh moves 'last used' and keeps the session (same id); a newer browser version is the same device.
    const refreshed = await t.http
      .post(api('/auth/refresh-token'))
      .set('User-Agent', FIREFOX_WINDOWS_NEWER)
      .set('X-Forwarded-For', '203.0.113.80')
      .send({ refreshToken: home.refreshToken });
    expect(refreshed.status).toBe(200);
    const after = (await t.http.get(api('/account/sessions')).set(laptop.auth)).body.data as {
      id: string;
      lastUsedAt: string;
      createdAt: string;
    }[];
    expect(after.map((s) => s.id)).toEqual([home.sessionId, laptop.sessionId]);
    expect(Date.parse(after[0].lastUsedAt)).toBeGreaterThan(Date.parse(after[0].createdAt));

    // The second device was new: one alert, naming it; the first sign-in sent none.
    const [alert] = await alerts(account.email, 1);
    expect(mail.messages.slice(since).filter((m) => m.to.includes(account.email.toLowerCase()))).toEqual([alert]);
    expect(alert.text).toContain('Device: Chrome on Linux');
    expect(alert.text).toContain('Place (approximate): 198.51.100.x');
    expect(alert.text).toMatch(/Time: \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M GMT/);
    expect(alert.text).toContain('http://localhost:3000/account#sessions');
    expect(alert.html).toContain('Chrome on Linux');

    // Known devices (again, or a newer version of one) do not alert.
    await signIn(account, FIREFOX_WINDOWS_NEWER, '203.0.113.99');
    await signIn(account, CHROME_LINUX, '198.51.100.10');
    expect(await alertJobs(account.id)).toBe(1);

    // A device not seen before alerts.
    await signIn(account, SAFARI_IOS, '192.0.2.44');
    expect(await alertJobs(account.id)).toBe(2);
    expect((await alerts(account.email, 2))[1].text).toContain('Device: Mobile Safari on iOS');
  });

  it('turning the alert off stops it; the setting is per user and defaults to on', async () => {
    const account = await reader();
    const first = await signIn(account, FIREFOX_WINDOWS, '203.0.113.1');
    expect((await t.http.get(api('/account/sessions/alerts')).set(first.auth)).body).toEqual(
      ok({ newDeviceEmail: true }, AccountSessionsMessages.ALERTS),
    );

    expect((await t.http.put(api('/account/sessions/alerts')).set(first.auth).send({})).body).toEqual(
      err(400, AccountSessionsMessages.NEW_DEVICE_EMAIL_REQUIRED, {
        newDeviceEmail: [AccountSessionsMessages.NEW_DEVICE_EMAIL_REQUIRED, AccountSessionsMessages.BOOLEAN],
      }),
    );
    const bad = await t.http.put(api('/account/sessions/alerts')).set(first.auth).send({ newDeviceEmail: 'no' });
    expect(bad.body).toEqual(err(400, AccountSessionsMessages.BOOLEAN, { newDeviceEmail: [AccountSessionsMessages.BOOLEAN] }));
    expect((await t.http.put(api('/account/sessions/alerts')).set(first.auth).send({ newDeviceEmail: true, extra: 1 })).status).toBe(400);

    const off = await t.http.put(api('/account/sessions/alerts')).set(first.auth).send({ newDeviceEmail: false });
    expect(off.body).toEqual(ok({ newDeviceEmail: false }, AccountSessionsMessages.ALERTS_SAVED));
    expect((await t.http.get(api('/account/sessions/alerts')).set(first.auth)).body.data).toEqual({ newDeviceEmail: false });

    await signIn(account, EDGE_MAC, '198.51.100.200');
    expect(await alertJobs(account.id)).toBe(0);

    // On again: the next new device alerts.
    await t.http.put(api('/account/sessions/alerts')).set(first.auth).send({ newDeviceEmail: true });
    await signIn(account, SAFARI_IOS, '198.51.100.201');
    expect((await alerts(account.email, 1)).map((m) => m.text.includes('Mobile Safari on iOS'))).toEqual([true]);
    expect(await alertJobs(account.id)).toBe(1);
  });

  it('signing out one session refuses its access and refresh tokens at once; its device alerts again', async () => {
    const account = await reader();
    const mine = await signIn(account, FIREFOX_WINDOWS, '203.0.113.5');
    const stolen = await signIn(account, CHROME_LINUX, '198.51.100.66');
    expect((await t.http.get(api('/users/profile')).set(stolen.auth)).status).toBe(200);

    const out = await t.http.delete(api(`/account/sessions/${stolen.sessionId}`)).set(mine.auth);
    expect(out.status).toBe(204);
    expect(out.text).toBe('');
    // The access token is still unexpired (15 minutes), yet refused now.
    expect((await t.http.get(api('/users/profile')).set(stolen.auth)).status).toBe(401);
    expect((await t.http.post(api('/auth/refresh-token')).send({ refreshToken: stolen.refreshToken })).status).toBe(401);
    expect((await t.http.get(api('/users/profile')).set(mine.auth)).status).toBe(200);
    expect((await t.http.get(api('/account/sessions')).set(mine.auth)).body.data.map((s: { id: string }) => s.id)).toEqual([
      mine.sessionId,
    ]);

    // Ended already: 404; so is an unknown id; a malformed one is 400.
    expect((await t.http.delete(api(`/account/sessions/${stolen.sessionId}`)).set(mine.auth)).body).toEqual(
      err(404, AccountSessionsMessages.NOT_FOUND),
    );
    expect((await t.http.delete(api(`/account/sessions/${randomUUID()}`)).set(mine.auth)).body).toEqual(
      err(404, AccountSessionsMessages.NOT_FOUND),
    );
    expect((await t.http.delete(api('/account/sessions/not-a-session')).set(mine.auth)).body).toEqual(
      err(400, AccountSessionsMessages.INVALID_ID),
    );

    // The signed-out device is forgotten: a sign-in from it alerts again.
    expect(await alertJobs(account.id)).toBe(1);
    await signIn(account, CHROME_LINUX, '198.51.100.66');
    expect(await alertJobs(account.id)).toBe(2);
  });

  it("another user's session is 404 and stays live", async () => {
    const [alice, bob] = await Promise.all([reader(), reader()]);
    const aliceSession = await signIn(alice, FIREFOX_WINDOWS, '203.0.113.7');
    const bobSession = await signIn(bob, FIREFOX_WINDOWS, '203.0.113.8');
    const res = await t.http.delete(api(`/account/sessions/${aliceSession.sessionId}`)).set(bobSession.auth);
    expect(res.body).toEqual(err(404, AccountSessionsMessages.NOT_FOUND));
    expect((await t.http.get(api('/users/profile')).set(aliceSession.auth)).status).toBe(200);
    // Nor does Bob's list show it.
    expect((await t.http.get(api('/account/sessions')).set(bobSession.auth)).body.data.map((s: { id: string }) => s.id)).toEqual([
      bobSession.sessionId,
    ]);
  });

  it('signing out all other sessions keeps only the caller’s', async () => {
    const account = await reader();
    const a = await signIn(account, FIREFOX_WINDOWS, '203.0.113.20');
    const b = await signIn(account, CHROME_LINUX, '203.0.113.21');
    const c = await signIn(account, SAFARI_IOS, '203.0.113.22');

    const res = await t.http.delete(api('/account/sessions')).set(b.auth);
    expect(res.body).toEqual(ok({ signedOut: 2 }, AccountSessionsMessages.OTHERS_SIGNED_OUT));
    for (const gone of [a, c]) {
      expect((await t.http.get(api('/users/profile')).set(gone.auth)).status).toBe(401);
      expect((await t.http.post(api('/auth/refresh-token')).send({ refreshToken: gone.refreshToken })).status).toBe(401);
    }
    expect((await t.http.get(api('/users/profile')).set(b.auth)).status).toBe(200);
    expect((await t.http.get(api('/account/sessions')).set(b.auth)).body.data).toEqual([
      expect.objectContaining({ id: b.sessionId, current: true }),
    ]);
    // Nothing left to sign out.
    expect((await t.http.delete(api('/account/sessions')).set(b.auth)).body.data).toEqual({ signedOut: 0 });
  });

  it("signing out the caller's own session ends it and clears its cookies", async () => {
    const account = await reader();
    const own = await signIn(account, FIREFOX_WINDOWS, '203.0.113.30');
    const res = await t.http.delete(api(`/account/sessions/${own.sessionId.toUpperCase()}`)).set(own.auth);
    expect(res.status).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/inkwell_access=;/);
    expect((await t.http.get(api('/users/profile')).set(own.auth)).status).toBe(401);
  });

  it('a known device stays known for all concurrent sign-ins: one alert for two at once from a new device', async () => {
    const account = await reader();
    await signIn(account, FIREFOX_WINDOWS, '203.0.113.40');
    await Promise.all([signIn(account, EDGE_MAC, '198.51.100.41'), signIn(account, EDGE_MAC, '198.51.100.41')]);
    expect(await alertJobs(account.id)).toBe(1);
    expect((await alerts(account.email, 1))[0].text).toContain('Device: Edge on macOS');
    const db = t.app.get(DataSource);
    const [{ count }] = await db.query(
      `SELECT count(*)::int AS count FROM known_devices k JOIN users u ON u.id = k.user_id WHERE u.email = $1`,
      [account.email],
    );
    expect(count).toBe(2);
  });

  it('the worker reads the switch and the account again at send time', async () => {
    const account = await reader();
    const alerts = t.app.get(NewDeviceAlerts);
    const job = (sessionId: string) => ({
      id: sessionId,
      retryCount: 0,
      lastAttempt: false,
      data: { userId: account.id, sessionId, device: 'Opera on Linux', place: '192.0.2.x', at: new Date().toISOString() },
    });
    const first = await signIn(account, FIREFOX_WINDOWS, '203.0.113.50');
    // Turned off after the job was queued: nothing goes out.
    await t.http.put(api('/account/sessions/alerts')).set(first.auth).send({ newDeviceEmail: false });
    await alerts.send(job(randomUUID()));
    expect(alertsTo(account.email)).toHaveLength(0);
    await t.http.put(api('/account/sessions/alerts')).set(first.auth).send({ newDeviceEmail: true });
    await alerts.send(job(randomUUID()));
    expect(alertsTo(account.email).map((m) => m.text.includes('Device: Opera on Linux'))).toEqual([true]);
    // An account banned since: nothing either.
    await t.app.get(DataSource).query(`UPDATE users SET status = 'BANNED' WHERE id = $1`, [account.id]);
    await alerts.send(job(randomUUID()));
    expect(alertsTo(account.email)).toHaveLength(1);
  });
});

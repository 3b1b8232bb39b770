import { api, err } from './helpers/envelope';
import { createTestApp, TestApp } from './helpers/app';
import { createReader, TestUser } from './helpers/users';

/**
 * The cross-site request rule (auth/same-origin.ts, docs/decisions.md): a write that a page of
 * another origin could make with the visitor's cookies is 403 and changes nothing.
 */
const CROSS_ORIGIN = 'This request came from another site and was refused. Please use Inkwell itself.';
const PUBLIC_ORIGIN = 'http://localhost:3000'; // PUBLIC_URL of createTestApp

describe('Cross-origin writes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const cookieOf = (user: TestUser) => `inkwell_access=${user.token}`;
  const profile = (user: TestUser) => t.http.get(api('/users/profile')).set('Cookie', cookieOf(user));
  const logout = (user: TestUser) => t.http.post(api('/auth/logout')).set('Cookie', cookieOf(user));

  it("refuses a cookie logout from another origin's page, and the visitor stays signed in", async () => {
    const victim = await createReader(t);
    const res = await logout(victim).set('Origin', 'http://127.0.0.1:4999').set('Sec-Fetch-Site', 'same-site').expect(403);
    expect(res.body).toEqual(err(403, CROSS_ORIGIN));
    expect(res.headers['set-cookie']).toBeUndefined();
    await profile(victim).expect(200);
  });

  it('refuses Origin: null (sandboxed frames, opaque origins)', async () => {
    const victim = await createReader(t);
    await logout(victim).set('Origin', 'null').expect(403);
    await profile(victim).expect(200);
  });

  it('refuses a cross-site or same-site Sec-Fetch-Site when no Origin comes', async () => {
    const victim = await createReader(t);
    for (const site of ['cross-site', 'same-site']) await logout(victim).set('Sec-Fetch-Site', site).expect(403);
    await profile(victim).expect(200);
  });

  it('refuses every state-changing method before its body is read, with the data unchanged', async () => {
    const victim = await createReader(t);
    const evil = { Origin: 'https://evil.example', 'X-Request-Timestamp': String(Date.now()) };
    await t.http.put(api('/users/profile')).set('Cookie', cookieOf(victim)).set(evil).send({ fullName: 'Hijacked Name' }).expect(403);
    await t.http.patch(api('/users/profile')).set('Cookie', cookieOf(victim)).set(evil).send({ fullName: 'Hijacked Name' }).expect(403);
    await t.http.delete(api('/comments/1')).set('Cookie', cookieOf(victim)).set(evil).expect(403);
    // A body that would be 400 (malformed JSON) is never parsed: the 403 comes first.
    await t.http
      .post(api('/comments'))
      .set('Cookie', cookieOf(victim))
      .set(evil)
      .set('Content-Type', 'application/json')
      .send('{"broken')
      .expect(403);
    expect((await profile(victim).expect(200)).body.data.fullName).toBe(victim.fullName);
  });

  it('refuses a cookie-less sign-in posted by another origin (login CSRF)', async () => {
    const res = await t.http
      .post(api('/auth/login'))
      .set('Origin', 'https://evil.example')
      .send({ email: 'someone@example.test', password: 'x' })
      .expect(403);
    expect(res.body).toEqual(err(403, CROSS_ORIGIN));
  });

  it("accepts the server's own origin: PUBLIC_URL, the request's Host, or Sec-Fetch-Site: same-origin", async () => {
    const first = await createReader(t);
    await logout(first).set('Origin', PUBLIC_ORIGIN).set('Sec-Fetch-Site', 'same-origin').expect(200);
    await profile(first).expect(401);

    const second = await createReader(t);
    const host = 'blog.internal:8080';
    await logout(second).set('Host', host).set('Origin', `https://${host}`).expect(200);
    await profile(second).expect(401);

    const third = await createReader(t);
    await logout(third).set('Sec-Fetch-Site', 'same-origin').expect(200);
    await profile(third).expect(401);
  });

  it('accepts a Bearer token without a session cookie from anywhere (a foreign page cannot attach it)', async () => {
    const user = await createReader(t);
    await t.http.post(api('/auth/logout')).set(user.auth).set('Origin', 'https://other-app.example').expect(200);
    await t.http.get(api('/users/profile')).set(user.auth).expect(401);
  });

  it('still refuses a foreign origin when a Bearer token comes with a session cookie', async () => {
    const user = await createReader(t);
    await logout(user).set(user.auth).set('Origin', 'https://evil.example').expect(403);
    await profile(user).expect(200);
  });

  it('accepts non-browser clients that send neither Origin nor Sec-Fetch-Site', async () => {
    const user = await createReader(t);
    await logout(user).expect(200);
    await profile(user).expect(401);
  });

  it('leaves reads alone whatever their origin', async () => {
    const user = await createReader(t);
    await profile(user).set('Origin', 'https://evil.example').set('Sec-Fetch-Site', 'cross-site').expect(200);
  });
});

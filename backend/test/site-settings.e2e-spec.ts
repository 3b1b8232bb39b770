import { generate } from 'otplib';
import { api, err, ok } from './helpers/envelope';
import { createTestApp, TestApp } from './helpers/app';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, createAuthor } from './helpers/users';

// Settings are site-wide: a database of this suite's own, so no other suite's rules see its changes.
describe('Site settings (admin)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ databaseUrl: await createFreshDatabase('inkwell_settings') });
  }, 60_000);
  afterAll(() => t.close());

  it('answers the defaults until an admin changes a key, then keeps the others', async () => {
    const admin = await createAdmin(t);
    const read = await t.http.get(api('/admin/settings')).set(admin.auth).expect(200);
    expect(read.body).toEqual(ok({ requireAdminTwoFactor: false, erasedAuthorPosts: 'reassign' }));

    const changed = await t.http.patch(api('/admin/settings')).set(admin.auth).send({ erasedAuthorPosts: 'delete' }).expect(200);
    expect(changed.body).toEqual(ok({ requireAdminTwoFactor: false, erasedAuthorPosts: 'delete' }, 'Settings saved'));
    const again = await t.http.get(api('/admin/settings')).set(admin.auth).expect(200);
    expect(again.body.data).toEqual({ requireAdminTwoFactor: false, erasedAuthorPosts: 'delete' });
  });

  it('refuses wrong values with the field error, and anyone but an admin', async () => {
    const admin = await createAdmin(t);
    const wrong = await t.http
      .patch(api('/admin/settings'))
      .set(admin.auth)
      .send({ requireAdminTwoFactor: 'yes', erasedAuthorPosts: 'keep' })
      .expect(400);
    expect(wrong.body.errors).toEqual({
      requireAdminTwoFactor: ['requireAdminTwoFactor must be true or false'],
      erasedAuthorPosts: ['erasedAuthorPosts must be one of reassign, delete'],
    });
    const author = await createAuthor(t);
    const forbidden = await t.http.get(api('/admin/settings')).set(author.auth).expect(403);
    expect(forbidden.body).toEqual(err(403, 'You do not have permission to manage site settings.'));
    const anonymous = await t.http.patch(api('/admin/settings')).send({ erasedAuthorPosts: 'delete' }).expect(401);
    expect(anonymous.body).toEqual(err(401, 'Authentication required. Please log in to manage site settings.'));
  });

  it("refuses 'Require 2FA for administrators' from an admin without two-factor sign-in (409, nothing changed): it would lock them out", async () => {
    const admin = await createAdmin(t);
    const refused = await t.http
      .patch(api('/admin/settings'))
      .set(admin.auth)
      .send({ requireAdminTwoFactor: true, erasedAuthorPosts: 'delete' })
      .expect(409);
    expect(refused.body).toEqual(
      err(
        409,
        'Turn on two-factor sign-in for your own account first (Account Security): requiring it for administrators now would lock you out of the admin area.',
      ),
    );
    expect((await t.http.get(api('/admin/settings')).set(admin.auth).expect(200)).body.data.requireAdminTwoFactor).toBe(false);
    // Turning it off (or leaving it off) needs nothing.
    await t.http.patch(api('/admin/settings')).set(admin.auth).send({ requireAdminTwoFactor: false }).expect(200);

    // With two-factor sign-in on, the admin may turn it on, and still reach the switch back.
    const secret = (await t.http.post(api('/account/two-factor/setup')).set(admin.auth).expect(200)).body.data.secret as string;
    await t.http
      .post(api('/account/two-factor/confirm'))
      .set(admin.auth)
      .send({ code: await generate({ secret }) })
      .expect(200);
    await t.http.patch(api('/admin/settings')).set(admin.auth).send({ requireAdminTwoFactor: true }).expect(200);
    await t.http.patch(api('/admin/settings')).set(admin.auth).send({ requireAdminTwoFactor: false }).expect(200);
  });
});

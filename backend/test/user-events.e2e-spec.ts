import { DataSource } from 'typeorm';
import { DomainEvents } from '../src/events/domain-events.service';
import { PasswordHasher } from '../src/auth/password-hasher';
import { login, STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { codeOf, MailCatcher, resetTokenOf, startMailCatcher } from './helpers/mail';
import { createAdmin, createReader, TestUser } from './helpers/users';

interface EventRow {
  name: string;
  subject_type: string;
  subject_id: number;
  actor_id: number | null;
  data: Record<string, unknown>;
}

/**
 * The user lifecycle and TagsService record their events in the change's transaction (table
 * domain_events), with the payloads docs/events.md names; the audit entries follow them; a step
 * that fails inside the transaction leaves neither the change nor its event.
 */
describe('User and tag events', () => {
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
    await t?.close();
    await mail?.close();
  });

  const eventsAbout = (type: string, id: number): Promise<EventRow[]> =>
    db.query(
      `SELECT name, subject_type, subject_id, actor_id, data FROM domain_events WHERE subject_type = $1 AND subject_id = $2 ORDER BY id`,
      [type, id],
    );
  const auditTypes = async (type: string, id: number): Promise<string[]> =>
    (
      (await db.query(`SELECT type FROM audit_log WHERE target_type = $1 AND target_id = $2 ORDER BY id`, [type, id])) as { type: string }[]
    ).map((row) => row.type);
  const facts = (user: { id: number; email: string; fullName: string }, status: string, roles: string[], verified = true) => ({
    userId: user.id,
    email: user.email,
    fullName: user.fullName,
    status,
    verified,
    roles,
  });

  it('a sign-up records user.registered and the verification user.verified, with no password, hash or code in them', async () => {
    const email = uniqueEmail('events');
    const since = mail.messages.length;
    const registered = await t.http
      .post(api('/auth/register'))
      .send({ fullName: 'Eve Events', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
      .expect(201);
    const id = registered.body.data.id as number;
    const code = codeOf(await mail.waitFor(email, { since }));
    await t.http.post(api('/auth/verify-email')).send({ email, verificationCode: code }).expect(200);

    const user = { id, email, fullName: 'Eve Events' };
    const rows = await eventsAbout('user', id);
    expect(rows).toEqual([
      { name: 'user.registered', subject_type: 'user', subject_id: id, actor_id: id, data: facts(user, 'PENDING', ['USER'], false) },
      { name: 'user.verified', subject_type: 'user', subject_id: id, actor_id: id, data: facts(user, 'ACTIVE', ['USER']) },
    ]);
    const [{ password_hash: hash }] = (await db.query('SELECT password_hash FROM users WHERE id = $1', [id])) as {
      password_hash: string;
    }[];
    const stored = JSON.stringify(rows);
    for (const secret of [STRONG_PASSWORD, hash, code]) expect(stored).not.toContain(secret);
    expect(stored).not.toMatch(/password|hash|token|code/i);
    expect(await auditTypes('user', id)).toEqual(['USER_REGISTERED']);
  });

  it('an administrator creating an account records user.created via admin, the administrator as actor', async () => {
    const email = uniqueEmail('created');
    const res = await t.http
      .post(api('/admin/users'))
      .set(admin.auth)
      .send({
        fullName: 'Cay Created',
        email,
        password: 'secret1',
        confirmPassword: 'secret1',
        roles: ['AUTHOR'],
        status: 'BANNED',
        markEmailAsVerified: true,
      })
      .expect(201);
    const id = res.body.data.id as number;
    expect(await eventsAbout('user', id)).toEqual([
      {
        name: 'user.created',
        subject_type: 'user',
        subject_id: id,
        actor_id: admin.id,
        data: { ...facts({ id, email, fullName: 'Cay Created' }, 'BANNED', ['AUTHOR']), via: 'admin' },
      },
    ]);
    // Created BANNED: the open ban names the creating administrator.
    expect(await db.query('SELECT reason, banned_by FROM user_bans WHERE user_id = $1 AND unbanned_at IS NULL', [id])).toEqual([
      { reason: 'Account created with status BANNED', banned_by: admin.id },
    ]);
    expect(await auditTypes('user', id)).toEqual(['USER_CREATED']);
  });

  it('a ban records user.banned (reason, note, previous status) and an unban user.unbanned', async () => {
    const reader = await createReader(t);
    await t.http
      .post(api(`/admin/users/${reader.id}/ban`))
      .set(admin.auth)
      .send({ reason: 'Spam links', adminNote: 'Seen twice' })
      .expect(200);
    await t.http
      .post(api(`/admin/users/${reader.id}/unban`))
      .set(admin.auth)
      .send({ reason: 'Appealed', adminNote: null })
      .expect(200);
    expect(await eventsAbout('user', reader.id)).toEqual([
      {
        name: 'user.banned',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: admin.id,
        data: { ...facts(reader, 'BANNED', ['USER']), reason: 'Spam links', adminNote: 'Seen twice', previousStatus: 'ACTIVE' },
      },
      {
        name: 'user.unbanned',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: admin.id,
        data: { ...facts(reader, 'ACTIVE', ['USER']), reason: 'Appealed', adminNote: null },
      },
    ]);
    expect(await auditTypes('user', reader.id)).toEqual(['USER_BANNED', 'USER_UNBANNED']);
  });

  it('a mute records user.muted and an unmute user.unmuted (the lifted mute)', async () => {
    const reader = await createReader(t);
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await t.http
      .post(api(`/admin/users/${reader.id}/mute`))
      .set(admin.auth)
      .send({ until, reason: 'Cool down' })
      .expect(200);
    await t.http
      .delete(api(`/admin/users/${reader.id}/mute`))
      .set(admin.auth)
      .expect(200);
    expect(await eventsAbout('user', reader.id)).toEqual([
      {
        name: 'user.muted',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: admin.id,
        data: { ...facts(reader, 'ACTIVE', ['USER']), reason: 'Cool down', until },
      },
      {
        name: 'user.unmuted',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: admin.id,
        data: { ...facts(reader, 'ACTIVE', ['USER']), reason: 'Cool down', until },
      },
    ]);
    expect(await auditTypes('user', reader.id)).toEqual(['USER_MUTED', 'USER_UNMUTED']);
  });

  it("an administrator's edit records user.updated with its changes, and user.roles_changed when the roles moved", async () => {
    const reader = await createReader(t);
    await t.http
      .put(api(`/admin/users/${reader.id}`))
      .set(admin.auth)
      .send({ fullName: 'Renamed Reader', roles: ['AUTHOR'] })
      .expect(200);
    const renamed = { ...reader, fullName: 'Renamed Reader' };
    expect(await eventsAbout('user', reader.id)).toEqual([
      {
        name: 'user.updated',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: admin.id,
        data: {
          ...facts(renamed, 'ACTIVE', ['AUTHOR']),
          via: 'admin',
          changes: { fullName: { from: reader.fullName, to: 'Renamed Reader' }, roles: { from: ['USER'], to: ['AUTHOR'] } },
        },
      },
      {
        name: 'user.roles_changed',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: admin.id,
        data: { ...facts(renamed, 'ACTIVE', ['AUTHOR']), previousRoles: ['USER'] },
      },
    ]);
    expect(await auditTypes('user', reader.id)).toEqual(['USER_UPDATED']);
  });

  it("the owner's profile edit records user.updated via self (and no audit entry)", async () => {
    const reader = await createReader(t);
    await t.http.put(api('/users/profile')).set(reader.auth).send({ fullName: 'Self Named', location: 'Hanoi' }).expect(200);
    expect(await eventsAbout('user', reader.id)).toEqual([
      {
        name: 'user.updated',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: reader.id,
        data: {
          ...facts({ ...reader, fullName: 'Self Named' }, 'ACTIVE', ['USER']),
          via: 'self',
          changes: { fullName: { from: reader.fullName, to: 'Self Named' }, location: { from: null, to: 'Hanoi' } },
        },
      },
    ]);
    expect(await auditTypes('user', reader.id)).toEqual([]);
  });

  it('a password set by its owner, through a reset link or by an administrator records user.password_changed; the sessions its rule names end with it', async () => {
    const reader = await createReader(t);
    await db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [await t.app.get(PasswordHasher).hash(STRONG_PASSWORD), reader.id]);
    const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
    const live = async () =>
      (
        (await db.query('SELECT DISTINCT family_id FROM refresh_sessions WHERE user_id = $1 AND revoked_at IS NULL ORDER BY family_id', [
          reader.id,
        ])) as { family_id: string }[]
      ).map((row) => row.family_id);
    const current = sidOf(reader.token);
    const other = sidOf((await login(t, reader.email, STRONG_PASSWORD)).accessToken);
    expect(await live()).toEqual([current, other].sort());

    // The owner's change: every session but the one that asked ends.
    await t.http
      .post(api('/user/change-password'))
      .set(reader.auth)
      .send({ currentPassword: STRONG_PASSWORD, newPassword: 'N3w!Password', confirmNewPassword: 'N3w!Password' })
      .expect(200);
    expect(await live()).toEqual([current]);
    // A reset link: every session ends.
    const since = mail.messages.length;
    await t.http.post(api('/auth/forgot-password')).send({ email: reader.email }).expect(200);
    const { token } = resetTokenOf(await mail.waitFor(reader.email, { since }));
    await t.http
      .post(api('/auth/reset-password'))
      .send({ token, newPassword: 'An0ther!Pass', confirmPassword: 'An0ther!Pass' })
      .expect(200);
    expect(await live()).toEqual([]);
    // An administrator's generated password: every session ends, and it is audit-logged.
    await login(t, reader.email, 'An0ther!Pass');
    const generated = await t.http
      .post(api(`/admin/users/${reader.id}/generate-password`))
      .set(admin.auth)
      .expect(200);
    expect(await live()).toEqual([]);

    const passwordEvents = (await eventsAbout('user', reader.id)).filter((row) => row.name === 'user.password_changed');
    expect(passwordEvents).toEqual([
      {
        name: 'user.password_changed',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: reader.id,
        data: { ...facts(reader, 'ACTIVE', ['USER']), via: 'change', keptSessionId: current },
      },
      {
        name: 'user.password_changed',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: reader.id,
        data: { ...facts(reader, 'ACTIVE', ['USER']), via: 'reset', keptSessionId: null },
      },
      {
        name: 'user.password_changed',
        subject_type: 'user',
        subject_id: reader.id,
        actor_id: admin.id,
        data: { ...facts(reader, 'ACTIVE', ['USER']), via: 'admin', keptSessionId: null },
      },
    ]);
    const [{ password_hash: hash }] = (await db.query('SELECT password_hash FROM users WHERE id = $1', [reader.id])) as {
      password_hash: string;
    }[];
    const stored = JSON.stringify(passwordEvents);
    for (const secret of [STRONG_PASSWORD, 'N3w!Password', 'An0ther!Pass', generated.body.data.newPassword as string, hash, token])
      expect(stored).not.toContain(secret);
    expect(await auditTypes('user', reader.id)).toEqual(['PASSWORD_GENERATED']);
  });

  it("a tag's create, edit, deactivation and deletion record tag.created, tag.updated, tag.deactivated and tag.deleted", async () => {
    const name = `Evented ${uid()}`;
    const created = await t.http.post(api('/blog/tags')).set(admin.auth).send({ name }).expect(201);
    const { id, slug } = created.body.data as { id: number; slug: string };
    await t.http
      .put(api(`/blog/tags/${id}`))
      .set(admin.auth)
      .send({ slug: `${slug}-moved`, description: 'Now described' })
      .expect(200);
    await t.http
      .delete(api(`/blog/tags/${id}/deactivate`))
      .set(admin.auth)
      .expect(200);
    await t.http
      .delete(api(`/blog/tags/${id}`))
      .set(admin.auth)
      .expect(204);
    const tag = (active: boolean, tagSlug = `${slug}-moved`) => ({ tagId: id, name, slug: tagSlug, active });
    expect(await eventsAbout('tag', id)).toEqual([
      { name: 'tag.created', subject_type: 'tag', subject_id: id, actor_id: admin.id, data: tag(true, slug) },
      {
        name: 'tag.updated',
        subject_type: 'tag',
        subject_id: id,
        actor_id: admin.id,
        data: { ...tag(true), previousSlug: slug, changed: ['slug', 'description'] },
      },
      { name: 'tag.deactivated', subject_type: 'tag', subject_id: id, actor_id: admin.id, data: tag(false) },
      { name: 'tag.deleted', subject_type: 'tag', subject_id: id, actor_id: admin.id, data: tag(false) },
    ]);
    expect(await auditTypes('tag', id)).toEqual(['TAG_CREATED', 'TAG_UPDATED', 'TAG_DEACTIVATED', 'TAG_DELETED']);
  });

  it('a step failing inside the transaction leaves neither the change nor its event (nor its audit entry, nor the ended sessions)', async () => {
    const reader = await createReader(t);
    // An in-transaction subscriber that fails for this account only, after the ban's own writes.
    t.app.get(DomainEvents).onRecorded('user.banned', async (event) => {
      if (event.data.userId === reader.id) throw new Error('a subscriber failed');
    });
    await t.http
      .post(api(`/admin/users/${reader.id}/ban`))
      .set(admin.auth)
      .send({ reason: 'Never lands' })
      .expect(500);

    expect(await db.query('SELECT status FROM users WHERE id = $1', [reader.id])).toEqual([{ status: 'ACTIVE' }]);
    expect(await db.query('SELECT count(*)::int AS bans FROM user_bans WHERE user_id = $1', [reader.id])).toEqual([{ bans: 0 }]);
    expect(
      await db.query('SELECT count(*)::int AS ended FROM refresh_sessions WHERE user_id = $1 AND revoked_at IS NOT NULL', [reader.id]),
    ).toEqual([{ ended: 0 }]);
    expect(await eventsAbout('user', reader.id)).toEqual([]);
    expect(await auditTypes('user', reader.id)).toEqual([]);
    // The account still signs in with its session.
    await t.http.get(api('/users/profile')).set(reader.auth).expect(200);
  });
});

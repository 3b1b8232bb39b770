import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RoleName } from '../src/users/roles';
import { AuthMessages } from '../src/auth/auth.messages';
import { ApiTokensMessages } from '../src/api-tokens/api-tokens.messages';
import { UserLifecycleMessages } from '../src/users/user-lifecycle.messages';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, uid } from './helpers/envelope';
import { createUser, TestUser } from './helpers/users';

/**
 * Personal API tokens: created, listed and revoked by a signed-in session on
 * /account/tokens; used as `Authorization: Bearer inkw_…`, acting as their user within their
 * scopes; refused on every sign-in and account route; stopped at once by a revocation, a ban or
 * the expiry; rate-limited per token.
 */
const MISSING = 999999;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** A supertest check that the answer's body is `wanted` (asymmetric matchers allowed). */
const answers = (wanted: unknown) => (res: { body: unknown }) => expect(res.body).toEqual(wanted);

describe('API tokens', () => {
  let t: TestApp;
  let db: DataSource;
  let author: TestUser;
  let admin: TestUser;

  async function createToken(owner: TestUser, scopes: string[], expiresInDays: number | null = 30): Promise<{ id: number; token: string }> {
    const res = await t.http
      .post(api('/account/tokens'))
      .set(owner.auth)
      .send({ name: `Token ${uid()}`, scopes, expiresInDays });
    if (res.status !== 201) throw new Error(`token not created: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.data.id as number, token: res.body.data.token as string };
  }

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    author = await createUser(t, [RoleName.AUTHOR]);
    admin = await createUser(t, [RoleName.ADMIN]);
  });
  afterAll(() => t.close());

  it('creates a token shown once, lists it without the token, stores only its SHA-256, and revokes it', async () => {
    const created = await t.http
      .post(api('/account/tokens'))
      .set(author.auth)
      .send({ name: '  Publishing script ', scopes: ['read', 'posts:write'], expiresInDays: 90 })
      .expect(201);
    const token = created.body.data.token as string;
    expect(token).toMatch(/^inkw_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toEqual({
      success: true,
      status: 201,
      message: ApiTokensMessages.CREATED,
      errors: null,
      data: {
        id: expect.any(Number),
        name: 'Publishing script',
        scopes: ['read', 'posts:write'],
        createdAt: ISO,
        expiresAt: ISO,
        lastUsedAt: null,
        token,
      },
    });
    const days = (Date.parse(created.body.data.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);

    const listed = await t.http.get(api('/account/tokens')).set(author.auth).expect(200);
    const { token: _shownOnce, ...summary } = created.body.data;
    expect(listed.body.data).toEqual([summary]);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const rows = (await db.query(`SELECT * FROM api_tokens WHERE user_id = $1`, [author.id])) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token.slice(5));

    // Another user's token is as missing as an unknown one.
    await t.http
      .delete(api(`/account/tokens/${summary.id}`))
      .set(admin.auth)
      .expect(404)
      .expect(answers(err(404, ApiTokensMessages.NOT_FOUND)));
    await t.http.get(api('/users/profile')).set(bearer(token)).expect(200);
    await t.http
      .delete(api(`/account/tokens/${summary.id}`))
      .set(author.auth)
      .expect(204);
    // Revoked: refused at once, gone from the list, and a second revocation is 404.
    await t.http
      .get(api('/users/profile'))
      .set(bearer(token))
      .expect(401)
      .expect(answers(err(401, ApiTokensMessages.INVALID)));
    expect((await t.http.get(api('/account/tokens')).set(author.auth).expect(200)).body.data).toEqual([]);
    await t.http
      .delete(api(`/account/tokens/${summary.id}`))
      .set(author.auth)
      .expect(404)
      .expect(answers(err(404, ApiTokensMessages.NOT_FOUND)));
    await t.http.delete(api('/account/tokens/abc')).set(author.auth).expect(400);
  });

  it('keeps the cap of 50 tokens under simultaneous creates: 45 held and 20 at once leave exactly 50', async () => {
    const owner = await createUser(t, [RoleName.AUTHOR]);
    for (let i = 0; i < 45; i++) await createToken(owner, ['read']);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.http
          .post(api('/account/tokens'))
          .set(owner.auth)
          .send({ name: `Burst ${i}`, scopes: ['read'], expiresInDays: 30 }),
      ),
    );
    expect(results.filter((res) => res.status === 201)).toHaveLength(5);
    const refused = results.filter((res) => res.status !== 201);
    expect(refused).toHaveLength(15);
    for (const res of refused) expect(res.body).toEqual(err(409, ApiTokensMessages.tooMany(50)));
    const [{ count }] = (await db.query('SELECT count(*)::int AS count FROM api_tokens WHERE user_id = $1', [owner.id])) as {
      count: number;
    }[];
    expect(count).toBe(50);
  });

  it('refuses bad input with 400 and the field message, and anonymous callers with 401', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ scopes: ['read'], expiresInDays: 30 }, 'name', ApiTokensMessages.NAME_REQUIRED],
      [{ name: '   ', scopes: ['read'], expiresInDays: 30 }, 'name', ApiTokensMessages.NAME_REQUIRED],
      [{ name: 'x'.repeat(101), scopes: ['read'], expiresInDays: 30 }, 'name', ApiTokensMessages.NAME_MAX],
      [{ name: 'n', scopes: [], expiresInDays: 30 }, 'scopes', ApiTokensMessages.SCOPES_REQUIRED],
      [{ name: 'n', scopes: 'read', expiresInDays: 30 }, 'scopes', ApiTokensMessages.SCOPES_REQUIRED],
      [{ name: 'n', scopes: ['read', 'write'], expiresInDays: 30 }, 'scopes', ApiTokensMessages.SCOPES_INVALID],
      [{ name: 'n', scopes: ['read', 'read'], expiresInDays: 30 }, 'scopes', ApiTokensMessages.SCOPES_REPEATED],
      [{ name: 'n', scopes: ['read'], expiresInDays: 7 }, 'expiresInDays', ApiTokensMessages.EXPIRY_INVALID],
      [{ name: 'n', scopes: ['read'] }, 'expiresInDays', ApiTokensMessages.EXPIRY_INVALID],
      [{ name: 'n', scopes: ['read'], expiresInDays: '30' }, 'expiresInDays', ApiTokensMessages.EXPIRY_INVALID],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.http.post(api('/account/tokens')).set(author.auth).send(body);
      expect({ status: res.status, message: res.body.message, field: res.body.errors?.[field]?.[0] }).toEqual({
        status: 400,
        message,
        field: message,
      });
    }
    await t.http
      .post(api('/account/tokens'))
      .send({ name: 'n', scopes: ['read'], expiresInDays: 30 })
      .expect(401)
      .expect(answers(err(401, AuthMessages.AUTH_REQUIRED)));
    expect(await db.query(`SELECT 1 FROM api_tokens WHERE user_id = $1`, [author.id])).toEqual([]);
  });

  it('offers the admin scope to administrators only, and the role still applies to a token', async () => {
    await t.http
      .post(api('/account/tokens'))
      .set(author.auth)
      .send({ name: 'n', scopes: ['read', 'admin'], expiresInDays: null })
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.ADMIN_SCOPE_FORBIDDEN)));

    const demoted = await createUser(t, [RoleName.ADMIN]);
    const { token } = await createToken(demoted, ['read', 'admin'], null);
    await t.http.get(api('/admin/users')).set(bearer(token)).expect(200);
    await db.query(`DELETE FROM user_roles WHERE user_id = $1`, [demoted.id]);
    await db.query(`INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = 'AUTHOR'`, [demoted.id]);
    // Its admin scope no longer makes an administrator of an AUTHOR.
    await t.http
      .get(api('/admin/users'))
      .set(bearer(token))
      .expect(403)
      .expect(answers(err(403, UserLifecycleMessages.FORBIDDEN)));
  });

  it("audit-logs a token with the admin scope when made and revoked, by name; other tokens are their owner's business", async () => {
    const owner = await createUser(t, [RoleName.ADMIN]);
    const entries = async () =>
      (await db.query(
        `SELECT type, actor_id, title, description FROM audit_log WHERE target_type = 'user' AND target_id = $1 AND type LIKE 'ADMIN_TOKEN_%' ORDER BY id`,
        [owner.id],
      )) as Record<string, unknown>[];
    const plain = await createToken(owner, ['read']);
    await t.http
      .delete(api(`/account/tokens/${plain.id}`))
      .set(owner.auth)
      .expect(204);
    expect(await entries()).toEqual([]);

    const created = await t.http
      .post(api('/account/tokens'))
      .set(owner.auth)
      .send({ name: 'Nightly backup', scopes: ['read', 'admin'], expiresInDays: 30 })
      .expect(201);
    await t.http
      .delete(api(`/account/tokens/${created.body.data.id}`))
      .set(owner.auth)
      .expect(204);
    const logged = await entries();
    expect(logged).toEqual([
      {
        type: 'ADMIN_TOKEN_CREATED',
        actor_id: owner.id,
        title: 'Admin API token created',
        description: `${owner.fullName} created the API token "Nightly backup" with the admin scope`,
      },
      {
        type: 'ADMIN_TOKEN_REVOKED',
        actor_id: owner.id,
        title: 'Admin API token revoked',
        description: `${owner.fullName} revoked the API token "Nightly backup" with the admin scope`,
      },
    ]);
    expect(JSON.stringify(await db.query(`SELECT * FROM audit_log WHERE target_id = $1`, [owner.id]))).not.toContain(
      created.body.data.token.slice(5),
    );
    // Every token made or revoked is an event of its owner's (the audit log keeps the admin ones); never its value.
    const stream = (await db.query(
      `SELECT name, actor_id, data->'apiToken' AS token FROM domain_events WHERE subject_type = 'user' AND subject_id = $1 AND name LIKE 'user.api_token_%' ORDER BY id`,
      [owner.id],
    )) as {
      name: string;
      actor_id: number;
      token: Record<string, unknown>;
    }[];
    expect(stream.map((row) => [row.name, row.actor_id, row.token.name, row.token.scopes])).toEqual([
      ['user.api_token_created', owner.id, expect.any(String), ['read']],
      ['user.api_token_revoked', owner.id, expect.any(String), ['read']],
      ['user.api_token_created', owner.id, 'Nightly backup', ['read', 'admin']],
      ['user.api_token_revoked', owner.id, 'Nightly backup', ['read', 'admin']],
    ]);
    expect(stream[2].token).toEqual({
      tokenId: created.body.data.id,
      name: 'Nightly backup',
      scopes: ['read', 'admin'],
      expiresAt: created.body.data.expiresAt,
    });
    const stored = JSON.stringify(
      await db.query(`SELECT data FROM domain_events WHERE subject_type = 'user' AND subject_id = $1`, [owner.id]),
    );
    expect(stored).not.toContain(created.body.data.token.slice(5));
    expect(stored).not.toContain(plain.token.slice(5));
  });

  it('admits each scope where it is needed and refuses it elsewhere with "token lacks scope"', async () => {
    const reader = await createToken(author, ['read']);
    const poster = await createToken(author, ['posts:write']);
    const commenter = await createToken(author, ['comments:write']);
    const everything = await createToken(author, ['read', 'posts:write', 'comments:write']);
    const adminRead = await createToken(admin, ['read']);
    const adminAll = await createToken(admin, ['read', 'admin']);

    // read: GET routes, as the token's user.
    const profile = await t.http.get(api('/users/profile')).set(bearer(reader.token)).expect(200);
    expect(profile.body.data).toMatchObject({ id: author.id, email: author.email });
    await t.http
      .get(api('/users/profile'))
      .set(bearer(poster.token))
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.lacksScope('read'))));

    // posts:write: the author's own posts.
    const slug = `token-post-${uid()}`;
    const post = { title: 'Written with a token', slug, summary: 'S', content: 'Body', tagSlugs: [] };
    const created = await t.http.post(api('/blog/posts/author/create')).set(bearer(poster.token)).send(post).expect(201);
    expect(created.body.data).toMatchObject({ slug, status: 'DRAFT' });
    await t.http
      .post(api('/blog/posts/author/create'))
      .set(bearer(reader.token))
      .send({ ...post, slug: `${slug}-2` })
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.lacksScope('posts:write'))));
    await t.http
      .delete(api(`/blog/posts/${created.body.data.id}`))
      .set(bearer(commenter.token))
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.lacksScope('posts:write'))));

    // comments:write: past the guard (the post does not exist: 404), and refused without it.
    await t.http.post(api('/comments')).set(bearer(commenter.token)).send({ postId: MISSING, content: 'Token comment' }).expect(404);
    await t.http
      .post(api('/comments'))
      .set(bearer(poster.token))
      .send({ postId: MISSING, content: 'Token comment' })
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.lacksScope('comments:write'))));

    // admin: administrator routes need it, whatever the method and the user's role.
    await t.http.get(api('/admin/users')).set(bearer(adminAll.token)).expect(200);
    await t.http
      .get(api('/admin/users'))
      .set(bearer(adminRead.token))
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.lacksScope('admin'))));
    await t.http
      .get(api('/admin/users'))
      .set(bearer(everything.token))
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.lacksScope('admin'))));
    // Without the admin scope an administrator's token acts without the ADMIN role.
    const adminAsAuthor = await t.http.get(api('/blog/posts/author/my-posts')).set(bearer(adminRead.token));
    expect(adminAsAuthor.status).toBe(403);

    // A write route that declares no scope refuses every token (default deny).
    await t.http
      .put(api('/users/profile'))
      .set(bearer(everything.token))
      .send({ bio: 'x' })
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.SESSION_ONLY)));
    await t.http
      .post(api(`/likes/post/${MISSING}`))
      .set(bearer(everything.token))
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.SESSION_ONLY)));
    // Sessions work exactly as before, and a made-up token is 401.
    await t.http.get(api('/users/profile')).set(author.auth).expect(200);
    await t.http
      .get(api('/users/profile'))
      .set(bearer(`inkw_${'A'.repeat(43)}`))
      .expect(401)
      .expect(answers(err(401, ApiTokensMessages.INVALID)));
    await t.http
      .get(api('/users/profile'))
      .set(bearer('inkw_short'))
      .expect(401)
      .expect(answers(err(401, ApiTokensMessages.INVALID)));
  });

  it('never reaches sign-in, password, token or account routes: every /auth and /account operation refuses a token', async () => {
    const { token } = await createToken(admin, ['read', 'posts:write', 'comments:write', 'admin'], null);
    const document = (await t.http.get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { 'x-required-scope'?: string }>>;
    };
    const reached: string[] = [];
    let walked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!/^\/api\/v1\/(auth|account)(\/|$)/.test(path)) continue;
      for (const [method, operation] of Object.entries(operations)) {
        walked += 1;
        if (operation['x-required-scope'] !== 'session-only')
          reached.push(`${method.toUpperCase()} ${path}: documented as ${operation['x-required-scope']}`);
        const url = path.replace(/\{[^}]+\}/g, '1');
        const res = await (t.http as unknown as Record<string, (url: string) => import('supertest').Test>)
          [method](url)
          .set(bearer(token))
          .send({});
        if (res.status !== 403 || res.body.message !== ApiTokensMessages.SESSION_ONLY)
          reached.push(`${method.toUpperCase()} ${path}: ${res.status} ${res.body.message}`);
      }
    }
    expect(walked).toBeGreaterThanOrEqual(10);
    expect(reached).toEqual([]);
    // The password route sits outside /account and is session-only by its decorator.
    await t.http
      .post(api('/user/change-password'))
      .set(bearer(token))
      .send({ currentPassword: 'x', newPassword: 'Aa1!aaaa', confirmNewPassword: 'Aa1!aaaa' })
      .expect(403)
      .expect(answers(err(403, ApiTokensMessages.SESSION_ONLY)));
  });

  it('stops at once when it expires or its user is banned', async () => {
    const user = await createUser(t, [RoleName.USER]);
    const expiring = await createToken(user, ['read'], 30);
    const banned = await createToken(user, ['read'], null);
    await t.http.get(api('/users/profile')).set(bearer(expiring.token)).expect(200);
    await db.query(`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.id]);
    await t.http
      .get(api('/users/profile'))
      .set(bearer(expiring.token))
      .expect(401)
      .expect(answers(err(401, ApiTokensMessages.EXPIRED)));

    await t.http.get(api('/users/profile')).set(bearer(banned.token)).expect(200);
    await t.http
      .post(api(`/admin/users/${user.id}/ban`))
      .set(admin.auth)
      .send({ reason: 'Token test' })
      .expect(200);
    await t.http
      .get(api('/users/profile'))
      .set(bearer(banned.token))
      .expect(403)
      .expect(answers(err(403, AuthMessages.ACCOUNT_LOCKED)));
  });

  it('records the last use at most once a minute', async () => {
    const user = await createUser(t, [RoleName.USER]);
    const { id, token } = await createToken(user, ['read']);
    const lastUse = async () =>
      ((await db.query(`SELECT last_used_at FROM api_tokens WHERE id = $1`, [id])) as { last_used_at: Date | null }[])[0].last_used_at;
    expect(await lastUse()).toBeNull();
    await t.http.get(api('/users/profile')).set(bearer(token)).expect(200);
    const first = await lastUse();
    expect(first).toBeInstanceOf(Date);
    await t.http.get(api('/users/profile')).set(bearer(token)).expect(200);
    expect(await lastUse()).toEqual(first);
    await db.query(`UPDATE api_tokens SET last_used_at = now() - interval '61 seconds' WHERE id = $1`, [id]);
    await t.http.get(api('/users/profile')).set(bearer(token)).expect(200);
    expect((await lastUse())!.getTime()).toBeGreaterThan(Date.now() - 10_000);
    const listed = (await t.http.get(api('/account/tokens')).set(user.auth).expect(200)).body.data as { id: number; lastUsedAt: string }[];
    expect(listed.find((row) => row.id === id)?.lastUsedAt).toEqual(expect.stringMatching(/^\d{4}-/));
  });

  it('documents the token scheme and the scope of each operation', async () => {
    const document = (await t.http.get('/api/docs-json').expect(200)).body;
    expect(document.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const scopeOf = (method: string, path: string) => document.paths[path][method]['x-required-scope'];
    expect(scopeOf('get', '/api/v1/users/profile')).toBe('read');
    expect(scopeOf('post', '/api/v1/blog/posts/author/create')).toBe('posts:write');
    expect(scopeOf('post', '/api/v1/comments')).toBe('comments:write');
    expect(scopeOf('get', '/api/v1/admin/users')).toBe('admin');
    expect(scopeOf('put', '/api/v1/users/profile')).toBe('session-only');
    expect(scopeOf('post', '/api/v1/account/tokens')).toBe('session-only');
    expect(document.paths['/api/v1/users/profile'].get.security).toContainEqual({ apiToken: [] });
    expect(document.paths['/api/v1/account/tokens'].get.security).not.toContainEqual({ apiToken: [] });
  });
});

describe('API tokens: rate limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ throttle: true });
  });
  afterAll(() => t.close());

  it('counts requests per token, not per address', async () => {
    const user = await createUser(t, [RoleName.USER]);
    const tokens: string[] = [];
    for (const name of ['first', 'second']) {
      const res = await t.http
        .post(api('/account/tokens'))
        .set(user.auth)
        .send({ name, scopes: ['read'], expiresInDays: 30 })
        .expect(201);
      tokens.push(res.body.data.token as string);
    }
    // The global limit is 300 a minute (app.module.ts): the first token spends all of it.
    const statuses = new Map<number, number>();
    for (let i = 0; i < 301; i += 1) {
      const res = await t.http.get(api('/users/profile')).set(bearer(tokens[0]));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 300, 429: 1 });
    // The second token and the session, from the same address, each still have their own budget.
    await t.http.get(api('/users/profile')).set(bearer(tokens[1])).expect(200);
    await t.http.get(api('/users/profile')).set(user.auth).expect(200);
  }, 60_000);
});

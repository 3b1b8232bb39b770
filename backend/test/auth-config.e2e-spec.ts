import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/env';
import { RoleName } from '../src/users/roles';
import { User } from '../src/users/entities/user.entity';
import { UserRole } from '../src/users/entities/user-role.entity';
import { registerVerified, STRONG_PASSWORD, uniqueEmail } from './helpers/accounts';
import { createTestApp } from './helpers/app';
import { createFreshDatabase } from './helpers/fresh-database';
import { startMailCatcher } from './helpers/mail';

/**
 * Accounts behaviour that depends on configuration. Each test runs one app at a time: passport's
 * strategy registry is process-wide, so two live apps in one test file would share the last one.
 */
const API = '/api/v1';

async function appOn(databaseUrl: string, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-seed-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', THROTTLE_DISABLED: '1', ...env });
  const app = await createApp({ config, databaseUrl });
  await app.init();
  return {
    app,
    http: request(app.getHttpServer()),
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function captureStdout(): { lines: () => string; restore: () => void } {
  const chunks: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
    return true;
  }) as typeof process.stdout.write);
  return { lines: () => chunks.join(''), restore: () => spy.mockRestore() };
}

describe('First-start admin seed', () => {
  it('creates admin@example.com with a random password printed once, verified and ACTIVE; idempotent', async () => {
    const databaseUrl = await createFreshDatabase('inkwell_seed_default');
    const out = captureStdout();
    let first;
    try {
      first = await appOn(databaseUrl);
    } finally {
      out.restore();
    }
    const match = /^Admin account created: admin@example\.com \/ (\S+)$/m.exec(out.lines());
    expect(match).not.toBeNull();
    const password = match![1];
    expect(password.length).toBeGreaterThanOrEqual(16);
    try {
      const res = await first.http.post(`${API}/auth/login`).send({ email: 'admin@example.com', password }).expect(200);
      expect(res.body.data.user).toMatchObject({ email: 'admin@example.com', role: 'ADMIN', isVerified: true, status: 'ACTIVE' });
      expect(res.body.data.user.roles.map((r: { name: string }) => r.name)).toEqual(['ADMIN']);
    } finally {
      await first.close();
    }

    const again = captureStdout();
    let second;
    try {
      second = await appOn(databaseUrl);
    } finally {
      again.restore();
    }
    try {
      expect(again.lines()).not.toContain('Admin account created');
      const db = second.app.get(DataSource);
      expect(await db.getRepository(User).countBy({ email: 'admin@example.com' })).toBe(1);
      const admins = await db.getRepository(UserRole).find({ where: { role: { name: RoleName.ADMIN } } });
      expect(admins).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when given, without printing the password', async () => {
    const databaseUrl = await createFreshDatabase('inkwell_seed_env');
    const out = captureStdout();
    let app;
    try {
      app = await appOn(databaseUrl, { ADMIN_EMAIL: 'Boss@Example.TEST', ADMIN_PASSWORD: 'Chosen!Pass1' });
    } finally {
      out.restore();
    }
    try {
      expect(out.lines()).toContain('Admin account created: boss@example.test (password from ADMIN_PASSWORD)');
      expect(out.lines()).not.toContain('Chosen!Pass1');
      const res = await app.http.post(`${API}/auth/login`).send({ email: 'boss@example.test', password: 'Chosen!Pass1' }).expect(200);
      expect(res.body.data.user.role).toBe('ADMIN');
    } finally {
      await app.close();
    }
  });
});

describe('Accounts configuration', () => {
  it('keeps the account and says so when the code e-mail cannot be sent', async () => {
    const t = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      const email = uniqueEmail();
      const res = await t.http
        .post(`${API}/auth/register`)
        .send({ fullName: 'No Mail', email, password: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD })
        .expect(201);
      expect(res.body.message).toBe(
        'Registration successful, but the verification email could not be sent. Please use "Resend code" to get a new one.',
      );
      expect(res.body.data).toMatchObject({ email, status: 'PENDING', isVerified: false });
      expect(await t.app.get(DataSource).getRepository(User).existsBy({ email })).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('marks the session cookies Secure when PUBLIC_URL is https', async () => {
    const mail = await startMailCatcher();
    const t = await createTestApp({ env: { SMTP_URL: mail.url, PUBLIC_URL: 'https://blog.example.test' } });
    try {
      const account = await registerVerified(t, mail);
      const res = await t.http.post(`${API}/auth/login`).send({ email: account.email, password: account.password }).expect(200);
      const cookies = res.headers['set-cookie'] as unknown as string[];
      // The two session cookies and the signed-in hint (isomorphic/public-pages.ts), which scripts may read.
      expect(cookies.map((cookie) => cookie.split('=')[0]).sort()).toEqual(['inkwell_access', 'inkwell_refresh', 'inkwell_signed_in']);
      for (const cookie of cookies) expect(cookie).toMatch(/; Secure/);
      for (const cookie of cookies) expect(/; HttpOnly/.test(cookie)).toBe(!cookie.startsWith('inkwell_signed_in='));

      // The reset link uses PUBLIC_URL too.
      const since = mail.messages.length;
      await t.http
        .post(`${API}/auth/forgot-password`)
        .send({ email: account.email, redirectUrl: 'http://localhost:3000/reset-password' })
        .expect(200);
      const message = await mail.waitFor(account.email, { since });
      expect(message.text).toMatch(/https:\/\/blog\.example\.test\/reset-password\?token=[\w-]{43}/);
    } finally {
      await t.close();
      await mail.close();
    }
  });
});

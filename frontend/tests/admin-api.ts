import { expect, type APIRequestContext } from '@playwright/test';

/** The administrator scripts/browser-tests.mjs seeds (it passes the credentials in the environment). */
export const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? 'admin@inkwell.test';
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'browser-tests-admin-password';

type Playwright = { request: { newContext: (options: object) => Promise<APIRequestContext> } };

/** An API client signed in as the seeded administrator (Bearer token), for making test data. */
export function adminApi(baseURL: string, playwright: Playwright): Promise<APIRequestContext> {
  return apiAs(baseURL, playwright, ADMIN_EMAIL, ADMIN_PASSWORD);
}

/**
 * The access tokens this worker's logins gave, by base URL and e-mail: a login costs a bcrypt hash
 * (several hundred ms on a busy machine) and the files make their data as the same few accounts
 * again and again. A token lives 15 minutes; a Bearer client never renews it, so it is handed out
 * for 10 at most, and only while the server still accepts it (a test may have signed its session
 * out, banned the account or changed its password).
 */
const tokens = new Map<string, { accessToken: string; issuedAt: number }>();
const TOKEN_REUSE_MS = 10 * 60_000;

/** An API client signed in as `email` (Bearer token): a Bearer client needs no Origin for its writes. */
export async function apiAs(baseURL: string, playwright: Playwright, email: string, password: string): Promise<APIRequestContext> {
  const key = `${baseURL} ${email}`;
  const client = (accessToken: string) =>
    playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${accessToken}`, 'X-Request-Timestamp': String(Date.now()) },
    });
  const saved = tokens.get(key);
  if (saved && Date.now() - saved.issuedAt < TOKEN_REUSE_MS) {
    const api = await client(saved.accessToken);
    if ((await api.get('/api/v1/users/profile')).status() === 200) return api;
    await api.dispose();
    tokens.delete(key);
  }
  const issuedAt = Date.now();
  const anonymous = await playwright.request.newContext({ baseURL });
  const login = await anonymous.post('/api/v1/auth/login', { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const { accessToken } = (await login.json()).data as { accessToken: string };
  await anonymous.dispose();
  tokens.set(key, { accessToken, issuedAt });
  return client(accessToken);
}

import { expect, type APIRequestContext } from '@playwright/test';

/** The administrator scripts/browser-tests.mjs seeds (it passes the credentials in the environment). */
export const ADMIN_EMAIL = process.env.E2E_ADMIN_EMAIL ?? 'admin@inkwell.test';
export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? 'browser-tests-admin-password';

type Playwright = { request: { newContext: (options: object) => Promise<APIRequestContext> } };

/** An API client signed in as the seeded administrator (Bearer token), for making test data. */
export function adminApi(baseURL: string, playwright: Playwright): Promise<APIRequestContext> {
  return apiAs(baseURL, playwright, ADMIN_EMAIL, ADMIN_PASSWORD);
}

/** An API client signed in as `email` (Bearer token): a Bearer client needs no Origin for its writes. */
export async function apiAs(baseURL: string, playwright: Playwright, email: string, password: string): Promise<APIRequestContext> {
  const anonymous = await playwright.request.newContext({ baseURL });
  const login = await anonymous.post('/api/v1/auth/login', { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const { accessToken } = (await login.json()).data as { accessToken: string };
  await anonymous.dispose();
  return playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${accessToken}`, 'X-Request-Timestamp': String(Date.now()) } });
}

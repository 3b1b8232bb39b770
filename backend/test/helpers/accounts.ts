import { randomBytes } from 'node:crypto';
import type { TestApp } from './app';
import { codeOf, MailCatcher } from './mail';

export const STRONG_PASSWORD = 'Str0ng!Pass';

/** A unique address per call (tests never share accounts). */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${Date.now().toString(36)}${randomBytes(4).toString('hex')}@example.test`;
}

export interface SignedInUser {
  id: number;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  /** The Set-Cookie values of the login answer, ready for `.set('Cookie', ...)`. */
  cookies: string[];
}

/** Session cookies of an answer as `name=value` pairs. */
export function cookiePairs(setCookie: string[] | string | undefined): string[] {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((cookie) => cookie.split(';')[0]);
}

/** Registers through the API, reads the code from the captured e-mail and verifies. */
export async function registerVerified(
  t: TestApp,
  mail: MailCatcher,
  options: { email?: string; fullName?: string; password?: string } = {},
): Promise<{ id: number; email: string; password: string }> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? STRONG_PASSWORD;
  const since = mail.messages.length;
  const res = await t.http
    .post('/api/v1/auth/register')
    .send({ fullName: options.fullName ?? 'Test Reader', email, password, confirmPassword: password });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  const code = codeOf(await mail.waitFor(email, { since }));
  const verified = await t.http.post('/api/v1/auth/verify-email').send({ email, verificationCode: code });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${JSON.stringify(verified.body)}`);
  return { id: res.body.data.id as number, email, password };
}

export async function login(
  t: TestApp,
  email: string,
  password: string,
  rememberMe = false,
): Promise<Omit<SignedInUser, 'id'> & { id: number }> {
  const res = await t.http.post('/api/v1/auth/login').send({ email, password, rememberMe });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    id: res.body.data.user.id as number,
    email,
    password,
    accessToken: res.body.data.accessToken as string,
    refreshToken: res.body.data.refreshToken as string,
    cookies: cookiePairs(res.headers['set-cookie']),
  };
}

/** Register + verify + login. */
export async function signedInUser(
  t: TestApp,
  mail: MailCatcher,
  options: { email?: string; fullName?: string; password?: string } = {},
): Promise<SignedInUser> {
  const account = await registerVerified(t, mail, options);
  return login(t, account.email, account.password);
}

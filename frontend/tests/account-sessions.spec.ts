import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi } from './admin-api';

/**
 * 'Where you're signed in' on /account: the list with this device marked, signing
 * another session out (its access token is refused at once), the empty state that follows, and
 * axe at 320 px and on a desktop width. The other session is an API client with a Firefox user agent.
 */

const PASSWORD = 'Sessions-Passw0rd!';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

test('lists the sessions, signs another one out at once; axe at 320 px and desktop', async ({
  page,
  baseURL,
  playwright,
  signIn,
  hydrated,
}) => {
  const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const who = { fullName: `Sessions ${unique}`, email: `sessions-${unique}@inkwell.test` };
  const admin = await adminApi(baseURL!, playwright);
  const created = await admin.post('/api/v1/admin/users', {
    data: { ...who, password: PASSWORD, confirmPassword: PASSWORD, roles: ['USER'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();

  // Another device: signed in through the API with a Firefox on Windows user agent.
  const laptop = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'User-Agent': FIREFOX_WINDOWS } });
  const login = await laptop.post('/api/v1/auth/login', { data: { email: who.email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const laptopToken = ((await login.json()).data as { accessToken: string }).accessToken;
  const laptopProfile = () => laptop.get('/api/v1/users/profile', { headers: { Authorization: `Bearer ${laptopToken}` } });
  expect((await laptopProfile()).status()).toBe(200);

  await signIn({ email: who.email, password: PASSWORD });
  await page.setViewportSize({ width: 320, height: 720 });
  await page.goto('/account');
  await hydrated('AccountSessions');
  const section = page.getByRole('region', { name: "Where you're signed in" });
  const items = section.getByRole('list').getByRole('listitem');
  await expect(items).toHaveCount(2);
  // This device first, marked, without a Sign out of its own; the other one with its device and place.
  await expect(items.first()).toContainText('This device');
  await expect(items.first().getByRole('button')).toHaveCount(0);
  await expect(items.nth(1)).toContainText('Firefox on Windows');
  await expect(items.nth(1)).toContainText('Local network');
  await expect(section.getByRole('checkbox', { name: 'E-mail me when my account is signed in to from a new device' })).toBeChecked();
  // Usable at 320 px: nothing wider than the window.
  expect(
    await section.evaluate((element) => element.scrollWidth <= element.clientWidth && document.documentElement.scrollWidth <= 320),
  ).toBe(true);
  await expectNoSeriousViolations(page, '/account sessions (320 px)');

  // Keyboard: the per-session button by its label, Enter signs it out.
  const signOut = section.getByRole('button', { name: 'Sign out Firefox on Windows, Local network' });
  await signOut.focus();
  await page.keyboard.press('Enter');
  await expect(section.getByRole('status')).toHaveText('Signed out of Firefox on Windows.');
  await expect(section.getByRole('heading', { name: "Where you're signed in" })).toBeFocused();
  await expect(items).toHaveCount(1);
  await expect(section).toContainText("You're signed in on this device only.");
  await expect(section.getByRole('button', { name: 'Sign out all other sessions' })).toHaveCount(0);
  // At once: the other device's unexpired access token is refused.
  expect((await laptopProfile()).status()).toBe(401);
  await laptop.dispose();

  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoSeriousViolations(page, '/account sessions (desktop)');
});

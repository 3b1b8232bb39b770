import { readFileSync } from 'node:fs';
import { generate } from 'otplib';
import { expectNoSeriousViolations } from './a11y';
import { adminApi } from './admin-api';
import { ADMIN, expect, test } from './fixtures';

/**
 * Two-factor sign-in through the real pages: the set-up on /account (QR code, key,
 * a code, the recovery codes and their download), the sign-in's code step with an authenticator
 * code and with a recovery code (keyboard only), cancelling a deletion with a code (Enter in its
 * field), and /admin/settings; axe at 320 px and desktop.
 */
const PASSWORD = 'Tw0!Factor';
const PHONE = { width: 320, height: 640 };
const DESKTOP = { width: 1280, height: 800 };

/** The authenticator's code `steps` 30-second steps from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

test('two-factor sign-in: set-up, sign-in with a code and with a recovery code, and the site settings', async ({
  page,
  signIn,
  hydrated,
  baseURL,
  playwright,
}) => {
  // Nine password checks (bcrypt) on the server: slow on a loaded machine.
  test.setTimeout(120_000);
  const email = `two-factor-${Date.now().toString(36)}@example.test`;
  const admin = await adminApi(baseURL!, playwright);
  const created = await admin.post('/api/v1/admin/users', {
    data: {
      fullName: 'Tam Two-Factor',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: ['USER'],
      status: 'ACTIVE',
      markEmailAsVerified: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();

  // Set-up, at 320 px.
  await page.setViewportSize(PHONE);
  await signIn({ email, password: PASSWORD });
  await page.goto('/account');
  await hydrated('TwoFactorSettings');
  await page.getByRole('button', { name: 'Two-Factor Authentication Setup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });
  await dialog.getByRole('button', { name: 'Start set-up' }).click();
  await expect(dialog.getByRole('img', { name: 'QR code to add Inkwell to your authenticator app' })).toBeVisible();
  const secret = (await dialog.locator('dt:text-is("Key") + dd code').textContent())!.trim();
  await expect(dialog.getByText(/^otpauth:\/\/totp\/Inkwell:.*issuer=Inkwell$/)).toBeVisible();
  await expectNoSeriousViolations(page, '/account two-factor set-up (320 px)');
  // Turning it on signs out the other sessions unless unchecked.
  await expect(dialog.getByRole('checkbox', { name: 'Sign out my other sessions' })).toBeChecked();
  await dialog.getByLabel('6-digit code from the app').fill(await codeAt(secret));
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  const listed = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(listed).toHaveCount(10);
  const codes = (await listed.allTextContents()).map((code) => code.trim());
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download codes (.txt)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('inkwell-recovery-codes.txt');
  expect(readFileSync((await download.path())!, 'utf8')).toContain(codes.join('\n'));
  await page.setViewportSize(DESKTOP);
  await expectNoSeriousViolations(page, '/account recovery codes (desktop)');
  await dialog.getByRole('button', { name: "I've saved my codes" }).click();
  await expect(dialog.getByText(/^Two-factor sign-in is on \(since .+\)\. 10 recovery codes left\.$/)).toBeVisible();

  // Sign-in with the authenticator's code (the next step: the set-up used this one), by keyboard.
  await page.context().clearCookies();
  await page.goto('/login?callback=%2Faccount');
  await hydrated('LoginForm');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.keyboard.press('Enter');
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  await expectNoSeriousViolations(page, '/login code step (desktop)');
  await page.keyboard.type(await codeAt(secret, 1));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/account$/);

  // Sign-in with a recovery code, at 320 px.
  await page.context().clearCookies();
  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await hydrated('LoginForm');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await expectNoSeriousViolations(page, '/login recovery code step (320 px)');
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);

  // Deleting the account takes a code; cancelling the deletion at sign-in asks for one, and Enter in its field cancels.
  const deletion = await page.request.post('/api/v1/account/deletion', {
    data: { password: PASSWORD, confirmation: 'DELETE', twoFactorCode: codes[1] },
    headers: { Origin: new URL(baseURL!).origin, 'X-Request-Timestamp': String(Date.now()) },
  });
  expect(deletion.status(), await deletion.text()).toBe(200);
  await page.context().clearCookies();
  await page.goto('/login');
  await hydrated('LoginForm');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const pending = page.locator('[data-pending-deletion]');
  await pending.getByRole('button', { name: 'Cancel deletion' }).click();
  const cancelCode = pending.getByLabel('Two-factor code');
  await expect(cancelCode).toBeFocused();
  await page.keyboard.type(codes[2]);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[3]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);

  // The site settings: both shown, saved as they are (the server's settings are shared by every spec).
  await page.context().clearCookies();
  await signIn(ADMIN);
  await page.goto('/admin/settings');
  await hydrated('SiteSettingsForm');
  await expect(page.getByRole('link', { name: 'Settings' }).first()).toHaveAttribute('href', '/admin/settings');
  await expect(page.getByRole('checkbox', { name: 'Require 2FA for administrators' })).not.toBeChecked();
  await expect(page.getByRole('radio', { name: 'Give their posts to "Former author"' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Delete their posts' })).not.toBeChecked();
  // The backups' card (features/backup): nothing has run, nothing is scheduled on the test server.
  const backups = page.getByTestId('last-backup');
  await expect(backups.getByRole('heading', { name: 'Backups' })).toBeVisible();
  await expect(backups).toContainText('No backup has run yet.');
  await expect(backups).toContainText('Not scheduled (BACKUP_SCHEDULE is not set)');
  await expectNoSeriousViolations(page, '/admin/settings (320 px)');
  await page.setViewportSize(DESKTOP);
  await expectNoSeriousViolations(page, '/admin/settings (desktop)');
  // This admin has no two-factor sign-in: requiring it is refused, with the reason, and nothing is saved.
  await page.getByRole('checkbox', { name: 'Require 2FA for administrators' }).check();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(
    page.getByText(
      'Turn on two-factor sign-in for your own account first (Account Security): requiring it for administrators now would lock you out of the admin area.',
    ),
  ).toBeVisible();
  await page.getByRole('checkbox', { name: 'Require 2FA for administrators' }).uncheck();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
});

test('two-factor set-up: the key in groups of four (copied plain), Cancel, and turning off says so once', async ({
  page,
  signIn,
  hydrated,
  baseURL,
  playwright,
}) => {
  test.setTimeout(60_000);
  const email = `two-factor-steps-${Date.now().toString(36)}@example.test`;
  const admin = await adminApi(baseURL!, playwright);
  const created = await admin.post('/api/v1/admin/users', {
    data: {
      fullName: 'Tam Steps',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: ['USER'],
      status: 'ACTIVE',
      markEmailAsVerified: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL!).origin });

  await page.setViewportSize(PHONE);
  await signIn({ email, password: PASSWORD });
  await page.goto('/account');
  await hydrated('TwoFactorSettings');
  await page.getByRole('button', { name: 'Two-Factor Authentication Setup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Two-Factor Authentication' });

  // The set-up step can be left: Cancel goes back to the start.
  await dialog.getByRole('button', { name: 'Start set-up' }).click();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Start set-up' })).toBeVisible();

  // The key shows in groups of four; its text and the copy are the plain key.
  await dialog.getByRole('button', { name: 'Start set-up' }).click();
  const key = dialog.locator('dt:text-is("Key") + dd code');
  const secret = (await key.textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  expect(await key.locator('span').allTextContents()).toEqual(secret.match(/.{1,4}/g));
  const groups = await key.locator('span').evaluateAll((spans) => spans.map((span) => Math.round(span.getBoundingClientRect().left)));
  expect(new Set(groups).size, 'the groups stand apart').toBeGreaterThan(1);
  await dialog.getByRole('button', { name: 'Copy key' }).click();
  await expect(dialog.getByText('Key copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expectNoSeriousViolations(page, '/account two-factor set-up with Cancel (320 px)');

  await dialog.getByLabel('6-digit code from the app').fill(await codeAt(secret));
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  const listed = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(listed).toHaveCount(10);
  const codes = (await listed.allTextContents()).map((code) => code.trim());
  await dialog.getByRole('button', { name: "I've saved my codes" }).click();

  // Turning it off: the notice says it once; the explanation follows without repeating it.
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('Authentication or recovery code').fill(codes[0]);
  await dialog.getByRole('button', { name: 'Turn off', exact: true }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Two-factor sign-in is off.' })).toBeVisible();
  await expect(dialog.getByText(/Two-factor sign-in is off\./)).toHaveCount(1);
  await expect(dialog.getByText(/^With it on, signing in needs your password/)).toBeVisible();
  await expectNoSeriousViolations(page, '/account two-factor turned off (320 px)');
});

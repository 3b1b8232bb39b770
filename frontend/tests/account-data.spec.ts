import { adminApi } from './admin-api';
import { expectNoSeriousViolations } from './a11y';
import { expect, test } from './fixtures';

/**
 * 'Your data' through the real pages: Download my data (progress, then the zip),
 * Delete my account (password + DELETE), then signing in offers 'Cancel deletion', which gives
 * the account back; the home page confirms the deletion. axe on the new section and the login step at 320 px and desktop.
 */
const PASSWORD = 'Data-test1!';

test('download my data, delete with a grace period, and cancel by signing in', async ({ page, signIn, hydrated, baseURL, playwright }) => {
  // Seven password checks (bcrypt, cost 12) on the server: ~10 s alone on a loaded machine.
  test.setTimeout(60_000);
  const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const who = { fullName: `Data Owner ${unique}`, email: `data-owner-${unique}@example.com`, password: PASSWORD };
  const admin = await adminApi(baseURL!, playwright);
  const created = await admin.post('/api/v1/admin/users', {
    data: {
      fullName: who.fullName,
      email: who.email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: ['USER'],
      status: 'ACTIVE',
      markEmailAsVerified: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(who);
  await page.goto('/account');
  const section = page.locator('[data-your-data]');
  await hydrated('YourDataSection');
  await expect(section.getByRole('heading', { name: 'Your data' })).toBeVisible();
  await expectNoSeriousViolations(page, '/account (desktop)');

  // Download my data: the job's progress, then the link (and the zip behind it).
  await section.getByRole('button', { name: 'Download my data' }).click();
  await expect(section.getByText('Your data is ready.')).toBeVisible({ timeout: 15_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('link', { name: 'Download the zip' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^inkwell-data-\d{4}-\d\d-\d\d\.zip$/);

  await page.setViewportSize({ width: 320, height: 800 });
  await expectNoSeriousViolations(page, '/account Your data (320 px)');

  // Delete my account: the typed word is checked before anything is sent.
  await section.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete my account' });
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByLabel('Type DELETE to confirm').fill('delete');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Type DELETE to confirm.')).toBeVisible();
  await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  // The home page confirms it (a status message filled in the browser: the cached page stays the same for
  // everyone), then takes the query off the address so a reload does not say it again.
  await expect(
    page.getByRole('status').filter({ hasText: 'Your account is scheduled for deletion. You have been signed out.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expectNoSeriousViolations(page, '/ after the deletion (320 px)');
  await page.reload();
  await expect(page.getByText('Your account is scheduled for deletion.')).toHaveCount(0);
  await page.goto('/?account=deletion-scheduled');
  await expect(
    page.getByRole('status').filter({ hasText: 'Your account is scheduled for deletion. You have been signed out.' }),
  ).toBeVisible();
  // The cached copy of the home page holds only the empty status region.
  const cached = await page.request.get('/');
  expect(await cached.text()).toMatch(/<div role="status"[^>]*data-deletion-notice[^>]*><\/div>/);

  // Signing in tells the date and offers the cancellation; cancelling signs in.
  await page.goto('/login?callback=%2Faccount');
  await hydrated('LoginForm');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const pending = page.locator('[data-pending-deletion]');
  await expect(pending.getByText(/^Your account is scheduled for deletion on .+\. Cancel the deletion to use it again\.$/)).toBeVisible();
  await expectNoSeriousViolations(page, '/login pending deletion (320 px)');
  await pending.getByRole('button', { name: 'Cancel deletion' }).click();
  await page.waitForURL('**/account');
  await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
});

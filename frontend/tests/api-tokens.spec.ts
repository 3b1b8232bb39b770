import { expectNoSeriousViolations } from './a11y';
import { expect, test } from './fixtures';

/**
 * The 'API tokens' card of /account: an administrator creates a token with the
 * keyboard-reachable form, sees it once, copies it, uses it, and revokes it after confirming;
 * axe on the card at desktop width and at 320 px.
 */
test('API tokens on /account: created and shown once, copied, used, revoked; accessible at desktop and 320 px', async ({
  asAdmin: page,
  hydrated,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = `Browser token ${Date.now().toString(36)}`;
  await page.goto('/account');
  const card = page.getByRole('region', { name: 'API tokens' });
  await hydrated(card.getByRole('button', { name: 'Create token' }));

  await card.getByLabel('Token name').fill(name);
  // Administrators are offered the admin scope; 'read' starts checked.
  await expect(card.getByRole('checkbox', { name: /^read/ })).toBeChecked();
  await card.getByRole('checkbox', { name: /^posts:write/ }).focus();
  await page.keyboard.press('Space');
  await expect(card.getByRole('checkbox', { name: /^admin/ })).not.toBeChecked();
  await card.getByLabel('Expires').selectOption({ label: '30 days' });
  await card.getByRole('button', { name: 'Create token' }).click();

  const shown = card.getByRole('textbox', { name: 'Your new token' });
  await expect(shown).toHaveValue(/^inkw_[A-Za-z0-9_-]{43}$/);
  await expect(shown).toBeFocused();
  const token = await shown.inputValue();
  await card.getByRole('button', { name: 'Copy token' }).click();
  await expect(card.getByText('Token copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  const listed = card.locator('li', { hasText: name });
  await expect(listed).toContainText('read, posts:write');
  await expect(listed).toContainText('Last used');
  await expectNoSeriousViolations(page, '/account (API tokens, desktop)');

  // The token works as the administrator, within its scopes.
  const bearer = { Authorization: `Bearer ${token}` };
  expect((await page.request.get('/api/v1/users/profile', { headers: bearer })).status()).toBe(200);
  expect((await page.request.get('/api/v1/admin/users', { headers: bearer })).status()).toBe(403);

  // Shown once: after a reload only the list has it, without the token.
  await page.setViewportSize({ width: 320, height: 800 });
  await page.reload();
  await hydrated(card.getByRole('button', { name: 'Create token' }));
  await expect(card.getByRole('textbox', { name: 'Your new token' })).toHaveCount(0);
  await expect(card).not.toContainText(token);
  await expectNoSeriousViolations(page, '/account (API tokens, 320 px)');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

  await card.getByRole('button', { name: `Revoke token ${name}` }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Revoke this API token?' });
  await expect(dialog).toContainText(name);
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(card.getByText('Token revoked.')).toBeVisible();
  await expect(card.locator('li', { hasText: name })).toHaveCount(0);
  expect((await page.request.get('/api/v1/users/profile', { headers: bearer })).status()).toBe(401);
});

import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { adminApi } from './admin-api';

/**
 * The back-office journey: an admin creates an author on /admin/users; the author
 * signs in through the login page in another browser and submits a post (through the author
 * API, to keep it short); the admin rejects it with a reason on /admin/posts, the author
 * resubmits it and the admin approves it; the admin bans and unbans a reader, deactivates a tag
 * on /admin/tags, and sees each of these on /admin's Recent Activity (checked right after each
 * step: the list holds the newest 10 entries, and other test files write entries too).
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Journey-Pass-1!';
const author = { fullName: `Journey Author ${unique}`, email: `journey-author-${unique}@inkwell.test` };
const reader = { fullName: `Journey Reader ${unique}`, email: `journey-reader-${unique}@inkwell.test` };
const tag = { name: `Journey ${unique}`, slug: `journey-${unique}` };
const post = { title: `Journey story ${unique}`, slug: `journey-story-${unique}` };
const REJECTION = `Please add sources ${unique}`;

let readerId = 0;
let tagId = 0;

/** /admin's Recent Activity lists an entry of `type` whose text contains `text`. */
async function expectRecentActivity(page: Page, type: string, text: string): Promise<void> {
  await page.goto('/admin');
  await expect(page.getByTestId('recent-activities').locator(`[data-activity="${type}"]`, { hasText: text })).toBeVisible();
}

async function newSignedInPage(browser: Browser, email: string, password: string, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL('/');
  return page;
}

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await adminApi(baseURL!, playwright);
  const created = await api.post('/api/v1/admin/users', {
    data: { ...reader, password: PASSWORD, confirmPassword: PASSWORD, roles: ['USER'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  readerId = ((await created.json()).data as { id: number }).id;
  const tagged = await api.post('/api/v1/blog/tags', { data: { ...tag, description: 'A tag for the journey' } });
  expect(tagged.status(), await tagged.text()).toBe(201);
  tagId = ((await tagged.json()).data as { id: number }).id;
  await api.dispose();
});

test('an admin runs the back office from user creation to Recent Activity', async ({
  asAdmin: page,
  browser,
  baseURL,
  request,
  hydrated,
}) => {
  test.setTimeout(180_000);

  // 1. The admin creates an author on /admin/users.
  await page.goto('/admin/users');
  await hydrated();
  await page.getByRole('button', { name: 'Add User' }).click();
  const addUser = page.getByRole('dialog', { name: 'Add User' });
  await addUser.getByLabel('Full name').fill(author.fullName);
  await addUser.getByLabel('Email', { exact: true }).fill(author.email);
  await addUser.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await addUser.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await addUser.getByRole('checkbox', { name: 'Author' }).check();
  await addUser.getByRole('checkbox', { name: 'Mark email as verified' }).check();
  await addUser.getByRole('button', { name: 'Create User' }).click();
  await expect(addUser).toBeHidden({ timeout: 15_000 });
  await expect(page.locator('tbody tr', { hasText: author.email })).toBeVisible();
  await expectRecentActivity(page, 'USER_REGISTERED', `created the account of ${author.fullName}`);

  // 2. The author signs in through the login page in another browser and submits a post.
  const authorPage = await newSignedInPage(browser, author.email, PASSWORD, baseURL!);
  const write = { headers: { 'X-Request-Timestamp': String(Date.now()) } };
  const drafted = await authorPage.request.post('/api/v1/blog/posts/author/create', {
    ...write,
    data: { ...post, summary: 'What happened on the journey.', content: 'The journey, told in full.', tagSlugs: [tag.slug] },
  });
  expect(drafted.status(), await drafted.text()).toBe(201);
  const postId = ((await drafted.json()).data as { id: number }).id;
  const submit = () =>
    authorPage.request.post(`/api/v1/blog/posts/author/${postId}/submit-for-review`, {
      headers: { 'X-Request-Timestamp': String(Date.now()) },
    });
  const submitted = await submit();
  expect(submitted.status(), await submitted.text()).toBe(200);

  // 3. The admin rejects it with a reason on /admin/posts.
  await page.goto(`/admin/posts?search=${encodeURIComponent(post.title)}`);
  await hydrated();
  const row = page.locator(`tr[data-post-id="${postId}"]`);
  await expect(row).toHaveAttribute('data-status', 'PENDING_REVIEW');
  await row.getByRole('button', { name: 'Reject', exact: true }).click();
  const reject = page.getByRole('dialog', { name: 'Reject Post' });
  await reject.getByLabel('Rejection reason').fill(REJECTION);
  await reject.getByRole('button', { name: 'Reject Post' }).click();
  await expect(reject).toBeHidden();
  await expect(row).toHaveAttribute('data-status', 'REJECTED');
  await expectRecentActivity(page, 'POST_CREATED', `"${post.title}" was rejected: ${REJECTION}`);

  // The author revises and resubmits; the admin approves it.
  const resubmitted = await submit();
  expect(resubmitted.status(), await resubmitted.text()).toBe(200);
  await page.goto(`/admin/posts?search=${encodeURIComponent(post.title)}`);
  await hydrated();
  await expect(row).toHaveAttribute('data-status', 'PENDING_REVIEW');
  await row.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(row).toHaveAttribute('data-status', 'PUBLISHED');
  await expectRecentActivity(page, 'POST_PUBLISHED', `"${post.title}" was approved and published`);
  const published = await authorPage.request.get(`/api/v1/blog/posts/public/${post.slug}`);
  expect(published.status()).toBe(200);
  await authorPage.context().close();

  // 4. The admin bans and unbans the reader.
  await page.goto(`/admin/users?search=${encodeURIComponent(reader.email)}`);
  await hydrated();
  await page.getByRole('link', { name: reader.fullName }).click();
  await expect(page).toHaveURL(`/admin/users/${readerId}`);
  await hydrated();
  await page.getByRole('button', { name: 'Ban User' }).click();
  const ban = page.getByRole('dialog', { name: 'Ban User' });
  await ban.getByLabel('Reason for the ban').fill(`Spam links ${unique}`);
  await ban.getByRole('button', { name: 'Ban User' }).click();
  await expect(page.getByTestId('ban-details')).toContainText(`Spam links ${unique}`);
  // A banned account cannot sign in (a request context of its own: the page keeps the admin's session).
  const bannedLogin = await request.post('/api/v1/auth/login', { data: { email: reader.email, password: PASSWORD } });
  expect(bannedLogin.status()).toBe(403);
  await expectRecentActivity(page, 'USER_BANNED', `${reader.fullName} was banned by`);

  await page.goto(`/admin/users/${readerId}`);
  await hydrated();
  await page.getByRole('button', { name: 'Unban User' }).click();
  const unban = page.getByRole('dialog', { name: 'Unban User' });
  await unban.getByLabel('Reason for lifting the ban').fill('Appeal accepted');
  await unban.getByRole('button', { name: 'Unban User' }).click();
  await expect(page.getByTestId('ban-details')).toHaveCount(0);
  await expectRecentActivity(page, 'USER_UPDATED', `${reader.fullName} was unbanned by`);

  // 5. The admin deactivates the tag on /admin/tags.
  await page.goto(`/admin/tags?search=${encodeURIComponent(tag.name)}`);
  await hydrated();
  const card = page.locator(`[data-tag-id="${tagId}"]`);
  await expect(card).toHaveAttribute('data-active', 'true');
  await card.getByRole('button', { name: 'Deactivate' }).click();
  // The list shows 'Active' tags by default: the deactivated one leaves it, and
  // 'Inactive' lists it.
  await expect(card).toHaveCount(0);
  await page.goto(`/admin/tags?search=${encodeURIComponent(tag.name)}&filter=inactive`);
  await hydrated();
  await expect(card).toHaveAttribute('data-active', 'false');
  await expectRecentActivity(page, 'TAG_CREATED', `Tag "${tag.name}" was deactivated`);

  // Each step is in the admin's own trail of actions on the users' details too.
  await page.goto(`/admin/users/${readerId}`);
  await expect(page.getByTestId('audit-trail').locator('[data-audit="USER_BANNED"]')).toHaveCount(1);
  await expect(page.getByTestId('audit-trail').locator('[data-audit="USER_UNBANNED"]')).toHaveCount(1);
});

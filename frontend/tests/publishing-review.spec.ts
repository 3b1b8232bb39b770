import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN, expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';
import { DEFAULT_SITE_TIME_ZONE, setSiteTimeZone, siteWallTimeToDate, siteWallTimeValue, formatViDateTime } from '../src/lib/dates';

/**
 * The journeys that cross parts, through the real pages:
 * - schedule → absent from / and its URL (404) → the test clock passes the time → public;
 * - the author's requested time (My Posts' submit confirmation) reaches the reviewer's Approve;
 * - Reschedule and Cancel schedule from /admin/posts (keyboard only);
 * - reject → the author edits and resubmits → Detailed Review shows the earlier reason and the
 *   word diff;
 * with axe on every dialog at 320 px and on the desktop (light and dark).
 *
 * The test clock (PUT /api/v1/test/clock, TEST_CLOCK_CONTROL=1 in scripts/browser-tests.mjs) is
 * the server's, shared by every worker: this file runs in the 'chromium-alone' project, after the
 * others, and puts the clock back when it ends.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Sup3r-Secret!';
const rae = { fullName: 'Rae Writer', email: `rae-publishing-${unique}@inkwell.test` };
const MINUTE = 60_000;

interface CreatedPost {
  id: number;
  title: string;
  slug: string;
}

let admin: APIRequestContext;
let author: APIRequestContext;

/** What these tests read of the API's answers. */
interface PostAnswer {
  id: number;
  status: string;
  publishedAt: string | null;
  scheduledAt: string | null;
  requestedPublishAt: string | null;
}
interface ReviewDiffAnswer {
  rejection: { reason: string; reviewer: { fullName: string } | null; reviewedAt: string } | null;
}

/** The envelope's data of a `status` answer (any other status fails with the answer's text). */
async function ok<T = PostAnswer>(response: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

/** An author's draft (through the author endpoint), optionally submitted for review. */
async function authorPost(key: string, title: string, content = `Body of ${title}.`): Promise<CreatedPost> {
  const slug = `${key}-${unique}`;
  const created = await ok<PostAnswer>(
    await author.post('/api/v1/blog/posts/author/create', { data: { title, slug, summary: `Summary of ${title}.`, content } }),
    201,
  );
  return { id: created.id, title, slug };
}

async function submit(post: CreatedPost, data?: object): Promise<void> {
  await ok(await author.post(`/api/v1/blog/posts/author/${post.id}/submit-for-review`, data ? { data } : undefined));
}

async function setClock(offsetSeconds: number) {
  return ok<{ published: number }>(await admin.put('/api/v1/test/clock', { data: { offsetSeconds } }));
}

/** /admin/posts filtered to one post, hydrated. */
async function openRow(page: Page, post: CreatedPost) {
  await page.goto(`/admin/posts?search=${encodeURIComponent(post.title)}`);
  const row = page.locator(`tr[data-post-id="${post.id}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByRole('button', { name: 'Delete', exact: true })).toBeEnabled();
  return row;
}

/** Tab until `target` has focus (at most `limit` presses). */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, limit = 80): Promise<void> {
  for (let step = 0; step < limit; step++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reached by Tab in ${limit} steps`);
}

/** axe on the page as it is: on the desktop in light and dark, and at 320 px (which must not scroll sideways). */
async function axeBothWidths(page: Page, where: string): Promise<void> {
  const desktop = page.viewportSize();
  await expectNoSeriousViolations(page, `${where} (desktop)`);
  // The dark theme as the theme script applies it (the class on <html>), without reloading the dialog away.
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await expectNoSeriousViolations(page, `${where} (desktop, dark)`);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize({ width: 320, height: 640 });
  await expectNoSeriousViolations(page, `${where} (320 px)`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${where} scrolls sideways at 320 px`).toBeLessThanOrEqual(0);
  if (desktop) await page.setViewportSize(desktop);
}

test.beforeAll(async ({ playwright, baseURL }) => {
  admin = await adminApi(baseURL!, playwright);
  await ok(
    await admin.post('/api/v1/admin/users', {
      data: { ...rae, password: PASSWORD, confirmPassword: PASSWORD, roles: ['AUTHOR'], status: 'ACTIVE', markEmailAsVerified: true },
    }),
    201,
  );
  author = await apiAs(baseURL!, playwright, rae.email, PASSWORD);
});

test.afterAll(async () => {
  if (admin) await setClock(0);
  await author?.dispose();
  await admin?.dispose();
});

test("a typed publish time is the site zone's wall clock, whatever zone the browser is in, and round-trips", () => {
  expect(siteWallTimeToDate('2026-11-26T15:04')?.toISOString()).toBe('2026-11-26T08:04:00.000Z');
  expect(siteWallTimeValue(new Date('2026-11-26T08:04:59Z'))).toBe('2026-11-26T15:04');
  expect(siteWallTimeToDate('2026-11-26T15:04:30')?.toISOString()).toBe('2026-11-26T08:04:30.000Z');
  for (const wrong of ['', '2026-11-26', '2026-02-30T10:00', '2026-11-26T24:00', '26/11/2026 15:04'])
    expect(siteWallTimeToDate(wrong)).toBeUndefined();
  // A zone with daylight saving: the offset of that day, on both sides of the change.
  setSiteTimeZone('Europe/Berlin');
  try {
    expect(siteWallTimeToDate('2026-03-28T12:00')?.toISOString()).toBe('2026-03-28T11:00:00.000Z');
    expect(siteWallTimeToDate('2026-03-30T12:00')?.toISOString()).toBe('2026-03-30T10:00:00.000Z');
    expect(siteWallTimeValue(new Date('2026-07-01T10:00:00Z'))).toBe('2026-07-01T12:00');
  } finally {
    setSiteTimeZone(DEFAULT_SITE_TIME_ZONE);
  }
});

test('the author requests a time on submit; the reviewer keeps it, changes it, approves; the post is public only once the clock passes it', async ({
  page,
  browser,
  baseURL,
  signIn,
}) => {
  test.setTimeout(90_000);
  const post = await authorPost('scheduled', `Scheduled harbour ${unique}`);

  // The author submits from My Posts with a requested time (the confirmation's optional field).
  const requested = new Date(Date.now() + 3 * 3_600_000);
  await signIn({ email: rae.email, password: PASSWORD });
  await page.goto('/author/posts?status=draft');
  await page
    .locator(`[data-post-row="${post.id}"]`)
    .getByRole('button', { name: /^Submit for review/ })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Submit for review?' });
  await expect(confirm.getByTestId('publish-time-zone')).toHaveText('GMT+7');
  await axeBothWidths(page, 'submit confirmation');
  await confirm.getByLabel(/Requested publish time/).fill(siteWallTimeValue(requested));
  await confirm.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByRole('status')).toHaveText('Post submitted for review.');
  const stored = await ok(await author.get(`/api/v1/blog/posts/${post.id}`));
  expect(stored.status).toBe('PENDING_REVIEW');
  expect(new Date(stored.requestedPublishAt ?? '').getTime()).toBe(Math.floor(requested.getTime() / MINUTE) * MINUTE);

  // The reviewer sees the request on the row and in Approve, prefilled.
  await page.context().clearCookies();
  await signIn(ADMIN);
  const row = await openRow(page, post);
  await expect(row.getByTestId('requested-publish-at')).toHaveText(
    `Requested by the author: ${formatViDateTime(stored.requestedPublishAt)}`,
  );
  await row.getByRole('button', { name: 'Approve', exact: true }).click();
  const approve = page.getByRole('dialog', { name: 'Approve Post' });
  const publishAt = approve.getByLabel(/^Publish at/);
  await expect(publishAt).toHaveValue(siteWallTimeValue(requested));
  await expect(approve.getByTestId('requested-publish-at')).toHaveText(
    `Requested by the author: ${formatViDateTime(stored.requestedPublishAt)}`,
  );
  await axeBothWidths(page, 'Approve with a time');

  // A time in the past: the API's field error, on the field; nothing changes.
  await publishAt.fill(siteWallTimeValue(new Date(Date.now() - 3_600_000)));
  await approve.getByRole('button', { name: 'Approve and schedule' }).click();
  await expect(publishAt).toHaveAttribute('aria-invalid', 'true');
  await expect(approve.locator('[id$="-error"]')).not.toBeEmpty();
  expect((await ok(await admin.get(`/api/v1/blog/posts/${post.id}`))).scheduledAt).toBeNull();

  // Three minutes ahead (whole minutes: at least two ahead), approved for that time.
  const at = new Date(Date.now() + 3 * MINUTE);
  await publishAt.fill(siteWallTimeValue(at));
  await expect(publishAt).not.toHaveAttribute('aria-invalid', 'true');
  await approve.getByRole('button', { name: 'Approve and schedule' }).click();
  await expect(page.locator('[data-notice="success"]').filter({ hasText: 'Post approved and scheduled.' })).toBeVisible();
  const scheduled = await ok(await admin.get(`/api/v1/blog/posts/${post.id}`));
  expect(scheduled.status).toBe('PENDING_REVIEW');
  expect(new Date(scheduled.scheduledAt ?? '').getTime()).toBe(Math.floor(at.getTime() / MINUTE) * MINUTE);
  await expect(row.getByTestId('scheduled-badge')).toHaveText(`Scheduled for ${formatViDateTime(scheduled.scheduledAt)}`);
  await expect(row.getByRole('button', { name: 'Reschedule' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);

  // The author's list says so too.
  const authorContext = await browser.newContext({ baseURL });
  const authorPage = await authorContext.newPage();
  await signIn({ email: rae.email, password: PASSWORD }, authorPage);
  await authorPage.goto('/author/posts');
  await expect(authorPage.locator(`[data-post-row="${post.id}"]`).getByTestId('scheduled-badge')).toHaveText(
    `Scheduled for ${formatViDateTime(scheduled.scheduledAt)}`,
  );
  await authorContext.close();

  // Not public before its time: not on the home page, its URL 404, the public API 404.
  const visitor = await browser.newContext({ baseURL });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto('/');
  await expect(visitorPage.getByText(post.title)).toHaveCount(0);
  expect((await visitorPage.goto(`/blog/${post.slug}`))?.status()).toBe(404);
  expect((await visitorPage.request.get(`/api/v1/blog/posts/public/${post.slug}`)).status()).toBe(404);

  // The clock passes the time: the scheduler publishes it at once, and every page shows it.
  const moved = await setClock(10 * 60);
  expect(moved.published).toBeGreaterThanOrEqual(1);
  const published = await ok(await admin.get(`/api/v1/blog/posts/${post.id}`));
  expect(published.status).toBe('PUBLISHED');
  expect(published.scheduledAt).toBeNull();
  expect(published.publishedAt).toBe(scheduled.scheduledAt);
  expect((await visitorPage.goto(`/blog/${post.slug}`))?.status()).toBe(200);
  await expect(visitorPage.getByRole('heading', { level: 1 })).toHaveText(post.title);
  await visitorPage.goto('/');
  await expect(visitorPage.getByText(post.title).first()).toBeVisible();
  await visitor.close();
  await setClock(0);
});

test('Reschedule and Cancel schedule from /admin/posts, by keyboard', async ({ asAdmin: page }) => {
  test.setTimeout(60_000);
  const post = await authorPost('reschedule', `Reschedule tide ${unique}`);
  await submit(post);
  const first = new Date(Date.now() + 2 * 3_600_000);
  await ok(await admin.put(`/api/v1/blog/posts/admin/${post.id}/review`, { data: { status: 'APPROVED', publishAt: first.toISOString() } }));

  const row = await openRow(page, post);
  const badge = row.getByTestId('scheduled-badge');
  await expect(badge).toHaveText(`Scheduled for ${formatViDateTime(first.toISOString())}`);

  // Reschedule: Tab to it, Enter; the dialog starts on the time, prefilled with the current one.
  await tabTo(page, row.getByRole('button', { name: 'Reschedule' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Reschedule Post' });
  const field = dialog.getByLabel(/^Publish at/);
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(siteWallTimeValue(first));
  await axeBothWidths(page, 'Reschedule');
  const later = new Date(Date.now() + 5 * 3_600_000);
  await field.fill(siteWallTimeValue(later));
  await tabTo(page, dialog.getByRole('button', { name: 'Reschedule' }));
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-notice="success"]').filter({ hasText: 'Schedule updated.' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const moved = await ok(await admin.get(`/api/v1/blog/posts/${post.id}`));
  expect(new Date(moved.scheduledAt ?? '').getTime()).toBe(Math.floor(later.getTime() / MINUTE) * MINUTE);
  await expect(badge).toHaveText(`Scheduled for ${formatViDateTime(moved.scheduledAt)}`);

  // Cancel schedule: a confirmation that starts on Cancel (the safe choice); Escape keeps it.
  await tabTo(page, row.getByRole('button', { name: 'Cancel schedule' }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Cancel the schedule?' });
  await expect(confirm.getByRole('button', { name: 'Cancel', exact: true })).toBeFocused();
  await axeBothWidths(page, 'Cancel schedule');
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(badge).toBeVisible();
  await tabTo(page, row.getByRole('button', { name: 'Cancel schedule' }));
  await page.keyboard.press('Enter');
  await tabTo(page, confirm.getByRole('button', { name: 'Cancel schedule' }));
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-notice="success"]').filter({ hasText: 'Schedule cancelled.' })).toBeVisible();
  await expect(badge).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
  const cancelled = await ok(await admin.get(`/api/v1/blog/posts/${post.id}`));
  expect(cancelled.status).toBe('PENDING_REVIEW');
  expect(cancelled.scheduledAt).toBeNull();
});

test('reject → the author edits and resubmits → Detailed Review shows the earlier reason above the word diff', async ({
  asAdmin: page,
}) => {
  test.setTimeout(60_000);
  const filler = Array.from({ length: 600 }, (_, index) => `word${index}`).join(' ');
  const post = await authorPost('diff', `Diff lantern ${unique}`, `The lantern was dim.\n\n${filler}`);
  await submit(post);
  const reason = `Brighten the lantern ${unique}`;

  // The reviewer rejects through Quick Reject.
  let row = await openRow(page, post);
  await row.getByRole('button', { name: 'Reject', exact: true }).click();
  const reject = page.getByRole('dialog', { name: 'Reject Post' });
  await reject.getByLabel('Rejection reason').fill(reason);
  await reject.getByRole('button', { name: 'Reject Post' }).click();
  await expect(page.locator('[data-notice="success"]').filter({ hasText: 'Post rejected' })).toBeVisible();

  // The author edits (title, content, a tag) and resubmits.
  const tag = await ok<{ id: number; slug: string }>(
    await admin.post('/api/v1/blog/tags', { data: { name: `Lantern ${unique}`, slug: `lantern-${unique}` } }),
    201,
  );
  await ok(
    await author.put(`/api/v1/blog/posts/author/${post.id}`, {
      data: { title: `Diff lantern bright ${unique}`, content: `The lantern was bright.\n\n${filler}`, tagSlugs: [tag.slug] },
    }),
  );
  await submit(post);
  const answer = await ok<ReviewDiffAnswer>(await admin.get(`/api/v1/blog/posts/${post.id}/review-diff`));
  expect(answer.rejection?.reason).toBe(reason);
  const rejection = answer.rejection!;

  row = await openRow(page, { ...post, title: `Diff lantern bright ${unique}` });
  await tabTo(page, row.getByRole('button', { name: 'Detailed Review' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Detailed Review' });
  const diff = dialog.getByTestId('review-diff');
  await expect(dialog.getByTestId('rejected-before')).toHaveText(
    `Rejected before: ${reason} — ${rejection.reviewer?.fullName}, ${formatViDateTime(rejection.reviewedAt)}`,
  );
  await expect(diff.locator('[data-word-diff-legend]')).toBeVisible();
  const title = diff.locator('[data-diff-field="Title"]');
  await expect(title.locator('ins')).toContainText('bright');
  const content = diff.locator('[data-diff-field="Content"]');
  await expect(content.locator('del')).toContainText('dim');
  await expect(content.locator('ins')).toContainText('bright');
  await expect(diff.locator('[data-diff-field="Tags"] ins')).toContainText(tag.slug);
  // Non-colour cues: the marks' own semantics and a sign read out as words.
  await expect(content.locator('ins').first()).toContainText('added:');
  await expect(content.locator('del').first()).toContainText('removed:');
  // The long content scrolls inside its own box, reached by keyboard.
  const box = content.getByRole('region', { name: 'Content changes' });
  expect(await box.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
  await tabTo(page, box);
  await axeBothWidths(page, 'Detailed Review with the diff');

  // A post never rejected shows no diff.
  const fresh = await authorPost('nodiff', `No diff kettle ${unique}`);
  await submit(fresh);
  await page.keyboard.press('Escape');
  row = await openRow(page, fresh);
  await row.getByRole('button', { name: 'Detailed Review' }).click();
  await expect(page.getByRole('dialog', { name: 'Detailed Review' }).getByTestId('review-history')).toHaveCount(0);
  await expect(page.getByText('No reviews yet.')).toBeVisible();
  await expect(page.getByTestId('review-diff')).toHaveCount(0);
});

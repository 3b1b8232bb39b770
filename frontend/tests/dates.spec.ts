import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { ADMIN, expect, test, type BrowserFixtures } from './fixtures';
import { adminApi } from './admin-api';
import {
  DEFAULT_SITE_TIME_ZONE,
  setSiteTimeZone,
  siteDayEnd,
  siteZoneName,
  formatDateTime,
  formatShortDate,
  formatViDateTime,
} from '../src/lib/dates';
import { commentDateTime } from '../src/features/comments/texts';

/**
 * One rule for dates (docs/architecture.md 'Dates'): every page shows dates in the
 * site zone (GMT+7), and every time of day names it, whatever zone the browser is in. Run with
 * the browser far away (Los Angeles, 15 hours behind): the server-rendered text (read in a
 * context without JavaScript) and the hydrated island's text are the same, and name the zone.
 */

test.use({ timezoneId: 'America/Los_Angeles' });

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const ZONED_TIME = /\d{1,2}:\d{2}( [AP]M)?\b.* GMT\+7$/;

let admin: APIRequestContext;
test.beforeEach(async ({ playwright, baseURL }) => {
  admin = await adminApi(baseURL!, playwright);
});
test.afterEach(async () => {
  await admin.dispose();
});

/** What the server rendered: the same address in a signed-in context without JavaScript, in the same far zone. */
async function serverText(
  browser: Browser,
  baseURL: string,
  path: string,
  read: (page: Page) => Promise<string>,
  signIn: BrowserFixtures['signIn'],
): Promise<string> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, timezoneId: 'America/Los_Angeles' });
  try {
    const page = await context.newPage();
    await signIn(ADMIN, page);
    await page.goto(path);
    return await read(page);
  } finally {
    await context.close();
  }
}

/** The hour and minute of an instant in GMT+7, as 24-hour 'HH:MM'. */
function hoursAndMinutesAtPlus7(iso: string): string {
  const shifted = new Date(new Date(iso).getTime() + 7 * 3_600_000);
  return `${String(shifted.getUTCHours()).padStart(2, '0')}:${String(shifted.getUTCMinutes()).padStart(2, '0')}`;
}

test('SITE_TIME_ZONE moves every formatter to that zone, and the page tells the islands which zone it is', async ({ page }) => {
  const instant = '2026-11-22T20:04:00Z';
  setSiteTimeZone('Europe/Berlin');
  try {
    expect(formatViDateTime(instant)).toBe('21:04 22/11/2026 GMT+1');
    expect(formatDateTime(instant)).toMatch(/^November 22, 2026(,| at) 9:04 PM GMT\+1$/);
  } finally {
    setSiteTimeZone(DEFAULT_SITE_TIME_ZONE);
  }
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-time-zone', DEFAULT_SITE_TIME_ZONE);
});

test('the formatters: the site zone whatever the process runs in, the zone named after a time of day, plain spaces', () => {
  const instant = '2026-11-22T20:04:00Z'; // 03:04 on the 23rd in GMT+7
  expect(siteZoneName(new Date(instant))).toBe('GMT+7');
  expect(formatViDateTime(instant)).toBe('03:04 23/11/2026 GMT+7');
  expect(commentDateTime(instant)).toBe('03:04 23/11/2026 GMT+7');
  expect(formatDateTime(instant)).toMatch(/^November 23, 2026(,| at) 3:04 AM GMT\+7$/);
  expect(formatShortDate(instant)).toBe('Nov 23, 2026');
  expect(formatDateTime(instant)).not.toMatch(/[\u00a0\u202f]/);
});

test("the editor's info card: the server's text and the hydrated text agree, in GMT+7, named", async ({
  asAdmin: page,
  browser,
  baseURL,
  signIn,
  hydrated,
}) => {
  const created = await admin.post('/api/v1/blog/posts', {
    data: { title: `Dated ${unique}`, slug: `dated-${unique}`, content: 'Body.', status: 'DRAFT' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const post = (await created.json()).data as { id: number; createdAt: string };
  const path = `/admin/posts/${post.id}/edit`;
  const createdCell = (p: Page) =>
    p.getByTestId('post-info').locator('dt', { hasText: 'Created' }).locator('xpath=following-sibling::dd[1]');

  const rendered = await serverText(browser, baseURL!, path, (p) => createdCell(p).innerText(), signIn);
  await page.goto(path);
  await hydrated('PostEditor');
  const hydratedText = await createdCell(page).innerText();
  expect(hydratedText).toBe(rendered);
  expect(hydratedText).toMatch(ZONED_TIME);
  // 12-hour clock in the back office: the hour is GMT+7's.
  const [hour, minute] = hoursAndMinutesAtPlus7(post.createdAt).split(':').map(Number);
  expect(hydratedText).toContain(`${hour % 12 || 12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'} GMT+7`);
});

test("the reader dashboard states the zone of its activity times; a comment's full time is the same before and after hydration", async ({
  page,
  browser,
  baseURL,
  playwright,
  signIn,
  hydrated,
}) => {
  // A reader of its own: the dashboard lists the latest 5 activities, and other tests comment as the admin.
  const reader = { fullName: 'Dated Reader', email: `dated-${unique}@inkwell.test`, password: 'Sup3r-Secret!' };
  const made = await admin.post('/api/v1/admin/users', {
    data: { ...reader, confirmPassword: reader.password, roles: ['USER'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(made.status(), await made.text()).toBe(201);
  const created = await admin.post('/api/v1/blog/posts', {
    data: { title: `Dated post ${unique}`, slug: `dated-post-${unique}`, content: 'Body.', status: 'PUBLISHED' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const post = (await created.json()).data as { id: number; slug: string };
  const anonymous = await playwright.request.newContext({ baseURL });
  const login = await anonymous.post('/api/v1/auth/login', { data: { email: reader.email, password: reader.password } });
  expect(login.status(), await login.text()).toBe(200);
  const { accessToken } = (await login.json()).data as { accessToken: string };
  await anonymous.dispose();
  const readerApi = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${accessToken}`, 'X-Request-Timestamp': String(Date.now()) },
  });
  const comment = await readerApi.post('/api/v1/comments', { data: { postId: post.id, content: `A dated comment ${unique}` } });
  expect(comment.status(), await comment.text()).toBe(201);
  const { id, createdAt } = (await comment.json()).data as { id: number; createdAt: string };
  await readerApi.dispose();

  // The dashboard (server-rendered): 'HH:MM dd/mm/yyyy GMT+7', the hour being GMT+7's.
  await signIn(reader);
  await page.goto('/dashboard');
  const activity = page
    .getByTestId('recent-activity')
    .locator('li')
    .filter({ hasText: `Dated post ${unique}` })
    .locator('time');
  await expect(activity).toHaveText(ZONED_TIME);
  const datetime = (await activity.getAttribute('datetime'))!;
  await expect(activity).toHaveText(new RegExp(`^${hoursAndMinutesAtPlus7(datetime)} `));

  // The comment's time: the server writes it in full; the hydrated section keeps it as the tooltip.
  const rendered = await serverText(
    browser,
    baseURL!,
    `/blog/${post.slug}`,
    (p) => p.locator(`#comment-${id} time`).first().innerText(),
    signIn,
  );
  expect(rendered).toMatch(new RegExp(`^${hoursAndMinutesAtPlus7(createdAt)} \\d{2}/\\d{2}/\\d{4} GMT\\+7$`));
  await page.goto(`/blog/${post.slug}`);
  await hydrated('CommentSection');
  const time = page.locator(`#comment-${id} time`).first();
  await expect(time).toHaveText(/^(Just now|\d+ minutes? ago)$/);
  await expect(time).toHaveAttribute('title', rendered);
});

test("siteDayEnd: a date input's day ends at its last second in the site zone, daylight saving included", () => {
  expect(siteDayEnd('2026-12-01')?.toISOString()).toBe('2026-12-01T16:59:59.000Z');
  setSiteTimeZone('Europe/Berlin');
  try {
    expect(siteDayEnd('2026-07-15')?.toISOString()).toBe('2026-07-15T21:59:59.000Z');
    expect(siteDayEnd('2026-03-29')?.toISOString()).toBe('2026-03-29T21:59:59.000Z');
    expect(siteDayEnd('2026-12-15')?.toISOString()).toBe('2026-12-15T22:59:59.000Z');
  } finally {
    setSiteTimeZone(DEFAULT_SITE_TIME_ZONE);
  }
  for (const bad of ['', '2026-02-30', '2026-13-01', '01/12/2026', '2026-1-1']) expect(siteDayEnd(bad)).toBeUndefined();
});

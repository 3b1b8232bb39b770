import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * Notifications through the pages: the header's bell and its count, /notifications
 * (unread first, opening an entry lands on its link and marks it read, 'Mark all as read', the
 * empty state), the preferences on /account, and /unsubscribe with the link from the captured
 * e-mail. Every event is made through the API by another user (apiAs); each test has its own
 * readers, so the tests do not depend on each other.
 *
 * scripts/browser-tests.mjs runs the server with SMTP_URL pointing at an in-process SMTP catcher
 * and passes its read endpoint as MAIL_CAPTURE_URL.
 */

const MAIL_CAPTURE_URL = process.env.MAIL_CAPTURE_URL;
const PASSWORD = 'Notify-Passw0rd!';
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const post = { title: `Notified story ${unique}`, slug: `notified-${unique}` };
let postId = 0;
let serial = 0;

// Each test makes its own accounts (a password hash each) and walks several pages: more than the
// default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

interface Person {
  fullName: string;
  email: string;
  api: APIRequestContext;
}

test.beforeAll(async ({ playwright, baseURL }) => {
  const admin = await adminApi(baseURL!, playwright);
  const created = await admin.post('/api/v1/blog/posts', {
    data: { ...post, summary: 'A post people comment on.', content: 'Text.', status: 'PUBLISHED' },
  });
  expect(created.status(), await created.text()).toBe(201);
  postId = ((await created.json()).data as { id: number }).id;
  await admin.dispose();
});

/** A verified, active reader made by the admin, with an API client signed in as them. */
async function person(baseURL: string, playwright: Parameters<typeof adminApi>[1], name: string): Promise<Person> {
  serial += 1;
  const who = { fullName: `${name} ${unique}`, email: `${name.toLowerCase()}-${serial}-${unique}@inkwell.test` };
  const admin = await adminApi(baseURL, playwright);
  const created = await admin.post('/api/v1/admin/users', {
    data: { ...who, password: PASSWORD, confirmPassword: PASSWORD, roles: ['USER'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();
  return { ...who, api: await apiAs(baseURL, playwright, who.email, PASSWORD) };
}

async function comment(author: Person, content: string, parentId: number | null = null): Promise<number> {
  const created = await author.api.post('/api/v1/comments', { data: { postId, content, parentId } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()).data as { id: number }).id;
}

const bell = (page: Page) => page.getByRole('banner').getByTestId('notification-bell');

test('a reply raises the bell; /notifications lists it first; opening it lands on the comment and marks it read; mark all read', async ({
  page,
  baseURL,
  playwright,
  signIn,
  hydrated,
}) => {
  const lan = await person(baseURL!, playwright, 'Lan');
  const minh = await person(baseURL!, playwright, 'Minh');
  const root = await comment(lan, `Lan's question ${unique}`);
  await signIn({ email: lan.email, password: PASSWORD });

  await page.goto('/blog');
  await expect(bell(page)).toHaveAccessibleName('Notifications, none unread');

  // A reply by someone else: the next navigation's server render counts it (no JavaScript needed).
  const reply = await comment(minh, `Minh's answer ${unique}`, root);
  await page.goto('/blog');
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  await expect(bell(page).getByTestId('notification-badge')).toHaveText('1');

  // Without navigating: the bell reads the count again when the tab becomes visible.
  await hydrated();
  const secondReply = await comment(minh, `Minh again ${unique}`, root);
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(bell(page)).toHaveAccessibleName('Notifications, 2 unread');

  await bell(page).click();
  await expect(page).toHaveURL('/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await hydrated();
  const entries = page.getByTestId('notification-list').locator('[data-notification]');
  await expect(entries).toHaveCount(2);
  const sentence = `${minh.fullName} replied to your comment on “${post.title}”`;
  // Newest first among the unread: the second reply, then the first.
  await expect(entries.nth(0)).toHaveAttribute('data-read', 'false');
  await expect(entries.nth(0).getByRole('link', { name: sentence })).toHaveAttribute('href', `/blog/${post.slug}#comment-${secondReply}`);
  await expect(entries.nth(1).getByRole('link', { name: sentence })).toHaveAttribute('href', `/blog/${post.slug}#comment-${reply}`);
  await expect(entries.nth(0).locator('time')).toHaveText(/ GMT[+-]\d+$/);
  await expectNoSeriousViolations(page, '/notifications (unread entries)');
  // The dark theme too (it follows the system preference when none is stored).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await hydrated();
  await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
  await expectNoSeriousViolations(page, '/notifications (unread entries, dark)');
  await page.emulateMedia({ colorScheme: 'light' });

  // Opening the older entry lands on its comment's anchor, and marks it read.
  await entries.nth(1).getByRole('link', { name: sentence }).click();
  await expect(page).toHaveURL(`/blog/${post.slug}#comment-${reply}`);
  await expect(page.locator(`#comment-${reply}`)).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');

  // Back on the list: that entry is read and sorted after the unread one.
  await page.goto('/notifications');
  await hydrated();
  await expect(entries.nth(0)).toHaveAttribute('data-read', 'false');
  await expect(entries.nth(0).getByRole('link')).toHaveAttribute('href', `/blog/${post.slug}#comment-${secondReply}`);
  await expect(entries.nth(1)).toHaveAttribute('data-read', 'true');
  await expect(entries.nth(1).getByRole('button', { name: /Mark as read/ })).toHaveCount(0);

  // Mark all as read: the entries and the bell follow at once, and the server agrees on reload.
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All notifications marked as read.' })).toBeVisible();
  await expect(entries.nth(0)).toHaveAttribute('data-read', 'true');
  await expect(bell(page)).toHaveAccessibleName('Notifications, none unread');
  await page.reload();
  await expect(entries).toHaveCount(2);
  await expect(page.locator('[data-notification][data-read="false"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
  const count = await lan.api.get('/api/v1/notifications/unread-count');
  expect(((await count.json()).data as { count: number }).count).toBe(0);
  await expectNoSeriousViolations(page, '/notifications (all read)');
});

test('one entry marked read with its button; the empty state for someone with none', async ({
  page,
  baseURL,
  playwright,
  signIn,
  hydrated,
}) => {
  const hoa = await person(baseURL!, playwright, 'Hoa');
  await signIn({ email: hoa.email, password: PASSWORD });
  await page.goto('/notifications');
  await expect(page.getByText('No notifications yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse Posts' })).toHaveAttribute('href', '/blog');
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
  await expectNoSeriousViolations(page, '/notifications (empty)');

  const tuan = await person(baseURL!, playwright, 'Tuan');
  await comment(tuan, `Tuan replies ${unique}`, await comment(hoa, `Hoa's note ${unique}`));
  await page.reload();
  await hydrated();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  const entry = page.locator('[data-notification]');
  await entry.getByRole('button', { name: /^Mark as read/ }).click();
  await expect(entry).toHaveAttribute('data-read', 'true');
  await expect(bell(page)).toHaveAccessibleName('Notifications, none unread');
  await page.reload();
  await expect(entry).toHaveAttribute('data-read', 'true');
});

test('the signed-out visitor is sent to sign in from /notifications', async ({ page }) => {
  await page.goto('/notifications');
  await expect(page).toHaveURL(`/login?callback=${encodeURIComponent('/notifications')}`);
});

test('preferences on /account: per event and channel, the digest; saved, and kept on reload', async ({
  page,
  baseURL,
  playwright,
  signIn,
  hydrated,
}) => {
  const vy = await person(baseURL!, playwright, 'Vy');
  await signIn({ email: vy.email, password: PASSWORD });
  await page.goto('/account');
  await hydrated();
  const card = page.getByRole('region', { name: 'Notification Preferences' });
  await expect(card.getByRole('table', { name: 'Notification Preferences' })).toBeVisible();
  // A reader is told about replies; the admins' events are not theirs to choose.
  const replyEmail = card.getByRole('checkbox', { name: 'Replies to my comments: E-mail' });
  await expect(replyEmail).toBeChecked();
  await expect(card.getByRole('checkbox', { name: 'Replies to my comments: In-app' })).toBeChecked();
  await expect(card.getByRole('checkbox', { name: /A post was submitted for review/ })).toHaveCount(0);
  const digest = card.getByRole('checkbox', { name: 'Group e-mails into an hourly digest' });
  await expect(digest).not.toBeChecked();
  await expectNoSeriousViolations(page, '/account (notification preferences)');

  // Keyboard: the checkbox toggles with Space, Save submits.
  await replyEmail.focus();
  await page.keyboard.press('Space');
  await expect(replyEmail).not.toBeChecked();
  await digest.check();
  await card.getByRole('button', { name: 'Update Preferences' }).click();
  await expect(card.getByRole('status')).toHaveText('Notification preferences saved.');

  await page.reload();
  await hydrated();
  await expect(replyEmail).not.toBeChecked();
  await expect(card.getByRole('checkbox', { name: 'Replies to my comments: In-app' })).toBeChecked();
  await expect(digest).toBeChecked();
  const saved = (await (await vy.api.get('/api/v1/notifications/preferences')).json()).data as {
    digest: boolean;
    events: { type: string; inApp: boolean; email: boolean }[];
  };
  expect(saved.digest).toBe(true);
  expect(saved.events.find((event) => event.type === 'COMMENT_REPLY')).toEqual({ type: 'COMMENT_REPLY', inApp: true, email: false });
});

/** Waits for a notification e-mail to `email` and returns its unsubscribe page's address (path and query). */
async function unsubscribeLink(email: string): Promise<string> {
  if (!MAIL_CAPTURE_URL) throw new Error('MAIL_CAPTURE_URL is not set: run the browser tests with npm run test:browser');
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${MAIL_CAPTURE_URL}/messages?to=${encodeURIComponent(email)}`);
        const mails = (await response.json()) as { subject: string; text: string }[];
        const found = mails.map((mail) => /(https?:\/\/\S+\/unsubscribe\?token=[^\s>)]+)/.exec(mail.text)?.[1]).find(Boolean);
        link = found ? new URL(found).pathname + new URL(found).search : undefined;
        return link;
      },
      { message: `notification e-mail with an unsubscribe link for ${email}`, timeout: 30_000 },
    )
    .toMatch(/^\/unsubscribe\?token=/);
  return link as string;
}

test('/unsubscribe from the e-mail: says what, one button POSTs, confirmed; bad links get their own state', async ({
  page,
  baseURL,
  playwright,
}) => {
  const an = await person(baseURL!, playwright, 'An');
  const binh = await person(baseURL!, playwright, 'Binh');
  // Replies are mailed by default: the mail carries the unsubscribe link.
  await comment(binh, `Binh replies ${unique}`, await comment(an, `An asks ${unique}`));
  const link = await unsubscribeLink(an.email);

  // Not signed in. Opening the page (as a mail scanner would) changes nothing.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeVisible();
  await expect(page.getByTestId('unsubscribe-what')).toHaveText('This link stops e-mails about replies to your comments.');
  await expectNoSeriousViolations(page, '/unsubscribe (confirm)');
  const before = (await (await an.api.get('/api/v1/notifications/preferences')).json()).data as {
    events: { type: string; email: boolean }[];
  };
  expect(before.events.find((event) => event.type === 'COMMENT_REPLY')?.email).toBe(true);

  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();
  await expectNoSeriousViolations(page, '/unsubscribe (done)');
  const after = (await (await an.api.get('/api/v1/notifications/preferences')).json()).data as {
    events: { type: string; email: boolean }[];
  };
  expect(after.events.find((event) => event.type === 'COMMENT_REPLY')?.email).toBe(false);
  // The link again: those e-mails are off already, so there is nothing left to confirm.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);

  // The page's form is same-origin only: a form posted from another site is refused before the page.
  const crossSite = await page.request.post(link, { headers: { Origin: 'https://elsewhere.example' }, form: { confirm: '1' } });
  expect(crossSite.status()).toBe(403);

  const invalid = await page.goto('/unsubscribe?token=not-a-real-token');
  expect(invalid?.status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1, name: 'Invalid unsubscribe link' })).toBeVisible();
  await expectNoSeriousViolations(page, '/unsubscribe (invalid token)');
  await page.goto('/unsubscribe');
  await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe link incomplete' })).toBeVisible();
});

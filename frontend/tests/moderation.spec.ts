import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN, expect, island, test, type BrowserFixtures } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * Moderation through the real pages: a reader reports a comment from the post page;
 * it waits in /admin/comments under Reported with its report; the admin hides it with a reason
 * and readers see the placeholder with the replies kept; restore, dismiss and a bulk hide with
 * each id's result; an author hides a comment on their own post; a muted reader sees why in
 * place of the comment form (and the API's 403 if they send one anyway); a comment with a link
 * from a new account is held: 'Awaiting moderation' for its author only, and under Held in the
 * queue. Axe on the report dialog and on the queue, with rows and empty; the queue's loading and
 * error states, and its selection from the keyboard.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Moderation-Passw0rd!';
const HIDDEN_MARKER = '[This comment has been hidden by a moderator]';

type Account = { id: number; fullName: string; email: string; password: string };
const account = (name: string): Account => ({
  id: 0,
  fullName: `${name} ${unique}`,
  email: `${name.toLowerCase()}-${unique}@inkwell.test`,
  password: PASSWORD,
});
const reader = account('Reporter');
const writer = account('Commenter');
const author = account('Author');

let admin: APIRequestContext;
test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await adminApi(baseURL!, playwright);
  for (const [who, role] of [
    [reader, 'USER'],
    [writer, 'USER'],
    [author, 'AUTHOR'],
  ] as const) {
    const created = await api.post('/api/v1/admin/users', {
      data: {
        fullName: who.fullName,
        email: who.email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        roles: [role],
        status: 'ACTIVE',
        markEmailAsVerified: true,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    who.id = ((await created.json()).data as { id: number }).id;
  }
  await api.dispose();
});
test.beforeEach(async ({ playwright, baseURL }) => {
  admin = await adminApi(baseURL!, playwright);
});
test.afterEach(async () => {
  await admin.dispose();
});

let posts = 0;
/** A published post by the author (submitted, then approved by the admin). */
async function newPost(playwright: Parameters<typeof apiAs>[1], baseURL: string): Promise<{ id: number; slug: string }> {
  const slug = `moderation-${unique}-${++posts}`;
  const api = await apiAs(baseURL, playwright, author.email, PASSWORD);
  try {
    const created = await api.post('/api/v1/blog/posts/author/create', {
      data: { title: `Moderation ${unique} ${posts}`, slug, content: 'A post to discuss.' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const id = ((await created.json()).data as { id: number }).id;
    const submitted = await api.post(`/api/v1/blog/posts/author/${id}/submit-for-review`);
    expect(submitted.status(), await submitted.text()).toBe(200);
    const approved = await admin.put(`/api/v1/blog/posts/admin/${id}/review`, { data: { status: 'APPROVED' } });
    expect(approved.status(), await approved.text()).toBe(200);
    return { id, slug };
  } finally {
    await api.dispose();
  }
}

/** A comment (or a reply) written through the API by `who`. */
async function comment(
  playwright: Parameters<typeof apiAs>[1],
  baseURL: string,
  who: Account,
  postId: number,
  content: string,
  parentId: number | null = null,
) {
  const api = await apiAs(baseURL, playwright, who.email, PASSWORD);
  try {
    const created = await api.post('/api/v1/comments', { data: { postId, content, parentId } });
    expect(created.status(), await created.text()).toBe(201);
    return (await created.json()).data as { id: number; moderation: string };
  } finally {
    await api.dispose();
  }
}

async function openPost(page: Page, slug: string, hydrated: BrowserFixtures['hydrated']): Promise<void> {
  await page.goto(`/blog/${slug}`);
  await hydrated(island(page, 'CommentSection'));
}

async function openQueue(page: Page, search: string, hydrated: BrowserFixtures['hydrated'], filter = 'reported'): Promise<void> {
  await page.goto(`/admin/comments?filter=${filter}&search=${encodeURIComponent(search)}`);
  await hydrated(island(page, 'AdminCommentsManager'));
}

/** A browser write's headers, as the page's own fetch sends them. */
const sameOrigin = (baseURL: string) => ({ Origin: new URL(baseURL).origin, 'X-Request-Timestamp': String(Date.now()) });

const item = (page: Page, id: number) => page.locator(`#comment-${id}`);
/** The comment itself, without its replies. */
const own = (page: Page, id: number) => page.locator(`#comment-${id} > article`);
const row = (page: Page, id: number) => page.locator(`[data-moderation-row="${id}"]`);

test('a reader reports a comment; the admin finds it under Reported, hides it (replies kept), restores it and dismisses the report', async ({
  page,
  browser,
  playwright,
  baseURL,
  signIn,
  hydrated,
}) => {
  test.setTimeout(120_000);
  const post = await newPost(playwright, baseURL!);
  const text = `Buy cheap things ${unique}`;
  const target = await comment(playwright, baseURL!, writer, post.id, text);
  const reply = await comment(playwright, baseURL!, writer, post.id, `A reply that stays ${unique}`, target.id);

  await signIn(reader);
  // A second tab, opened before the report: its Report button is still there.
  const secondTab = await page.context().newPage();
  await openPost(secondTab, post.slug, hydrated);
  await openPost(page, post.slug, hydrated);
  const report = own(page, target.id).getByRole('button', { name: `Report comment by ${writer.fullName}` });
  await report.click();
  const dialog = page.getByRole('dialog', { name: 'Report Comment' });
  await expect(dialog).toBeVisible();
  await expectNoSeriousViolations(page, 'the report dialog');
  // Other needs a description: the dialog says so and stays open.
  await dialog.getByRole('radio', { name: /^Other/ }).check();
  await dialog.getByRole('button', { name: 'Send Report' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please describe the problem.');
  // Escape (as Cancel) closes it, and focus is back on the Report button.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(report).toBeFocused();
  await report.click();
  await dialog.getByRole('radio', { name: /^Spam/ }).check();
  await dialog.getByLabel('Description (optional)').fill('Advertising in every post');
  await dialog.getByRole('button', { name: 'Send Report' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Thank you. The comment has been reported to the moderators.')).toBeVisible();
  await expect(own(page, target.id).getByRole('button', { name: `Report comment by ${writer.fullName}` })).toHaveCount(0);
  // Focus went to the comment (its Report button is gone).
  await expect(own(page, target.id)).toBeFocused();
  // A second report of the same comment (from the other tab) is refused: the API's 409 text, in the dialog.
  await own(secondTab, target.id)
    .getByRole('button', { name: `Report comment by ${writer.fullName}` })
    .click();
  const late = secondTab.getByRole('dialog', { name: 'Report Comment' });
  await late.getByRole('radio', { name: /^Harassment/ }).check();
  await late.getByRole('button', { name: 'Send Report' }).click();
  await expect(late.getByRole('alert')).toHaveText('You have already reported this comment.');
  await late.getByRole('button', { name: 'Cancel' }).click();
  await secondTab.close();

  // The queue: under Reported, with its post, its report (reason, details, reporter).
  const adminPage = await (await browser.newContext({ baseURL })).newPage();
  await signIn(ADMIN, adminPage);
  await openQueue(adminPage, text, hydrated);
  const queued = row(adminPage, target.id);
  await expect(queued.getByTestId('moderation-content')).toHaveText(text);
  await expect(queued.getByRole('link', { name: `Moderation ${unique} ${posts}` })).toHaveAttribute(
    'href',
    `/blog/${post.slug}#comment-${target.id}`,
  );
  await expect(queued.getByTestId('moderation-report')).toContainText('Spam: Advertising in every post');
  await expect(queued.getByTestId('moderation-report')).toContainText(`by ${reader.fullName}`);
  await expectNoSeriousViolations(adminPage, '/admin/comments (rows)');

  // Hide with a reason (required).
  await queued.getByRole('button', { name: `Hide comment by ${writer.fullName}` }).click();
  const hide = adminPage.getByRole('dialog', { name: 'Hide Comment' });
  await hide.getByRole('button', { name: 'Hide Comment' }).click();
  await expect(hide.getByRole('alert')).toHaveText('Please give a reason.');
  await hide.getByLabel('Reason for hiding').fill('Spam');
  await hide.getByRole('button', { name: 'Hide Comment' }).click();
  await expect(hide).toBeHidden();
  await expect(adminPage.getByText('Comment hidden', { exact: true })).toBeVisible();
  await expect(queued.getByText(/^Hidden/).first()).toBeVisible();

  // Readers (signed out too) see the placeholder; the reply stays.
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await openPost(visitor, post.slug, hydrated);
  await expect(own(visitor, target.id).getByTestId('hidden-marker')).toHaveText(HIDDEN_MARKER);
  await expect(own(visitor, target.id)).not.toContainText(text);
  await expect(item(visitor, reply.id)).toContainText(`A reply that stays ${unique}`);

  // Restore: the text is back for everyone.
  await openQueue(adminPage, text, hydrated, 'hidden');
  await row(adminPage, target.id)
    .getByRole('button', { name: `Restore comment by ${writer.fullName}` })
    .click();
  await expect(adminPage.getByText('Comment restored', { exact: true })).toBeVisible();
  // Restored, it no longer matches 'Hidden': it leaves the list at once.
  await expect(row(adminPage, target.id)).toHaveCount(0);
  await openPost(visitor, post.slug, hydrated);
  await expect(own(visitor, target.id)).toContainText(text);

  // Dismiss the report: it leaves Reported.
  await openQueue(adminPage, text, hydrated);
  await row(adminPage, target.id)
    .getByRole('button', { name: `Dismiss reports comment by ${writer.fullName}` })
    .click();
  await expect(adminPage.getByText('Reports dismissed', { exact: true })).toBeVisible();
  await expect(row(adminPage, target.id)).toHaveCount(0);
  await expect(adminPage.getByTestId('moderation-empty')).toBeVisible();
  await expectNoSeriousViolations(adminPage, '/admin/comments (empty)');
});

test('bulk hide on a selection shows each id’s result, and both comments are hidden', async ({
  asAdmin: page,
  playwright,
  baseURL,
  hydrated,
}) => {
  test.setTimeout(90_000);
  const post = await newPost(playwright, baseURL!);
  const tag = `bulk-${unique}`;
  const first = await comment(playwright, baseURL!, writer, post.id, `First ${tag}`);
  const second = await comment(playwright, baseURL!, writer, post.id, `Second ${tag}`);

  await openQueue(page, tag, hydrated, 'all');
  await expect(page.locator('[data-moderation-row]')).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Hide selected' }).click();
  const hide = page.getByRole('dialog', { name: 'Hide Selected Comments' });
  await hide.getByLabel('Reason for hiding').fill('Off-topic thread');
  await hide.getByRole('button', { name: 'Hide Selected Comments' }).click();
  const outcome = page.getByTestId('bulk-outcome');
  await expect(outcome.getByRole('heading')).toHaveText('Hide: 2 of 2 done');
  await expect(outcome.locator(`[data-result-id="${first.id}"]`)).toHaveText(`Comment #${first.id}: done`);
  await expect(outcome.locator(`[data-result-id="${second.id}"]`)).toHaveText(`Comment #${second.id}: done`);
  for (const id of [first.id, second.id]) await expect(row(page, id).getByText('Hidden', { exact: true })).toBeVisible();

  await openPost(page, post.slug, hydrated);
  for (const id of [first.id, second.id]) await expect(item(page, id).getByTestId('hidden-marker')).toHaveText(HIDDEN_MARKER);
});

test('an author hides a comment on their own post from the post page', async ({ page, playwright, baseURL, signIn, hydrated }) => {
  test.setTimeout(90_000);
  const post = await newPost(playwright, baseURL!);
  const rude = await comment(playwright, baseURL!, writer, post.id, `Rude words ${unique}`);

  await signIn(author);
  await openPost(page, post.slug, hydrated);
  await item(page, rude.id)
    .getByRole('button', { name: `Hide comment by ${writer.fullName}` })
    .click();
  const hide = page.getByRole('dialog', { name: 'Hide Comment' });
  await expect(hide.getByLabel('Reason for hiding')).toBeFocused();
  await expectNoSeriousViolations(page, 'the hide dialog');
  await hide.getByLabel('Reason for hiding').fill('Not kind');
  await hide.getByRole('button', { name: 'Hide Comment' }).click();
  await expect(hide).toBeHidden();
  await expect(item(page, rude.id).getByTestId('hidden-marker')).toHaveText(HIDDEN_MARKER);
  await expect(own(page, rude.id)).toBeFocused();
  // It stays hidden on a fresh read, and the admin sees who hid it and why.
  await openPost(page, post.slug, hydrated);
  await expect(item(page, rude.id).getByTestId('hidden-marker')).toHaveText(HIDDEN_MARKER);
  await signIn(ADMIN);
  await openQueue(page, `Rude words ${unique}`, hydrated, 'hidden');
  await expect(row(page, rude.id)).toContainText(`Hidden by ${author.fullName}: Not kind`);
});

test('a muted reader sees why in place of the comment form, and the API refuses a comment with the same reason', async ({
  page,
  browser,
  playwright,
  baseURL,
  signIn,
  hydrated,
}) => {
  test.setTimeout(90_000);
  const post = await newPost(playwright, baseURL!);
  const muted = account('Muted');
  const created = await admin.post('/api/v1/admin/users', {
    data: {
      fullName: muted.fullName,
      email: muted.email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: ['USER'],
      status: 'ACTIVE',
      markEmailAsVerified: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  muted.id = ((await created.json()).data as { id: number }).id;

  // The admin mutes them on their user page, for 7 days.
  const adminPage = await (await browser.newContext({ baseURL })).newPage();
  await signIn(ADMIN, adminPage);
  await adminPage.goto(`/admin/users/${muted.id}`);
  await adminPage.getByRole('button', { name: 'Mute', exact: true }).click();
  const dialog = adminPage.getByRole('dialog', { name: 'Mute User' });
  await expectNoSeriousViolations(adminPage, 'the mute dialog');
  await dialog.getByRole('radio', { name: '7 days' }).check();
  await dialog.getByLabel('Reason (shown to the user)').fill('Repeated insults');
  await dialog.getByRole('button', { name: 'Mute User' }).click();
  await expect(dialog).toBeHidden();
  await expect(adminPage.getByTestId('mute-details')).toContainText('Commenting muted until');
  await expect(adminPage.getByTestId('mute-details')).toContainText('Reason: Repeated insults');

  await signIn(muted);
  await openPost(page, post.slug, hydrated);
  await expect(page.getByTestId('comment-muted')).toContainText('You cannot comment until');
  await expect(page.getByTestId('comment-muted')).toContainText('Reason: Repeated insults');
  await expect(page.getByRole('textbox', { name: 'Write a comment' })).toHaveCount(0);
  const refused = await page.request.post('/api/v1/comments', {
    data: { postId: post.id, content: 'Let me in', parentId: null },
    headers: sameOrigin(baseURL!),
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toContain('Repeated insults');

  // Unmuted, the form is back.
  await adminPage.getByRole('button', { name: 'Unmute' }).click();
  await adminPage.getByRole('alertdialog', { name: 'Unmute User' }).getByRole('button', { name: 'Unmute User' }).click();
  await expect(adminPage.getByTestId('mute-details')).toHaveCount(0);
  await openPost(page, post.slug, hydrated);
  await expect(page.getByRole('textbox', { name: 'Write a comment' })).toBeVisible();
});

test("a link from a new account is held: 'Awaiting moderation' for its author only, and under Held in the queue", async ({
  page,
  browser,
  playwright,
  baseURL,
  signIn,
  hydrated,
}) => {
  test.setTimeout(90_000);
  const post = await newPost(playwright, baseURL!);
  const fresh = account('Newcomer');
  const created = await admin.post('/api/v1/admin/users', {
    data: {
      fullName: fresh.fullName,
      email: fresh.email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: ['USER'],
      status: 'ACTIVE',
      markEmailAsVerified: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  const text = `Visit https://example.com/deal-${unique}`;
  await signIn(fresh);
  await openPost(page, post.slug, hydrated);
  await page.getByRole('textbox', { name: 'Write a comment' }).fill(text);
  await page.getByRole('button', { name: 'Post Comment' }).click();
  await expect(page.getByText('Your comment is awaiting moderation.', { exact: false }).first()).toBeVisible();
  const mine = page.locator('[data-moderation="HELD"]').filter({ hasText: text });
  await expect(mine.getByTestId('awaiting-moderation')).toHaveText('Awaiting moderation');
  // After a reload, still there for its author.
  await openPost(page, post.slug, hydrated);
  await expect(page.locator('[data-moderation="HELD"]').filter({ hasText: text }).getByTestId('awaiting-moderation')).toBeVisible();

  // Nobody else sees it.
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await openPost(visitor, post.slug, hydrated);
  await expect(visitor.getByText(text)).toHaveCount(0);
  await signIn(reader, visitor);
  await openPost(visitor, post.slug, hydrated);
  await expect(visitor.getByText(text)).toHaveCount(0);

  // The queue lists it under Held; Approve publishes it.
  await signIn(ADMIN, visitor);
  await openQueue(visitor, `deal-${unique}`, hydrated, 'held');
  const held = visitor.locator('[data-moderation-row]').filter({ hasText: text });
  await expect(held.getByText('Held', { exact: true })).toBeVisible();
  await held.getByRole('button', { name: `Approve comment by ${fresh.fullName}` }).click();
  await expect(visitor.getByText('Comment restored', { exact: true })).toBeVisible();
  const anonymous = await (await browser.newContext({ baseURL })).newPage();
  await openPost(anonymous, post.slug, hydrated);
  await expect(anonymous.getByText(text)).toBeVisible();
});

test('the queue says when it is loading and when a read fails, Try Again reads it again, and the selection works from the keyboard', async ({
  asAdmin: page,
  playwright,
  baseURL,
  hydrated,
}) => {
  test.setTimeout(90_000);
  const post = await newPost(playwright, baseURL!);
  const text = `States ${unique}`;
  const target = await comment(playwright, baseURL!, writer, post.id, text);

  await openQueue(page, text, hydrated, 'all');
  await expect(row(page, target.id)).toBeVisible();

  // The next read waits until released, then fails: loading first, then the error state.
  let release = () => {};
  const released = new Promise<void>((done) => (release = done));
  const queueRead = (url: URL) => url.pathname === '/api/v1/admin/comments';
  await page.route(queueRead, async (route) => {
    await released;
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, status: 503, message: 'Service temporarily unavailable', data: null, errors: null }),
    });
  });
  await page.getByLabel('Show').selectOption('hidden');
  await expect(page.getByTestId('moderation-status')).toHaveText('Loading comments…');
  release();
  // A read with a search that fails says 'Search failed' (as /admin/users does), with the server's reason.
  const failure = page.getByRole('alert').filter({ hasText: 'Search failed' });
  await expect(failure).toContainText('Service temporarily unavailable');
  await page.unroute(queueRead);
  await failure.getByRole('link', { name: 'Try Again' }).click();
  await expect(page.getByTestId('moderation-empty')).toContainText('No comments to review');
  await expect(page).toHaveURL(new RegExp(`/admin/comments\\?filter=hidden&search=`));

  // Keyboard: Space selects a comment, Enter opens Hide selected, Escape closes it and focus comes back.
  await page.getByLabel('Show').selectOption('all');
  const box = page.getByRole('checkbox', { name: new RegExp(`comment #${target.id}$`) });
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  await expect(page.getByText('1 selected')).toBeVisible();
  const hideSelected = page.getByRole('button', { name: 'Hide selected' });
  await hideSelected.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Hide Selected Comments' });
  await expect(dialog.getByLabel('Reason for hiding')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(hideSelected).toBeFocused();
});

test('at 320 px the report dialog and the queue fit the screen and pass axe', async ({
  page,
  browser,
  playwright,
  baseURL,
  signIn,
  hydrated,
}) => {
  test.setTimeout(90_000);
  const post = await newPost(playwright, baseURL!);
  const text = `Narrow ${unique}`;
  const target = await comment(playwright, baseURL!, writer, post.id, text);
  const fits = (on: Page) => on.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  await page.setViewportSize({ width: 320, height: 720 });
  await signIn(reader);
  await openPost(page, post.slug, hydrated);
  await own(page, target.id)
    .getByRole('button', { name: `Report comment by ${writer.fullName}` })
    .click();
  await expect(page.getByRole('dialog', { name: 'Report Comment' })).toBeVisible();
  expect(await fits(page)).toBe(true);
  await expectNoSeriousViolations(page, 'the report dialog at 320 px');

  const adminPage = await (await browser.newContext({ baseURL, viewport: { width: 320, height: 720 } })).newPage();
  await signIn(ADMIN, adminPage);
  await openQueue(adminPage, text, hydrated, 'all');
  await expect(row(adminPage, target.id)).toBeVisible();
  expect(await fits(adminPage)).toBe(true);
  await expectNoSeriousViolations(adminPage, '/admin/comments at 320 px');
});

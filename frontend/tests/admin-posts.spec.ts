import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN, expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';
import { brokenWords } from './layout-checks';

/**
 * /admin/posts (docs/requirements.md#screen-admin-posts, docs/requirements.md#states, docs/requirements.md#validation-page-jump, docs/requirements.md#errors-posts, docs/requirements.md#constants-sorting): access rules, the list's filters, sort, page size,
 * chips and pager (with and without JavaScript), the review actions (Approve, Reject with a
 * reason, Detailed Review with the history, Approve Now), Publish, Archive, Delete with its
 * confirmation, failure toasts, and axe on each state.
 *
 * Data, made through the API: an AUTHOR (Pat) who writes posts and submits them for review, a
 * USER (Uma) for the Access Denied view, 52 admin drafts titled 'Pager <id> NN' for the pager
 * (11 pages of 5), and one post per action.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Sup3r-Secret!';
const pat = { fullName: 'Pat Author', email: `pat-posts-${unique}@inkwell.test` };
const uma = { fullName: 'Uma User', email: `uma-posts-${unique}@inkwell.test` };
const PAGER_WORD = `Pager${unique}`;
const PAGER_COUNT = 52;

interface CreatedPost {
  id: number;
  title: string;
  slug: string;
}

const posts: Record<string, CreatedPost> = {};

async function createAccount(admin: APIRequestContext, who: { fullName: string; email: string }, role: 'AUTHOR' | 'USER'): Promise<void> {
  const created = await admin.post('/api/v1/admin/users', {
    data: { ...who, password: PASSWORD, confirmPassword: PASSWORD, roles: [role], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
}

async function adminPost(
  admin: APIRequestContext,
  key: string,
  title: string,
  status: 'DRAFT' | 'PUBLISHED' = 'DRAFT',
): Promise<CreatedPost> {
  const slug = `${key.toLowerCase()}-${unique}`;
  const created = await admin.post('/api/v1/blog/posts', {
    data: { title, slug, summary: `Summary of ${title}.`, content: `Body of ${title}.`, status },
  });
  expect(created.status(), await created.text()).toBe(201);
  const post = { id: ((await created.json()).data as { id: number }).id, title, slug };
  posts[key] = post;
  return post;
}

/** An author's post, submitted for review (PENDING_REVIEW). */
async function pendingPost(author: APIRequestContext, key: string, title: string): Promise<CreatedPost> {
  const slug = `${key.toLowerCase()}-${unique}`;
  const created = await author.post('/api/v1/blog/posts/author/create', {
    data: { title, slug, summary: `Summary of ${title}.`, content: `Body of ${title}.` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()).data as { id: number }).id;
  const submitted = await author.post(`/api/v1/blog/posts/author/${id}/submit-for-review`);
  expect(submitted.status(), await submitted.text()).toBe(200);
  const post = { id, title, slug };
  posts[key] = post;
  return post;
}

async function review(admin: APIRequestContext, id: number, data: object): Promise<void> {
  const reviewed = await admin.put(`/api/v1/blog/posts/admin/${id}/review`, { data });
  expect(reviewed.status(), await reviewed.text()).toBe(200);
}

async function statusOf(admin: APIRequestContext, id: number): Promise<string> {
  const answer = await admin.get(`/api/v1/blog/posts/${id}`);
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()).data as { status: string }).status;
}

/** The list filtered to one post by its unique title, hydrated. */
async function openRow(page: Page, post: CreatedPost) {
  await page.goto(`/admin/posts?search=${encodeURIComponent(post.title)}`);
  const row = page.locator(`tr[data-post-id="${post.id}"]`);
  await expect(row).toBeVisible();
  // Action buttons are enabled once the island has hydrated.
  await expect(row.getByRole('button', { name: 'Delete', exact: true })).toBeEnabled();
  return row;
}

let admin: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(180_000);
  admin = await adminApi(baseURL!, playwright);
  await createAccount(admin, pat, 'AUTHOR');
  await createAccount(admin, uma, 'USER');
  const author = await apiAs(baseURL!, playwright, pat.email, PASSWORD);

  for (let index = 1; index <= PAGER_COUNT; index++)
    await adminPost(admin, `pager-${index}`, `${PAGER_WORD} ${String(index).padStart(2, '0')}`);

  await pendingPost(author, 'approve', `Approve me ${unique}`);
  await pendingPost(author, 'reject', `Reject me ${unique}`);
  await pendingPost(author, 'review', `Review me ${unique}`);
  await pendingPost(author, 'approveNow', `Approve now ${unique}`);
  await pendingPost(author, 'reviewFails', `Review fails ${unique}`);
  await pendingPost(author, 'leavesFilter', `Leaves the filter ${unique}`);
  // Left pending for the 1280 px check: a pending post's row has the most actions.
  await pendingPost(author, 'layout', `Layout check ${unique}`);
  // 'review' has a past rejection in its history, then is resubmitted; 'approveNow' is rejected.
  await review(admin, posts.review.id, { status: 'REJECTED', rejectionReason: `First round: tighten the intro ${unique}` });
  const edited = await author.put(`/api/v1/blog/posts/author/${posts.review.id}`, { data: { content: 'A tighter intro.' } });
  expect(edited.status(), await edited.text()).toBe(200);
  const resubmitted = await author.post(`/api/v1/blog/posts/author/${posts.review.id}/submit-for-review`);
  expect(resubmitted.status(), await resubmitted.text()).toBe(200);
  await review(admin, posts.approveNow.id, { status: 'REJECTED', rejectionReason: 'Needs sources.' });
  await author.dispose();

  await adminPost(admin, 'publish', `Publish me ${unique}`);
  await adminPost(admin, 'archive', `Archive me ${unique}`, 'PUBLISHED');
  await adminPost(admin, 'delete', `Delete me ${unique}`);
  await adminPost(admin, 'updateFails', `Update fails ${unique}`);
});

test.afterAll(async () => {
  await admin?.dispose();
});

test.describe('access', () => {
  test('anonymous visitors are sent to /login with the page as callback', async ({ page }) => {
    await page.goto('/admin/posts?status=draft');
    await expect(page).toHaveURL(/\/login\?callback=%2Fadmin%2Fposts%3Fstatus%3Ddraft$/);
  });

  test('signed-in users below ADMIN see Access Denied (HTTP 200) on every mode', async ({ page, signIn }) => {
    await signIn({ email: uma.email, password: PASSWORD });
    for (const path of [
      '/admin/posts',
      '/admin/posts/new',
      `/admin/posts/${posts.publish.id}/edit`,
      `/admin/posts/${posts.publish.id}/preview`,
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByTestId('access-denied')).toContainText('Access Denied: You need admin privileges to access this page.');
      await expect(page.locator('table')).toHaveCount(0);
    }
    await expectNoSeriousViolations(page, '/admin/posts (denied)');
  });
});

test.describe('list', () => {
  test('renders from the address without JavaScript: search, sort, size, chips and pager', async ({ browser, baseURL, signIn }) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(ADMIN, page);
    const response = await page.goto(`/admin/posts?search=${PAGER_WORD}&sortBy=title&sortDir=asc&size=5`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Post Management');
    const titles = page.locator('tbody th[scope="row"] a');
    await expect(titles).toHaveText([1, 2, 3, 4, 5].map((n) => `${PAGER_WORD} 0${n}`));
    await expect(page.getByRole('columnheader', { name: /Title/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.getByRole('columnheader', { name: /Created/ })).not.toHaveAttribute('aria-sort', /./);
    await expect(page.getByTestId('posts-range')).toHaveText(`Showing 1–5 of ${PAGER_COUNT} posts`);
    const chips = page.getByRole('group', { name: 'Active filters' });
    await expect(chips.getByRole('link', { name: `Remove filter Search: "${PAGER_WORD}"` })).toBeVisible();
    await expect(chips.getByRole('link', { name: 'Remove filter Sort: Title ascending' })).toBeVisible();
    await expect(chips.getByRole('link', { name: 'Remove filter 5 per page' })).toBeVisible();

    const pager = page.getByRole('navigation', { name: 'Posts pages' });
    await expect(pager).toContainText('Page 1 of 11');
    await expect(pager.getByRole('link', { name: /^Page \d+$/ })).toHaveText(['1', '2', '3', '4', '5']);
    // The jump box (above 10 pages) is a GET form that keeps the filters.
    await pager.getByLabel('Go to page').fill('11');
    await pager.getByRole('button', { name: 'Go' }).click();
    await expect(page).toHaveURL(/page=11/);
    await expect(titles).toHaveText([`${PAGER_WORD} 51`, `${PAGER_WORD} 52`]);
    await expect(page.getByRole('navigation', { name: 'Posts pages' }).getByRole('link', { name: 'Page 11' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    // The filter form submits as a GET form.
    await page.getByLabel('Search posts').fill(`${PAGER_WORD} 07`);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(new RegExp(`search=${PAGER_WORD}\\+07`));
    await expect(titles).toHaveText([`${PAGER_WORD} 07`]);

    // A page past the end shows the last page.
    await page.goto(`/admin/posts?search=${PAGER_WORD}&size=50&page=9`);
    await expect(page).toHaveURL(/page=2$/);
    await context.close();
  });

  test('filters, sort, size, chips and the pager work in place', async ({ asAdmin: page }) => {
    await page.goto('/admin/posts');
    await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible();
    const titles = page.locator('tbody th[scope="row"] a');

    // Search after a pause of typing (300 ms debounce); the address follows.
    await page.getByLabel('Search posts').pressSequentially(PAGER_WORD);
    await expect(page).toHaveURL(new RegExp(`search=${PAGER_WORD}`));
    await expect(page.getByTestId('posts-range')).toHaveText(`Showing 1–10 of ${PAGER_COUNT} posts`);

    await page.getByLabel('Sort by').selectOption('title');
    await page.getByLabel('Direction').selectOption('asc');
    await page.getByLabel('Posts per page').selectOption('20');
    await expect(page).toHaveURL(/sortBy=title/);
    await expect(page).toHaveURL(/sortDir=asc/);
    await expect(page).toHaveURL(/size=20/);
    await expect(titles).toHaveCount(20);
    await expect(titles.first()).toHaveText(`${PAGER_WORD} 01`);

    // The Title header flips the direction.
    await page.getByRole('columnheader', { name: /Title/ }).getByRole('link').click();
    await expect(page.getByRole('columnheader', { name: /Title/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(titles.first()).toHaveText(`${PAGER_WORD} 52`);

    // Pager: Next, then a page number; the address keeps the page (1-based).
    const pager = page.getByRole('navigation', { name: 'Posts pages' });
    await expect(pager).toContainText('Page 1 of 3');
    await pager.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(titles.first()).toHaveText(`${PAGER_WORD} 32`);
    await pager.getByRole('link', { name: 'Page 3' }).click();
    await expect(titles).toHaveCount(12);

    // Status filter (admins see pending_review and rejected too); no draft matches 'Approve me'.
    await expect(page.getByLabel('Status', { exact: true }).locator('option')).toHaveText([
      'All statuses',
      'Draft',
      'Pending Review',
      'Published',
      'Rejected',
      'Archived',
      'Private',
    ]);
    await page.getByLabel('Status', { exact: true }).selectOption('pending_review');
    await expect(page).toHaveURL(/status=pending_review/);
    await expect(page.getByText('No posts match your filters')).toBeVisible();

    // Chips: remove the search, then Clear all.
    const chips = page.getByRole('group', { name: 'Active filters' });
    await chips.getByRole('link', { name: `Remove filter Search: "${PAGER_WORD}"` }).click();
    await expect(page).not.toHaveURL(/search=/);
    await expect(page.locator('tbody tr[data-status="PENDING_REVIEW"]').first()).toBeVisible();
    await expect(page.locator('tbody tr:not([data-status="PENDING_REVIEW"])')).toHaveCount(0);
    await chips.getByRole('link', { name: 'Clear all' }).click();
    await expect(page).toHaveURL(/\/admin\/posts$/);
    await expect(page.getByRole('group', { name: 'Active filters' })).toHaveCount(0);
    await expect(page.getByLabel('Search posts')).toHaveValue('');

    // Back restores the previous filters.
    await page.goBack();
    await expect(page).toHaveURL(/status=pending_review/);
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('pending_review');
  });

  test('the jump box takes a page between 1 and the total', async ({ asAdmin: page }) => {
    await page.goto(`/admin/posts?search=${PAGER_WORD}&size=5&sortBy=title&sortDir=asc`);
    const pager = page.getByRole('navigation', { name: 'Posts pages' });
    await expect(page.locator('tbody tr').first().getByRole('button', { name: 'Delete' })).toBeEnabled();
    const box = pager.getByLabel('Go to page');
    for (const wrong of ['0', '12']) {
      await box.fill(wrong);
      await pager.getByRole('button', { name: 'Go' }).click();
      await expect(pager.getByRole('alert')).toHaveText('Enter a page between 1 and 11.');
    }
    await box.fill('4');
    await box.press('Enter');
    await expect(page).toHaveURL(/page=4/);
    await expect(page.locator('tbody th[scope="row"] a').first()).toHaveText(`${PAGER_WORD} 16`);
  });
});

test.describe('actions', () => {
  test('under a status filter, a post the review moves out of that status leaves the list', async ({ asAdmin: page }) => {
    await page.goto(`/admin/posts?status=pending_review&search=${encodeURIComponent(posts.leavesFilter.title)}`);
    const row = page.locator(`tr[data-post-id="${posts.leavesFilter.id}"]`);
    await expect(row.getByRole('button', { name: 'Approve', exact: true })).toBeEnabled();
    await row.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Post approved' })).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.getByText('No posts match your filters')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Posts', exact: true })).toBeFocused();
    expect(await statusOf(admin, posts.leavesFilter.id)).toBe('PUBLISHED');
  });

  test('Approve publishes a pending post', async ({ asAdmin: page }) => {
    const row = await openRow(page, posts.approve);
    await expect(row.getByTestId('post-status')).toHaveText('Pending Review');
    await row.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Post approved' })).toBeVisible();
    await expect(row.getByTestId('post-status')).toHaveText('Published');
    await expect(row.getByRole('link', { name: 'View', exact: true })).toHaveAttribute('href', `/blog/${posts.approve.slug}`);
    expect(await statusOf(admin, posts.approve.id)).toBe('PUBLISHED');
  });

  test('Reject asks for a reason (pre-filled suggestion; empty is refused)', async ({ asAdmin: page }) => {
    const row = await openRow(page, posts.reject);
    await row.getByRole('button', { name: 'Reject', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject Post' });
    const reason = dialog.getByLabel('Rejection reason');
    await expect(reason).toBeFocused();
    await expect(reason).toHaveValue(/revise .* resubmit/);
    await reason.fill('   ');
    await dialog.getByRole('button', { name: 'Reject Post' }).click();
    await expect(dialog.getByText('A rejection reason is required.')).toBeVisible();
    await expect(reason).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousViolations(page, '/admin/posts (reject dialog)');
    await reason.fill(`Cite your sources ${unique}`);
    await dialog.getByRole('button', { name: 'Reject Post' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Post rejected' })).toBeVisible();
    await expect(row.getByTestId('post-status')).toHaveText('Rejected');
    await expect(row.getByRole('button', { name: 'Approve Now' })).toBeVisible();
    const history = (await (await admin.get(`/api/v1/blog/post-reviews/${posts.reject.id}/history`)).json()).data as {
      status: string;
      rejectionReason: string;
    }[];
    expect(history[0]).toMatchObject({ status: 'REJECTED', rejectionReason: `Cite your sources ${unique}` });
  });

  test('Detailed Review: decision and reason required, history shown, Esc closes, approve with notes', async ({ asAdmin: page }) => {
    const row = await openRow(page, posts.review);
    const opener = row.getByRole('button', { name: 'Detailed Review' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Detailed Review' });
    await expect(dialog).toContainText(posts.review.title);
    await expect(dialog.getByTestId('review-history')).toContainText(`First round: tighten the intro ${unique}`);
    await expect(dialog.getByTestId('review-history')).toContainText('Rejected');
    await expectNoSeriousViolations(page, '/admin/posts (detailed review)');

    // Rejected before, so the dialog opens on the earlier reason and the diff since.
    await expect(dialog.getByTestId('rejected-before')).toContainText(`Rejected before: First round: tighten the intro ${unique}`);

    // Focus stays inside: Tab from the last control comes back to the first (the diff's scroll box).
    const controls = dialog.locator('input, textarea, button:not([disabled]), [tabindex="0"]');
    await controls.last().focus();
    await page.keyboard.press('Tab');
    await expect(controls.first()).toBeFocused();

    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await expect(dialog.getByText('Please select a review decision.')).toBeVisible();
    await dialog.getByLabel(/^Reject/).check();
    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await expect(dialog.getByText('Please provide a rejection reason.')).toBeVisible();
    await expect(dialog.getByLabel('Rejection reason')).toBeFocused();

    // Escape closes it and gives focus back to its button.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await dialog.getByLabel(/^Approve/).check();
    await dialog.getByLabel(/Admin notes/).fill(`Checked the intro ${unique}`);
    await dialog.getByRole('button', { name: 'Submit Review' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('post-status')).toHaveText('Published');
    const history = (await (await admin.get(`/api/v1/blog/post-reviews/${posts.review.id}/history`)).json()).data as {
      status: string;
      adminNotes: string | null;
    }[];
    expect(history.map((entry) => entry.status)).toEqual(['APPROVED', 'REJECTED']);
    expect(history[0].adminNotes).toBe(`Checked the intro ${unique}`);
  });

  test('Approve Now publishes a rejected post', async ({ asAdmin: page }) => {
    const row = await openRow(page, posts.approveNow);
    await expect(row.getByTestId('post-status')).toHaveText('Rejected');
    await expect(row.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
    await row.getByRole('button', { name: 'Approve Now' }).click();
    await expect(row.getByTestId('post-status')).toHaveText('Published');
    expect(await statusOf(admin, posts.approveNow.id)).toBe('PUBLISHED');
  });

  test('Publish (draft → published) and Archive (published → archived)', async ({ asAdmin: page }) => {
    let row = await openRow(page, posts.publish);
    await row.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Post published' })).toBeVisible();
    await expect(row.getByTestId('post-status')).toHaveText('Published');
    await expect(row.getByRole('button', { name: 'Archive' })).toBeVisible();
    expect(await statusOf(admin, posts.publish.id)).toBe('PUBLISHED');

    row = await openRow(page, posts.archive);
    await row.getByRole('button', { name: 'Archive' }).click();
    await expect(row.getByTestId('post-status')).toHaveText('Archived');
    expect(await statusOf(admin, posts.archive.id)).toBe('ARCHIVED');
  });

  test('Delete asks first; Cancel keeps the post, Delete removes it (204)', async ({ asAdmin: page }) => {
    const row = await openRow(page, posts.delete);
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete post?' });
    await expect(dialog).toContainText(`"${posts.delete.title}" will be deleted`);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Post deleted' })).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.getByText('No posts match your filters')).toBeVisible();
    expect((await admin.get(`/api/v1/blog/posts/${posts.delete.id}`)).status()).toBe(404);
  });

  test('failures show the toasts: Update Failed, Review Failed, Delete Failed', async ({ asAdmin: page }) => {
    let row = await openRow(page, posts.updateFails);
    // The post goes away behind the list's back: the update answers 404.
    expect((await admin.delete(`/api/v1/blog/posts/${posts.updateFails.id}`)).status()).toBe(204);
    await row.getByRole('button', { name: 'Publish' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Update Failed' });
    await expect(alert).toContainText(`Post with id ${posts.updateFails.id} not found`);
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete post?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Delete Failed' })).toContainText(
      `Delete failed: Post with id ${posts.updateFails.id} not found`,
    );
    await page.keyboard.press('Escape');

    row = await openRow(page, posts.reviewFails);
    await review(admin, posts.reviewFails.id, { status: 'APPROVED' });
    await row.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByRole('dialog', { name: 'Reject Post' }).getByRole('button', { name: 'Reject Post' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Rejection Failed' })).toContainText(
      'Cannot reject a post with status PUBLISHED',
    );
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Review Failed' })).toContainText('Cannot approve a post with status PUBLISHED');
  });
});

test.describe('create, edit and preview', () => {
  test('New Post through the editor: saved as published, back on the list with the notice', async ({ asAdmin: page, hydrated }) => {
    const response = await page.goto('/admin/posts/new');
    expect(response?.status()).toBe(200);
    const editor = page.getByTestId('post-editor');
    await hydrated(editor);
    await expectNoSeriousViolations(page, '/admin/posts/new');
    const title = `Admin created ${unique}`;
    await editor.getByLabel('Title', { exact: true }).fill(title);
    await expect(editor.getByLabel('Slug', { exact: true })).toHaveValue(`admin-created-${unique}`);
    await editor.getByLabel('Excerpt').fill('Written in the back office.');
    await editor.getByLabel('Content', { exact: true }).fill('# Hello\n\nWritten by an admin.');
    await editor.getByLabel('Status', { exact: true }).selectOption('PUBLISHED');
    await editor.getByRole('button', { name: 'Save Post' }).click();
    await expect(page).toHaveURL(/\/admin\/posts$/);
    await expect(page.getByRole('status').filter({ hasText: 'Post created successfully.' })).toBeVisible();
    const found = (await (await admin.get(`/api/v1/blog/posts/admin/all?search=${encodeURIComponent(title)}`)).json()).data.content as {
      id: number;
      status: string;
      slug: string;
    }[];
    expect(found).toEqual([expect.objectContaining({ status: 'PUBLISHED', slug: `admin-created-${unique}` })]);
    posts.created = { id: found[0].id, title, slug: found[0].slug };
  });

  test('Edit loads the post, saves it and the list says it was updated; Esc goes back', async ({ asAdmin: page, hydrated }) => {
    const post = await adminPost(admin, 'edit', `Edit me ${unique}`);
    const response = await page.goto(`/admin/posts/${post.id}/edit`);
    expect(response?.status()).toBe(200);
    const editor = page.getByTestId('post-editor');
    await hydrated(editor);
    await expect(editor.getByLabel('Title', { exact: true })).toHaveValue(post.title);
    await expectNoSeriousViolations(page, '/admin/posts/{id}/edit');
    await editor.getByLabel('Title', { exact: true }).fill(`Edited ${unique}`);
    await page.keyboard.press('Control+s');
    await expect(page).toHaveURL(/\/admin\/posts$/);
    await expect(page.getByRole('status').filter({ hasText: 'Post updated successfully.' })).toBeVisible();
    const saved = (await (await admin.get(`/api/v1/blog/posts/${post.id}`)).json()).data as { title: string; slug: string };
    expect(saved).toMatchObject({ title: `Edited ${unique}`, slug: post.slug });

    await page.goto(`/admin/posts/${post.id}/edit`);
    await hydrated(editor);
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/admin\/posts$/);
  });

  test('an unknown post shows Load Failed (404)', async ({ asAdmin: page }) => {
    for (const path of ['/admin/posts/2147483000/edit', '/admin/posts/2147483000/preview']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('alert')).toContainText('Load Failed');
      await expect(page.getByRole('alert')).toContainText('Post with id 2147483000 not found');
      await expect(page.getByRole('link', { name: 'Back to Posts' })).toHaveAttribute('href', '/admin/posts');
    }
  });

  test('Preview shows the saved post; Close Preview goes to the list, or back to the editor it came from', async ({ asAdmin: page }) => {
    const post = posts.archive;
    await page.goto(`/admin/posts/${post.id}/preview`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
    const footer = page.locator('footer[aria-label="Preview Mode"]');
    await expect(footer.getByRole('link', { name: 'Close Preview' })).toHaveAttribute('href', '/admin/posts');
    await expect(footer.getByRole('link', { name: 'Edit Post' })).toHaveAttribute('href', `/admin/posts/${post.id}/edit`);
    await expectNoSeriousViolations(page, '/admin/posts/{id}/preview');
    await page.goto(`/admin/posts/${post.id}/preview?from=edit`);
    await expect(footer.getByRole('link', { name: 'Close Preview' })).toHaveAttribute('href', `/admin/posts/${post.id}/edit`);
  });
});

test.describe('accessibility', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`axe: /admin/posts (${theme})`, async ({ page, signIn }) => {
      await page.emulateMedia({ colorScheme: theme });
      await signIn(ADMIN);
      await page.goto(`/admin/posts?search=${PAGER_WORD}&size=5`);
      await expect(page.locator('tbody tr').first().getByRole('button', { name: 'Delete' })).toBeEnabled();
      await expectNoSeriousViolations(page, `/admin/posts (${theme})`);
      await page.locator('tbody tr').first().getByRole('button', { name: 'Delete' }).click();
      await expectNoSeriousViolations(page, `/admin/posts delete dialog (${theme})`);
    });
  }

  test('keyboard: filters, header sort and row actions are reachable with Tab', async ({ asAdmin: page }) => {
    await page.goto(`/admin/posts?search=${PAGER_WORD}&size=5`);
    await expect(page.locator('tbody tr').first().getByRole('button', { name: 'Delete' })).toBeEnabled();
    await page.getByLabel('Search posts').focus();
    const reached = new Set<string>();
    for (let step = 0; step < 40; step++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim().split('\n')[0] ?? ''));
    }
    for (const name of ['Apply', 'Edit', 'Preview', 'Publish', 'Delete'])
      expect(
        [...reached].some((text) => text.startsWith(name)),
        `${name} reached by Tab`,
      ).toBe(true);
    // The first row's Delete opens its dialog with Enter.
    await page.locator('tbody tr').first().getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alertdialog', { name: 'Delete post?' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('the table fits its frame: every row action in view, no header, author or action label broken inside a word', async ({
    asAdmin: page,
    hydrated,
  }) => {
    // This file's posts, newest first: the pending one left for this check has the most actions a row
    // has (Approve, Schedule, Reject, Detailed Review, Edit, Preview, Delete).
    await page.goto(`/admin/posts?search=${unique}`);
    await expect(page.locator(`tr[data-post-id="${posts.layout.id}"]`).getByRole('button', { name: 'Detailed Review' })).toBeVisible();
    await hydrated();
    const table = page.getByTestId('posts-table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const frame = page.getByRole('region', { name: 'Posts table' });
    const fit = await frame.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const outside = [...element.querySelectorAll('tbody button, tbody a')]
        .filter((action) => {
          const own = action.getBoundingClientRect();
          return own.left < box.left - 0.5 || own.right > box.right + 0.5 || own.right > window.innerWidth;
        })
        .map((action) => action.textContent?.trim());
      return { scrolls: element.scrollWidth > element.clientWidth, outside };
    });
    expect(fit).toEqual({ scrolls: false, outside: [] });
    await expect(page.getByTestId('table-scroll-hint')).toHaveCount(0);
    expect(await brokenWords(table.locator('thead th, tbody td:nth-child(2), tbody td:last-child'))).toEqual([]);
  });
});

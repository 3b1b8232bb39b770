import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN, expect, test } from './fixtures';
import sharp from 'sharp';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * The author's pages (docs/requirements.md#screen-author-posts, docs/requirements.md#permissions): /author, /author/posts, /author/posts/new,
 * /author/posts/{id}/edit, /author/posts/{id}/preview and /author/drafts. Accounts are made by
 * the seeded administrator (POST /admin/users with the AUTHOR or USER role), posts through the
 * author endpoints, statuses through the admin's update and review.
 *
 * Data:
 * - Pat (AUTHOR): 12 posts: 6 drafts, 1 pending review, 2 published, 1 rejected, 1 private,
 *   1 archived (two pages of 10 in My Posts).
 * - Dora (AUTHOR): a complete draft (title, 120 words, excerpt: 100 %, ready), a rough one
 *   (20 words, no excerpt: 33 %) and a post waiting for review (not a draft).
 * - Del (AUTHOR): one draft, deleted through My Posts.
 * - Ana (AUTHOR): the writing journey through the editor; Eve (AUTHOR) has nothing yet.
 * - Rita (USER) and the seeded admin: the access rules.
 */

const PASSWORD = 'Author-Pass-1!';
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

interface Account {
  fullName: string;
  email: string;
  password: string;
}
const account = (name: string): Account => ({
  fullName: `${name} ${unique}`,
  email: `${name.toLowerCase()}-${unique}@inkwell.test`,
  password: PASSWORD,
});
const pat = account('Pat');
const dora = account('Dora');
const del = account('Del');
const ana = account('Ana');
const rita = account('Rita');
const eve = account('Eve');

interface CreatedPost {
  id: number;
  slug: string;
  title: string;
}
const patPosts: Record<string, CreatedPost> = {};
const doraPosts: Record<string, CreatedPost> = {};
let delPost: CreatedPost;
const tags: { name: string; slug: string }[] = [];
const words = (count: number, word = 'word') => Array.from({ length: count }, (_, index) => `${word}${index + 1}`).join(' ');

async function createAccount(admin: APIRequestContext, who: Account, role: 'AUTHOR' | 'USER'): Promise<void> {
  const created = await admin.post('/api/v1/admin/users', {
    data: { ...who, password: PASSWORD, confirmPassword: PASSWORD, roles: [role], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
}

async function write(
  api: APIRequestContext,
  title: string,
  fields: { content?: string; summary?: string; tagSlugs?: string[] } = {},
): Promise<CreatedPost> {
  const slug = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${unique}`;
  const created = await api.post('/api/v1/blog/posts/author/create', {
    data: {
      title,
      slug,
      summary: fields.summary ?? `About ${title}.`,
      content: fields.content ?? words(30),
      tagSlugs: fields.tagSlugs ?? [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { id: ((await created.json()).data as { id: number }).id, slug, title };
}

async function setStatus(admin: APIRequestContext, post: CreatedPost, status: string): Promise<void> {
  const updated = await admin.put(`/api/v1/blog/posts/${post.id}`, { data: { status } });
  expect(updated.status(), await updated.text()).toBe(200);
}

async function submit(api: APIRequestContext, post: CreatedPost): Promise<void> {
  const submitted = await api.post(`/api/v1/blog/posts/author/${post.id}/submit-for-review`);
  expect(submitted.status(), await submitted.text()).toBe(200);
}

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  const admin = await adminApi(baseURL!, playwright);
  for (const name of ['Fiction', 'Travel']) {
    const tag = { name: `${name} ${unique}`, slug: `${name.toLowerCase()}-${unique}` };
    const created = await admin.post('/api/v1/blog/tags', { data: tag });
    expect(created.status(), await created.text()).toBe(201);
    tags.push(tag);
  }
  for (const who of [pat, dora, del, ana, eve]) await createAccount(admin, who, 'AUTHOR');
  await createAccount(admin, rita, 'USER');

  const patApi = await apiAs(baseURL!, playwright, pat.email, PASSWORD);
  // Oldest first: My Posts lists newest first, so 'Pat 12' heads page 1 and 'Pat 1' ends page 2.
  const order = [
    'draft-1',
    'draft-2',
    'draft-3',
    'draft-4',
    'draft-5',
    'pending',
    'published-1',
    'rejected',
    'private',
    'archived',
    'published-2',
    'draft-6',
  ];
  for (const [index, key] of order.entries()) {
    patPosts[key] = await write(patApi, `Pat ${index + 1} ${key}`, { tagSlugs: index === 0 ? tags.map((tag) => tag.slug) : [] });
  }
  await setStatus(admin, patPosts['published-1'], 'PUBLISHED');
  await setStatus(admin, patPosts['published-2'], 'PUBLISHED');
  await setStatus(admin, patPosts.private, 'PRIVATE');
  await setStatus(admin, patPosts.archived, 'ARCHIVED');
  await submit(patApi, patPosts.pending);
  await submit(patApi, patPosts.rejected);
  const rejected = await admin.put(`/api/v1/blog/posts/admin/${patPosts.rejected.id}/review`, {
    data: { status: 'REJECTED', rejectionReason: 'Please add sources and resubmit.' },
  });
  expect(rejected.status(), await rejected.text()).toBe(200);
  await patApi.dispose();

  const doraApi = await apiAs(baseURL!, playwright, dora.email, PASSWORD);
  doraPosts.waiting = await write(doraApi, 'Dora waiting', { content: words(150) });
  await submit(doraApi, doraPosts.waiting);
  doraPosts.rough = await write(doraApi, 'Dora rough', { content: words(20), summary: '' });
  doraPosts.complete = await write(doraApi, 'Dora complete', { content: words(120), summary: 'A complete draft, ready for review.' });
  await doraApi.dispose();

  const delApi = await apiAs(baseURL!, playwright, del.email, PASSWORD);
  delPost = await write(delApi, 'Del only draft');
  await delApi.dispose();
  await admin.dispose();
});

test.describe('who may open the author pages', () => {
  const authorPages = [
    '/author',
    '/author/posts',
    '/author/posts/new',
    '/author/drafts',
    '/author/posts/1/edit',
    '/author/posts/1/preview',
  ];

  test('anonymous visitors go to /login with the page as callback (302)', async ({ request }) => {
    for (const path of [...authorPages, '/author/posts?status=draft&page=2']) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers().location, path).toBe(`/login?callback=${encodeURIComponent(path)}`);
    }
  });

  test('a reader is sent to / from every author page except My Posts, which shows the denied view with Login and Go Home', async ({
    page,
    signIn,
  }) => {
    await signIn(rita);
    for (const path of authorPages.filter((path) => path !== '/author/posts')) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers().location, path).toBe('/');
    }
    const response = await page.goto('/author/posts');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access Denied');
    await expect(page.getByText('You need AUTHOR role to access this page.')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Go to Admin Dashboard' })).toHaveCount(0);
    await expect(page.locator('[data-post-row]')).toHaveCount(0);

    // Login signs this account out, then asks for another one and comes back here.
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(`/login?callback=${encodeURIComponent('/author/posts')}`);
    await page.getByLabel('Email').fill(pat.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL('/author/posts');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My Posts');
  });

  test('an admin is sent to /admin; on My Posts gets the admin dashboard button and Switch Account', async ({ asAdmin: page }) => {
    for (const path of authorPages.filter((path) => path !== '/author/posts')) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers().location, path).toBe('/admin');
    }
    const response = await page.goto('/author/posts');
    expect(response?.status()).toBe(200);
    await expect(page.getByText('You need AUTHOR role to access this page.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Admin Dashboard' })).toHaveAttribute('href', '/admin');
    await expect(page.getByRole('main').getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    await page.getByRole('button', { name: 'Switch Account' }).click();
    await expect(page).toHaveURL(`/login?callback=${encodeURIComponent('/author/posts')}`);
    // Signed out: the author pages ask for a login again.
    const after = await page.request.get('/author/posts', { maxRedirects: 0 });
    expect(after.status()).toBe(302);
  });

  test("an author cannot open another author's post: 403 on edit and preview; unknown ids are 404", async ({ page, signIn }) => {
    await signIn(dora);
    for (const path of [`/author/posts/${patPosts['draft-1'].id}/edit`, `/author/posts/${patPosts['draft-1'].id}/preview`]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access Denied');
      await expect(page.getByText('You do not have permission to access this post.')).toBeVisible();
    }
    for (const path of ['/author/posts/2147483000/edit', '/author/posts/abc/preview', '/author/posts/0/edit']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Post Not Found');
    }
  });
});

test.describe('My Posts', () => {
  test('counts per status, four stat cards, rows with badges, dates and tags, 10 a page', async ({ page, signIn }) => {
    await signIn(pat);
    const response = await page.goto('/author/posts');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My Posts');
    const filters = page.getByRole('navigation', { name: 'Filter by status' });
    const count = (value: string) => filters.locator(`[data-filter="${value}"] [data-count]`);
    for (const [value, expected] of Object.entries({
      all: 12,
      draft: 6,
      pending_review: 1,
      published: 2,
      rejected: 1,
      private: 1,
      archived: 1,
    })) {
      await expect(count(value), value).toHaveText(String(expected));
    }
    await expect(filters.getByRole('link', { name: /^All/ })).toHaveAttribute('aria-current', 'true');
    const stat = (id: string) => page.locator(`[data-stat="${id}"] [data-value]`);
    await expect(stat('total')).toHaveText('12');
    await expect(stat('published')).toHaveText('2');
    await expect(stat('drafts')).toHaveText('6');
    await expect(stat('private')).toHaveText('1');

    const rows = page.locator('[data-post-row]');
    await expect(rows).toHaveCount(10);
    const newest = rows.first();
    await expect(newest.getByRole('heading')).toHaveText(patPosts['draft-6'].title);
    await expect(newest.locator('[data-status]')).toHaveText('Draft');
    await expect(newest).toContainText(/Created [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await expect(newest.getByRole('link', { name: /^Edit/ })).toHaveAttribute('href', `/author/posts/${patPosts['draft-6'].id}/edit`);
    await expect(newest.getByRole('button', { name: /^Submit for review/ })).toBeEnabled();
    await expect(newest.getByRole('button', { name: /^Delete/ })).toBeEnabled();

    const published = page.locator(`[data-post-row="${patPosts['published-2'].id}"]`);
    await expect(published.locator('[data-status]')).toHaveText('Published');
    await expect(published.getByRole('link', { name: /^View/ })).toHaveAttribute('href', `/blog/${patPosts['published-2'].slug}`);
    await expect(published.getByRole('link', { name: /^Edit/ })).toHaveCount(0);
    await expect(published.locator('[data-locked]')).toHaveText('Published: ask an administrator for changes.');
    await expect(published.getByRole('button')).toHaveCount(0);

    const pending = page.locator(`[data-post-row="${patPosts.pending.id}"]`);
    await expect(pending.locator('[data-status]')).toHaveText('Pending Review');
    await expect(pending.locator('[data-locked]')).toContainText('In review');
    await expect(pending.getByRole('link', { name: /^View/ })).toHaveCount(0);
    const rejected = page.locator(`[data-post-row="${patPosts.rejected.id}"]`);
    await expect(rejected.locator('[data-status]')).toHaveText('Rejected');
    await expect(rejected.getByRole('link', { name: /^Edit/ })).toBeVisible();

    const pager = page.getByRole('navigation', { name: 'My posts pages' });
    await expect(pager).toContainText('Page 1 of 2');
    await pager.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL('/author/posts?page=2');
    await expect(pager).toContainText('Page 2 of 2');
    await expect(rows).toHaveCount(2);
    const oldest = rows.last();
    await expect(oldest.getByRole('heading')).toHaveText(patPosts['draft-1'].title);
    await expect(oldest.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(tags.map((tag) => tag.name));
    await expect(pager.getByText('Next')).toHaveAttribute('aria-disabled', 'true');
    await pager.getByRole('link', { name: 'Previous' }).click();
    await expect(page).toHaveURL('/author/posts');

    // A page past the end shows the last page.
    await page.goto('/author/posts?page=9');
    await expect(page).toHaveURL('/author/posts?page=2');
  });

  test('the status filters list only that status, keep the counts and start at page 1', async ({ page, signIn }) => {
    await signIn(pat);
    await page.goto('/author/posts?page=2');
    const filters = page.getByRole('navigation', { name: 'Filter by status' });
    await filters.getByRole('link', { name: /^Drafts/ }).click();
    await expect(page).toHaveURL('/author/posts?status=draft');
    await expect(filters.getByRole('link', { name: /^Drafts/ })).toHaveAttribute('aria-current', 'true');
    await expect(page.locator('[data-post-row] [data-status]')).toHaveText(Array(6).fill('Draft'));
    await expect(page.getByRole('navigation', { name: 'My posts pages' })).toHaveCount(0);

    for (const [label, value, title] of [
      ['Published', 'published', null],
      ['Private', 'private', patPosts.private.title],
      ['Archived', 'archived', patPosts.archived.title],
      ['Rejected', 'rejected', patPosts.rejected.title],
      ['Pending Review', 'pending_review', patPosts.pending.title],
    ] as const) {
      await filters.getByRole('link', { name: new RegExp(`^${label}`) }).click();
      await expect(page).toHaveURL(`/author/posts?status=${value}`);
      if (title) await expect(page.locator('[data-post-row] h2')).toHaveText([title]);
      else await expect(page.locator('[data-post-row] h2')).toHaveText([patPosts['published-2'].title, patPosts['published-1'].title]);
    }
    // Counts stay those of every status.
    await expect(filters.locator('[data-filter="all"] [data-count]')).toHaveText('12');
    // An unknown status is All.
    await page.goto('/author/posts?status=nonsense');
    await expect(filters.getByRole('link', { name: /^All/ })).toHaveAttribute('aria-current', 'true');
  });

  test('Delete asks first, removes the draft and leaves the empty state with Create Your First Post', async ({ page, signIn }) => {
    await signIn(del);
    await page.goto('/author/posts');
    const row = page.locator(`[data-post-row="${delPost.id}"]`);
    const remove = row.getByRole('button', { name: /^Delete/ });
    await expect(remove).toBeEnabled();

    // Dismissed: nothing happens.
    page.once('dialog', (dialog) => dialog.dismiss());
    await remove.click();
    await expect(row).toBeVisible();

    page.once('dialog', (dialog) => {
      expect(dialog.message()).toBe(`Delete "${delPost.title}"? This cannot be undone.`);
      return dialog.accept();
    });
    await remove.click();
    await expect(page.getByRole('status')).toHaveText('Post deleted.');
    await expect(page.getByRole('status')).toBeFocused();
    await expect(page.getByText('No posts yet')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Create Your First Post' })).toHaveAttribute('href', '/author/posts/new');
    await expect(page.locator('[data-stat="total"] [data-value]')).toHaveText('0');
    // The notice is shown once.
    await page.reload();
    await expect(page.getByRole('status')).toBeHidden();
  });
});

test.describe('Draft Posts', () => {
  test("lists the author's real drafts with words, completeness, ready count and last modified", async ({ page, signIn }) => {
    await signIn(dora);
    const response = await page.goto('/author/drafts');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Draft Posts');
    await expect(page.locator('[data-stat="total-drafts"] [data-value]')).toHaveText('2');
    await expect(page.locator('[data-stat="total-words"] [data-value]')).toHaveText('140');
    await expect(page.locator('[data-stat="ready"] [data-value]')).toHaveText('1');

    const cards = page.locator('[data-draft]');
    // Last modified first; the post waiting for review is not a draft.
    await expect(cards.locator('h2')).toHaveText([doraPosts.complete.title, doraPosts.rough.title]);
    const complete = page.locator(`[data-draft="${doraPosts.complete.id}"]`);
    await expect(complete.locator('[data-completeness]')).toHaveText('100%');
    await expect(complete.getByRole('meter', { name: 'Completeness' })).toHaveAttribute('aria-valuenow', '100');
    await expect(complete.locator('[data-ready]')).toHaveText('Ready');
    await expect(complete.locator('[data-words]')).toHaveText('120 words');
    await expect(complete.locator('[data-modified]')).toHaveText('less than an hour ago');
    await expect(complete.locator('[data-check="passed"]')).toHaveCount(3);

    const rough = page.locator(`[data-draft="${doraPosts.rough.id}"]`);
    await expect(rough.locator('[data-completeness]')).toHaveText('33%');
    await expect(rough.locator('[data-ready]')).toHaveCount(0);
    await expect(rough.locator('[data-check="missing"]')).toHaveText(['More than 100 words: not yet', 'Has an excerpt: not yet']);
    await expect(rough.getByRole('link', { name: /^Continue Editing/ })).toHaveAttribute(
      'href',
      `/author/posts/${doraPosts.rough.id}/edit`,
    );
    await expect(rough.getByRole('button', { name: /^Submit for review/ })).toBeEnabled();
  });

  test('a fresh author sees the empty state', async ({ page, signIn }) => {
    await signIn(eve);
    await page.goto('/author/drafts');
    await expect(page.getByText('No drafts yet')).toBeVisible();
    await expect(page.locator('[data-stat="total-drafts"] [data-value]')).toHaveText('0');
  });
});

test.describe('Author Dashboard', () => {
  test("shows the author's figures, the system's, recent activities with links and the quick actions", async ({
    page,
    playwright,
    baseURL,
    signIn,
  }) => {
    await signIn(pat);
    // Read before the page: other suites add tags in parallel, so the page's count is at least this.
    const anonymous = await playwright.request.newContext({ baseURL });
    const activeTags = (await (await anonymous.get('/api/v1/blog/tags?size=1&activeOnly=true')).json()).data.totalElements as number;
    await anonymous.dispose();
    const response = await page.goto('/author');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Author Dashboard');
    const stat = (id: string) => page.locator(`[data-stat="${id}"] [data-value]`);
    await expect(stat('my-posts')).toHaveText('12');
    await expect(stat('published')).toHaveText('2');
    await expect(stat('drafts')).toHaveText('6');
    await expect(stat('total-posts')).toHaveText(/^\d[\d,]*$/);
    expect(Number((await stat('total-posts').textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(12 + 3);
    await expect(page.getByRole('heading', { name: 'System Information' })).toBeVisible();
    expect(Number((await page.getByTestId('total-tags').textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(activeTags);

    const activities = page.getByTestId('recent-activities');
    await expect(activities).toBeVisible();
    await expect(activities.getByRole('link', { name: /published/i }).first()).toHaveAttribute('href', /^\/blog\//);
    await expect(activities).toContainText('Please add sources and resubmit.');

    await expect(page.getByRole('main').getByRole('link', { name: 'New Post', exact: true })).toHaveAttribute('href', '/author/posts/new');
    await expect(page.getByRole('link', { name: 'Create New Post' })).toHaveAttribute('href', '/author/posts/new');
    await expect(page.getByRole('link', { name: 'Manage Posts' })).toHaveAttribute('href', '/author/posts');
    await expect(page.getByRole('link', { name: 'View Tags' })).toHaveAttribute('href', '/blog');
    await expect(page.getByRole('link', { name: 'Refresh' })).toHaveAttribute('href', '/author');
    // The side panel: the author's sections.
    const nav = page.getByRole('complementary', { name: 'Author navigation' });
    await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'My Posts', 'New Post', 'Drafts', 'Stats', 'Account']);
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);

    // One current link in the side panel, the most specific one (not 'My Posts' too on
    // New Post); My Posts' status filters mark theirs as the current item of a set, not a page.
    for (const [path, current] of [
      ['/author/posts/new', 'New Post'],
      ['/author/posts', 'My Posts'],
    ]) {
      await page.goto(path);
      await expect(nav.locator('[aria-current="page"]'), path).toHaveCount(1);
      await expect(nav.getByRole('link', { name: current, exact: true }), path).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('main').locator('[aria-current="page"]:not(nav[aria-label$="pages"] *)'), path).toHaveCount(0);
    }
  });
});

/** Presses Tab until `target` has the focus (at most `limit` times): it is reachable by keyboard. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, limit = 80): Promise<void> {
  for (let step = 0; step < limit; step++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`not reached by Tab in ${limit} steps: ${target}`);
}

test.describe('keyboard', () => {
  test('My Posts: a status filter and Submit for review are reached with Tab and used with Enter; focus moves to the notice', async ({
    page,
    playwright,
    baseURL,
    signIn,
  }) => {
    // An author of its own, so that submitting changes nobody else's figures.
    const kim = account('Kim');
    const admin = await adminApi(baseURL!, playwright);
    await createAccount(admin, kim, 'AUTHOR');
    await admin.dispose();
    const kimApi = await apiAs(baseURL!, playwright, kim.email, PASSWORD);
    const draft = await write(kimApi, 'Kim keyboard draft');
    await kimApi.dispose();

    await signIn(kim);
    await page.goto('/author/posts');
    const drafts = page.getByRole('navigation', { name: 'Filter by status' }).getByRole('link', { name: /^Drafts/ });
    await tabTo(page, drafts);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/author/posts?status=draft');

    const submitButton = page.locator(`[data-post-row="${draft.id}"]`).getByRole('button', { name: /^Submit for review/ });
    await expect(submitButton).toBeEnabled();
    await tabTo(page, submitButton);
    await page.keyboard.press('Enter');
    // The confirmation (with an optional requested time): Tab reaches its Submit button.
    const confirm = page.getByRole('dialog', { name: 'Submit for review?' });
    await expect(confirm.getByLabel(/Requested publish time/)).toBeFocused();
    await tabTo(page, confirm.getByRole('button', { name: 'Submit for review' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status')).toHaveText('Post submitted for review.');
    await expect(page.getByRole('status')).toBeFocused();
    // Listed under Drafts no more; Pending Review has it, locked.
    await expect(page.getByText('No posts with this status')).toBeVisible();
    await page.goto('/author/posts?status=pending_review');
    await expect(page.locator(`[data-post-row="${draft.id}"] [data-locked]`)).toContainText('In review');
  });
});

test.describe('writing journey', () => {
  test('an author writes a post with a thumbnail and tags, previews, saves, finds it in drafts, edits it (a reload offers the unsaved text back) and submits it for review', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    test.setTimeout(90_000);
    const title = `Ana harbour walk ${unique}`;
    const excerpt = 'Morning light over the old harbour, in three short scenes.';
    const body = `## First scene\n\n${words(130, 'harbour')}\n\nThe end of the *first* walk.`;

    await signIn(ana);
    await page.goto('/author');
    await expect(page.locator('[data-stat="drafts"] [data-value]')).toHaveText('0');
    await page.getByRole('main').getByRole('link', { name: 'New Post', exact: true }).click();
    await expect(page).toHaveURL('/author/posts/new');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('New Post');
    await hydrated(page.getByTestId('post-editor'));

    await page.getByLabel('Title', { exact: true }).fill(title);
    await expect(page.getByLabel('Slug', { exact: true })).toHaveValue(`ana-harbour-walk-${unique}`);
    await page.getByLabel('Excerpt', { exact: true }).fill(excerpt);
    await page.getByLabel('Content', { exact: true }).fill(body);
    for (const tag of tags) await page.getByRole('button', { name: `Add tag ${tag.name}` }).click();

    // The thumbnail: a real 800x400 PNG, checked, uploaded and kept.
    const image = await sharp({ create: { width: 800, height: 400, channels: 3, background: { r: 30, g: 110, b: 160 } } })
      .png()
      .toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose image' }).click();
    await (await chooser).setFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: image });
    await page.getByRole('button', { name: 'Upload image' }).click();
    await expect(page.getByText('Image uploaded.')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Done' }).click();

    // Preview before saving.
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('dialog', { name: title });
    await expect(preview).toBeVisible();
    await expect(preview.getByRole('heading', { name: 'First scene' })).toBeVisible();
    await expect(preview.getByText('Not published')).toBeVisible();
    await expect(preview.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(tags.map((tag) => tag.name));
    await preview.getByRole('button', { name: 'Close Preview' }).click();
    await expect(preview).toBeHidden();

    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(page.getByTestId('editor-notice')).toHaveText('Post saved as a draft. Submit it for review to publish it.');

    const authorApi = await apiAs(baseURL!, playwright, ana.email, PASSWORD);
    const mine = (await (await authorApi.get('/api/v1/blog/posts/author/my-posts', { params: { page: 0, size: 10 } })).json()).data
      .content as {
      id: number;
      userId: number;
      title: string;
      status: string;
      thumbnail: string | null;
      tags: { slug: string }[];
    }[];
    await authorApi.dispose();
    expect(mine).toHaveLength(1);
    const [saved] = mine;
    expect(saved).toMatchObject({ title, status: 'DRAFT' });
    expect(saved.thumbnail).toMatch(/^\/images\//);
    expect(saved.tags.map((tag) => tag.slug).sort()).toEqual(tags.map((tag) => tag.slug).sort());
    // The first save put the post's edit page in the address bar.
    await expect(page).toHaveURL(`/author/posts/${saved.id}/edit`);

    // My Posts lists it as a draft, with its tags.
    await page.goto('/author/posts');
    const row = page.locator(`[data-post-row="${saved.id}"]`);
    await expect(row.locator('[data-status]')).toHaveText('Draft');
    await expect(row.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(tags.map((tag) => tag.name));

    // The reader-style preview page.
    await row.getByRole('link', { name: /^Preview/ }).click();
    await expect(page).toHaveURL(`/author/posts/${saved.id}/preview`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByRole('heading', { name: 'First scene' })).toBeVisible();
    await expect(page.getByRole('img', { name: title })).toHaveAttribute('src', saved.thumbnail!);
    await expect(page.getByText('Preview Mode', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Close Preview' })).toHaveAttribute('href', '/author/posts');
    await expect(page.getByRole('link', { name: 'Edit Post' })).toHaveAttribute('href', `/author/posts/${saved.id}/edit`);

    // Drafts: complete (title, 130+ words, excerpt), ready.
    await page.goto('/author/drafts');
    const card = page.locator(`[data-draft="${saved.id}"]`);
    await expect(card.locator('[data-completeness]')).toHaveText('100%');
    await expect(card.locator('[data-ready]')).toHaveText('Ready');
    await expect(card.locator('[data-words]')).toHaveText(/^13\d words$/);
    await card.getByRole('link', { name: /^Continue Editing/ }).click();
    await expect(page).toHaveURL(`/author/posts/${saved.id}/edit`);
    await hydrated(page.getByTestId('post-editor'));
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title);

    // Edit, then reload before saving: the unsaved text is offered back.
    const content = page.getByLabel('Content', { exact: true });
    await content.fill(`${body}\n\nA second scene, written later.`);
    await expect
      .poll(() => page.evaluate((key) => localStorage.getItem(key), `inkwell:draft:${saved.userId}:post:${saved.id}`))
      .toContain('A second scene');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await hydrated(page.getByTestId('post-editor'));
    const offer = page.getByRole('alertdialog', { name: 'Restore unsaved changes?' });
    await expect(offer).toBeVisible();
    await expect(content).not.toHaveValue(/A second scene/);
    await offer.getByRole('button', { name: 'Restore' }).click();
    await expect(content).toHaveValue(/A second scene, written later\.$/);
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(page.getByTestId('editor-notice')).toHaveText('Post saved as a draft. Submit it for review to publish it.');

    // Submit for review from My Posts.
    await page.goto('/author/posts?status=draft');
    await page
      .locator(`[data-post-row="${saved.id}"]`)
      .getByRole('button', { name: /^Submit for review/ })
      .click();
    await page.getByRole('dialog', { name: 'Submit for review?' }).getByRole('button', { name: 'Submit for review' }).click();
    await expect(page.getByRole('status')).toHaveText('Post submitted for review.');
    await page.goto('/author/posts');
    const submitted = page.locator(`[data-post-row="${saved.id}"]`);
    await expect(submitted.locator('[data-status]')).toHaveText('Pending Review');
    await expect(submitted.getByRole('link', { name: /^Edit/ })).toHaveCount(0);
    await expect(submitted.getByRole('button')).toHaveCount(0);
    // The editor now explains why it cannot be edited.
    const locked = await page.goto(`/author/posts/${saved.id}/edit`);
    expect(locked?.status()).toBe(409);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This post can no longer be edited');
    await page.goto('/author/drafts');
    await expect(page.getByText('No drafts yet')).toBeVisible();
    await page.goto('/author');
    await expect(page.locator('[data-stat="my-posts"] [data-value]')).toHaveText('1');
    await expect(page.locator('[data-stat="drafts"] [data-value]')).toHaveText('0');
    await expect(page.getByTestId('recent-activities')).toContainText(title);
  });
});

for (const theme of ['light', 'dark'] as const) {
  test.describe(`author pages, axe (${theme})`, () => {
    test.use({ colorScheme: theme });
    const routes: { label: string; path: () => string; who: 'pat' | 'rita' | 'admin' | 'dora' | 'eve'; status?: number }[] = [
      { label: '/author', path: () => '/author', who: 'pat' },
      { label: '/author/posts', path: () => '/author/posts', who: 'pat' },
      { label: '/author/posts?page=2', path: () => '/author/posts?page=2', who: 'pat' },
      { label: '/author/posts?status=archived', path: () => '/author/posts?status=archived', who: 'pat' },
      { label: '/author/posts denied (reader)', path: () => '/author/posts', who: 'rita' },
      { label: '/author/posts denied (admin)', path: () => '/author/posts', who: 'admin' },
      { label: '/author/drafts', path: () => '/author/drafts', who: 'dora' },
      { label: '/author/drafts empty', path: () => '/author/drafts', who: 'eve' },
      { label: '/author/posts empty', path: () => '/author/posts', who: 'eve' },
      { label: '/author/posts/{draft}/preview', path: () => `/author/posts/${patPosts['draft-1'].id}/preview`, who: 'pat' },
      {
        label: '/author/posts/{published}/edit (locked)',
        path: () => `/author/posts/${patPosts['published-1'].id}/edit`,
        who: 'pat',
        status: 409,
      },
      { label: '/author/posts/new', path: () => '/author/posts/new', who: 'pat' },
      { label: '/author/posts/{draft}/edit', path: () => `/author/posts/${patPosts['draft-1'].id}/edit`, who: 'pat' },
      {
        label: "/author/posts/{someone else's}/edit",
        path: () => `/author/posts/${patPosts['draft-1'].id}/edit`,
        who: 'dora',
        status: 403,
      },
      { label: '/author/posts/{unknown}/preview', path: () => '/author/posts/2147483000/preview', who: 'pat', status: 404 },
    ];
    // One test per account, signed in once, scanning its routes in turn (a sign-in per route cost
    // more than most scans); a violation names its route.
    const people = { pat: () => pat, rita: () => rita, admin: () => ADMIN, dora: () => dora, eve: () => eve };
    for (const who of new Set(routes.map((route) => route.who))) {
      const own = routes.filter((route) => route.who === who);
      test(`${own.map((route) => route.label).join(', ')} (${theme})`, async ({ page, signIn, hydrated }) => {
        test.setTimeout(60_000);
        await signIn(people[who]());
        for (const route of own) {
          const response = await page.goto(route.path());
          expect(response?.status(), route.label).toBe(route.status ?? 200);
          await hydrated();
          await expectNoSeriousViolations(page, `${route.label}: ${route.path()} (${theme})`);
        }
      });
    }
  });
}

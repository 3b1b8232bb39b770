import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';
import { wholeSitemap } from './sitemap';

/**
 * Authoring and tags: a rejected author sees the latest reason, reviewer and time on
 * My Posts and in the editor, with the whole review history there; a new post's editor becomes
 * the edit page after the first save (heading, address, a reload edits the same post); the author
 * dashboard's 'Last updated: ' keeps its space; Delete on an active tag in use offers deactivation
 * at once; a tag keeps its slug when renamed, and old tag and post slugs answer 301 to the
 * current address while the sitemap and the feed list only current slugs.
 */

const PASSWORD = 'Review-Pass-1!';
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const writer = { fullName: `Rhea ${unique}`, email: `rhea-${unique}@inkwell.test` };

let admin: APIRequestContext;
let writerApi: APIRequestContext;
let adminName = '';
let reviewed: { id: number; title: string };

/** The envelope's data of an answer that must have this status. */
async function ok<T = unknown>(answer: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> {
  expect(answer.status(), await answer.text()).toBe(status);
  return ((await answer.json()) as { data: T }).data;
}

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(60_000);
  admin = await adminApi(baseURL!, playwright);
  adminName = (await ok<{ fullName: string }>(await admin.get('/api/v1/users/profile'))).fullName;
  await ok(
    await admin.post('/api/v1/admin/users', {
      data: { ...writer, password: PASSWORD, confirmPassword: PASSWORD, roles: ['AUTHOR'], status: 'ACTIVE', markEmailAsVerified: true },
    }),
    201,
  );
  writerApi = await apiAs(baseURL!, playwright, writer.email, PASSWORD);

  // Rejected, approved (Approve Now), sent back to draft, resubmitted and rejected again.
  const title = `Reviewed ${unique}`;
  const created = await ok<{ id: number }>(
    await writerApi.post('/api/v1/blog/posts/author/create', {
      data: { title, slug: `reviewed-${unique}`, summary: 'A post reviewed three times.', content: 'Body text.' },
    }),
    201,
  );
  reviewed = { id: created.id, title };
  const review = (status: 'APPROVED' | 'REJECTED', rejectionReason?: string) =>
    admin.put(`/api/v1/blog/posts/admin/${reviewed.id}/review`, { data: { status, rejectionReason, adminNotes: 'internal only' } });
  await ok(await writerApi.post(`/api/v1/blog/posts/author/${reviewed.id}/submit-for-review`));
  await ok(await review('REJECTED', 'Please add sources.'));
  await ok(await review('APPROVED'));
  await ok(await admin.put(`/api/v1/blog/posts/${reviewed.id}`, { data: { status: 'DRAFT' } }));
  await ok(await writerApi.post(`/api/v1/blog/posts/author/${reviewed.id}/submit-for-review`));
  await ok(await review('REJECTED', 'Still too thin: expand the second part.'));
});

test.afterAll(async () => {
  await admin?.dispose();
  await writerApi?.dispose();
});

test.describe('a rejected post tells its author why', () => {
  test('My Posts shows the latest reason, the reviewer and the time beside the Rejected badge', async ({ page, signIn }) => {
    await signIn({ email: writer.email, password: PASSWORD });
    await page.goto('/author/posts');
    const row = page.locator(`[data-post-row="${reviewed.id}"]`);
    await expect(row.locator('[data-status]')).toHaveText('Rejected');
    const note = row.getByTestId('rejection');
    await expect(note).toContainText('Still too thin: expand the second part.');
    await expect(note).toContainText(adminName);
    await expect(note.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
    await expect(note).not.toContainText('Please add sources.');
    await expect(note).not.toContainText('internal only');
    await expectNoSeriousViolations(page, '/author/posts (rejected post)');
  });

  test('the editor shows the latest rejection and every review, newest first', async ({ page, signIn }) => {
    await signIn({ email: writer.email, password: PASSWORD });
    await page.goto(`/author/posts/${reviewed.id}/edit`);
    const latest = page.getByTestId('rejection');
    await expect(latest).toContainText('Still too thin: expand the second part.');
    await expect(latest).toContainText(adminName);
    const history = page.getByRole('region', { name: 'Review history' });
    const items = history.getByRole('listitem');
    await expect(items).toHaveCount(3);
    await expect(items.nth(0)).toContainText('Rejected');
    await expect(items.nth(0)).toContainText('Still too thin: expand the second part.');
    await expect(items.nth(1)).toContainText('Approved');
    await expect(items.nth(2)).toContainText('Rejected');
    await expect(items.nth(2)).toContainText('Please add sources.');
    for (let index = 0; index < 3; index++) {
      await expect(items.nth(index)).toContainText(adminName);
      await expect(items.nth(index).locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
    }
    await expect(history).not.toContainText('internal only');
    await expectNoSeriousViolations(page, '/author/posts/{id}/edit (review history)');
  });
});

test('after the first save of a new post the editor is the edit page: heading, address, and a reload edits the same post', async ({
  page,
  signIn,
  hydrated,
}) => {
  await signIn({ email: writer.email, password: PASSWORD });
  await page.goto('/author/posts/new');
  await hydrated(page.getByTestId('post-editor'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New Post');
  const title = `First save ${unique}`;
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByLabel('Content', { exact: true }).fill('Some words.');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByTestId('editor-notice')).toBeVisible();
  await expect(page).toHaveURL(/\/author\/posts\/\d+\/edit$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Post');
  await expect(page).toHaveTitle(`Edit Post: ${title} · Inkwell`);

  await page.reload();
  await hydrated(page.getByTestId('post-editor'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Post');
  await page.getByLabel('Content', { exact: true }).fill('Some more words.');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByTestId('editor-notice')).toBeVisible();
  const mine = (
    await ok<{ content: { title: string; id: number }[] }>(
      await writerApi.get('/api/v1/blog/posts/author/my-posts', { params: { page: 0, size: 1000 } }),
    )
  ).content;
  expect(mine.filter((post) => post.title === title)).toHaveLength(1);
});

test("the author dashboard's 'Last updated:' is followed by a space", async ({ page, signIn }) => {
  await signIn({ email: writer.email, password: PASSWORD });
  await page.goto('/author');
  const line = page.locator('p').filter({ hasText: 'Last updated:' });
  await expect(line).toHaveText(/^\s*Last updated: \S/);
});

test.describe('tags', () => {
  async function createTag(name: string): Promise<{ id: number; slug: string; name: string }> {
    return ok<{ id: number; slug: string; name: string }>(await admin.post('/api/v1/blog/tags', { data: { name } }), 201);
  }

  test('Delete on an active tag in use offers deactivation at once (no delete confirmation first)', async ({ asAdmin: page }) => {
    const tag = await createTag(`In use ${unique}`);
    await ok(
      await admin.post('/api/v1/blog/posts', {
        data: { title: `Uses tag ${unique}`, slug: `uses-tag-${unique}`, content: 'Body.', status: 'PUBLISHED', tagSlugs: [tag.slug] },
      }),
      201,
    );
    await page.goto(`/admin/tags?search=${encodeURIComponent(tag.name)}&filter=all`);
    const card = page.locator(`li[data-tag-id="${tag.id}"]`);
    await expect(card.getByRole('button', { name: 'Delete' })).toBeEnabled();
    await card.getByRole('button', { name: 'Delete' }).click();
    const offer = page.getByRole('alertdialog', { name: 'Tag is in use' });
    await expect(offer).toContainText('Tag is used by 1 post. Deactivate it instead.');
    await expect(page.getByRole('alertdialog', { name: 'Delete tag?' })).toHaveCount(0);
    await expect(offer.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoSeriousViolations(page, '/admin/tags (in use, offered at once)');
    await offer.getByRole('button', { name: 'Deactivate Instead' }).click();
    await expect(card.getByTestId('tag-status')).toHaveText('Inactive');
    expect((await ok<{ isActive: boolean }>(await admin.get(`/api/v1/blog/tags/${tag.id}`))).isActive).toBe(false);
  });

  test('renaming keeps the slug; a changed slug sends the old tag address to the new one (301)', async ({ asAdmin: page, request }) => {
    const tag = await createTag(`Rename me ${unique}`);
    await ok(
      await admin.post('/api/v1/blog/posts', {
        data: { title: `Tagged ${unique}`, slug: `tagged-${unique}`, content: 'Body.', status: 'PUBLISHED', tagSlugs: [tag.slug] },
      }),
      201,
    );
    await page.goto(`/admin/tags/${tag.id}/edit`);
    await expect(page.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    await page.getByLabel('Name', { exact: true }).fill(`Renamed ${unique}`);
    await expect(page.getByLabel('Slug')).toHaveValue(tag.slug);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(/\/admin\/tags$/);
    expect(await ok(await admin.get(`/api/v1/blog/tags/${tag.id}`))).toMatchObject({ name: `Renamed ${unique}`, slug: tag.slug });

    const newSlug = `renamed-${unique}`;
    await page.goto(`/admin/tags/${tag.id}/edit`);
    await expect(page.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    await page.getByLabel('Slug').fill(newSlug);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(/\/admin\/tags$/);

    // Anonymous readers (the page cache's side) and signed-in ones alike.
    const moved = await request.get(`/blog/tag/${tag.slug}?page=2`, { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe(`/blog/tag/${newSlug}?page=2`);
    expect((await page.request.get(`/blog/tag/${tag.slug}`, { maxRedirects: 0 })).headers().location).toBe(`/blog/tag/${newSlug}`);
    expect((await request.get(`/tag/${tag.slug}`, { maxRedirects: 0 })).headers().location).toBe(`/tag/${newSlug}`);
    expect((await request.get(`/blog/tag/${newSlug}`, { maxRedirects: 0 })).status()).toBe(200);
    expect((await request.get(`/blog/tag/never-${unique}`, { maxRedirects: 0 })).status()).toBe(404);
    const sitemap = await wholeSitemap(request);
    expect(sitemap).toContain(`/blog/tag/${newSlug}`);
    expect(sitemap).not.toContain(`/blog/tag/${tag.slug}<`);
  });

  test("a post's changed slug sends its old address to the new one (301); the sitemap and feed list only the new one", async ({ page }) => {
    const oldSlug = `moving-post-${unique}`;
    const post = await ok<{ id: number }>(
      await admin.post('/api/v1/blog/posts', {
        data: { title: `Moving post ${unique}`, slug: oldSlug, content: 'Body.', status: 'PUBLISHED' },
      }),
      201,
    );
    // The old address is read (and its anonymous page kept) before the change.
    expect((await page.request.get(`/blog/${oldSlug}`)).status()).toBe(200);
    const newSlug = `moved-post-${unique}`;
    await ok(await admin.put(`/api/v1/blog/posts/${post.id}`, { data: { slug: newSlug } }));
    const moved = await page.request.get(`/blog/${oldSlug}`, { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe(`/blog/${newSlug}`);
    await page.goto(`/blog/${oldSlug}`);
    await expect(page).toHaveURL(new RegExp(`/blog/${newSlug}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Moving post ${unique}`);
    for (const body of [await wholeSitemap(page.request), await (await page.request.get('/rss.xml')).text()]) {
      expect(body).toContain(`/blog/${newSlug}`);
      expect(body).not.toContain(`/blog/${oldSlug}`);
    }
    // Unpublished, the old address no longer leads anywhere.
    await ok(await admin.put(`/api/v1/blog/posts/${post.id}`, { data: { status: 'DRAFT' } }));
    expect((await page.request.get(`/blog/${oldSlug}`, { maxRedirects: 0 })).status()).toBe(404);
  });
});

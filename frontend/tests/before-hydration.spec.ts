import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import sharp from 'sharp';
import { adminApi } from './admin-api';

/**
 * What a person does before a page's islands have hydrated is not lost: the
 * islands' scripts are held back (page.route keeps every /_astro/*.js request waiting until the
 * test lets it through), the person types, ticks or presses, the scripts are released, and after
 * hydration the form holds what was typed and sends it. Also: 'Load More Posts' pressed before
 * hydration opens the next page, and the header's avatar follows a new upload at once.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Hydration-test-Passw0rd!';
const PAGE_SIZE = 12;
const TAG_SLUG = `early-birds-${unique}`;
let api: APIRequestContext;
let post: { id: number; slug: string };

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  api = await adminApi(baseURL!, playwright);
  const tag = await api.post('/api/v1/blog/tags', { data: { name: `Early birds ${unique}`, slug: TAG_SLUG } });
  expect(tag.status(), await tag.text()).toBe(201);
  // More than one page of /blog, so that 'Load More Posts' is shown whatever else the run made.
  for (let index = 0; index <= PAGE_SIZE; index++) {
    const created = await api.post('/api/v1/blog/posts', {
      data: {
        title: `Early bird ${index} ${unique}`,
        slug: `early-bird-${index}-${unique}`,
        summary: 'A post for the before-hydration tests.',
        content: 'Text.',
        status: 'PUBLISHED',
        tagSlugs: [TAG_SLUG],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    if (index === 0) post = { id: ((await created.json()).data as { id: number }).id, slug: `early-bird-0-${unique}` };
  }
});

test.afterAll(async () => {
  await api.dispose();
});

/** Holds every script of the page's bundle until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/[^?#]+\.js(\?.*)?$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test.describe('typed before hydration', () => {
  test('the comment box keeps its text, and Post Comment sends it', async ({ asAdmin: page, hydrated }) => {
    const release = await holdScripts(page);
    await page.goto(`/blog/${post.slug}`, { waitUntil: 'commit' });
    const text = `Typed before the island woke up ${unique}`;
    const box = page.getByLabel('Write a comment');
    await box.pressSequentially(text);
    release();
    await hydrated('CommentSection');
    await expect(box).toHaveValue(text);
    await expect(page.getByTestId('comment-counter')).toContainText(`${text.length}/`);
    await page.getByRole('button', { name: 'Post Comment' }).click();
    await expect(page.getByText(text, { exact: true }).and(page.locator(':not(textarea)'))).toBeVisible();
    await expect(page.getByText('Comment content cannot be empty')).toHaveCount(0);
  });

  test('the editor keeps title and content, the slug follows the title, and Save Draft saves them', async ({ asAdmin: page, hydrated }) => {
    const release = await holdScripts(page);
    await page.goto('/admin/posts/new', { waitUntil: 'commit' });
    const title = `Written early ${unique}`;
    await page.getByLabel('Title', { exact: true }).pressSequentially(title);
    await page.getByLabel('Content', { exact: true }).pressSequentially('Words typed while the editor was loading.');
    release();
    await hydrated(page.getByTestId('post-editor'));
    await expect(page.getByLabel('Slug', { exact: true })).toHaveValue(`written-early-${unique}`);
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(page).toHaveURL(/\/admin\/posts\?notice=created/);
    const listed = await api.get(`/api/v1/blog/posts/admin/all?search=${encodeURIComponent(title)}`);
    expect(listed.status(), await listed.text()).toBe(200);
    const [saved] = ((await listed.json()).data as { content: { id: number }[] }).content;
    const read = await api.get(`/api/v1/blog/posts/${saved.id}`);
    expect((await read.json()).data as { title: string; content: string }).toMatchObject({
      title,
      content: 'Words typed while the editor was loading.',
    });
  });

  test('the edit page keeps text added to a body the server rendered (React resets such a textarea while hydrating)', async ({
    asAdmin: page,
    hydrated,
  }) => {
    const release = await holdScripts(page);
    await page.goto(`/admin/posts/${post.id}/edit`, { waitUntil: 'commit' });
    const content = page.getByLabel('Content', { exact: true });
    await expect(content).toHaveValue('Text.');
    await content.press('End');
    await content.pressSequentially(' Added early.');
    release();
    await hydrated(page.getByTestId('post-editor'));
    await expect(content).toHaveValue('Text. Added early.');
    await page.getByRole('button', { name: /^Save/ }).click();
    await expect(page).toHaveURL(/\/admin\/posts\?notice=updated/);
    const read = await api.get(`/api/v1/blog/posts/${post.id}`);
    expect(((await read.json()).data as { content: string }).content).toBe('Text. Added early.');
  });

  test('the admin tag form keeps name and description, and Create Tag creates it', async ({ asAdmin: page, hydrated }) => {
    const release = await holdScripts(page);
    await page.goto('/admin/tags/new', { waitUntil: 'commit' });
    const name = `Early ${unique}`;
    await page.getByLabel('Name', { exact: true }).pressSequentially(name);
    await page.getByLabel('Description', { exact: true }).pressSequentially('Described before hydration.');
    release();
    await hydrated('TagEditor');
    await expect(page.getByLabel('Slug', { exact: true })).toHaveValue(`early-${unique}`);
    await page.getByRole('button', { name: 'Create Tag' }).click();
    await expect(page).toHaveURL(/\/admin\/tags\?notice=created/);
    const tags = await api.get(`/api/v1/blog/tags?search=${encodeURIComponent(name)}`);
    expect(JSON.stringify(await tags.json())).toContain('Described before hydration.');
  });

  test('the Like button cannot be pressed in vain before hydration, and likes once live', async ({ asAdmin: page, hydrated }) => {
    const release = await holdScripts(page);
    await page.goto(`/blog/${post.slug}`, { waitUntil: 'commit' });
    const like = page.getByRole('button', { name: /Like/ });
    await like.scrollIntoViewIfNeeded();
    // An early press must not be dropped silently: the button says it is not ready yet.
    await expect(like).toBeDisabled();
    release();
    await hydrated('LikeButton');
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'true');
  });
});

for (const list of ['/blog', `/blog/tag/${TAG_SLUG}`, `/tag/${TAG_SLUG}`]) {
  test(`Load More Posts pressed before hydration on ${list.replace(unique, '{unique}')} opens its second page`, async ({ page }) => {
    const release = await holdScripts(page);
    await page.goto(list, { waitUntil: 'commit' });
    const more = page.getByRole('link', { name: 'Load More Posts' });
    await expect(more).toHaveAttribute('href', `${list}?page=2`);
    await more.click();
    await expect(page).toHaveURL(`${list}?page=2`);
    release();
    await expect(page.locator('[data-post-card]').first()).toBeVisible();
  });
}

test('the header avatar shows a new upload at once', async ({ page, signIn, hydrated }) => {
  const email = `avatar-${unique}@inkwell.test`;
  const created = await api.post('/api/v1/admin/users', {
    data: {
      fullName: `Avatar Person ${unique}`,
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: ['USER'],
      status: 'ACTIVE',
      markEmailAsVerified: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await signIn({ email, password: PASSWORD });
  await page.goto('/account');
  const headerAvatar = page.getByRole('link', { name: /^My account/ }).getByRole('img');
  await expect(headerAvatar).not.toHaveAttribute('src', /.+/);
  await hydrated();
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 60, b: 60 } } })
    .png()
    .toBuffer();
  await page.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: image });
  await page.getByRole('button', { name: /Upload/ }).click();
  await expect(page.getByText('Avatar updated', { exact: false })).toBeVisible();
  const uploaded = await page.request.get('/api/v1/users/profile');
  const avatar = ((await uploaded.json()).data as { avatar: string }).avatar;
  expect(avatar).toBeTruthy();
  await expect(headerAvatar).toHaveAttribute('src', avatar);
});

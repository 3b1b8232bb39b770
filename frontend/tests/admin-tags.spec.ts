import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN, expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi } from './admin-api';
import { brokenWords, outsideTheWindow } from './layout-checks';

/**
 * /admin/tags (docs/requirements.md#screen-admin-tags, docs/requirements.md#tag-states, docs/requirements.md#validation-tag, docs/requirements.md#errors-tags, docs/requirements.md#constants-paging): access rules, the card grid's search, filters and
 * pager (with and without JavaScript), the tag editor (create and edit, its checks, the slug
 * following the name, Esc and Ctrl/Cmd+S, the authenticated badge, conflicts), activate and
 * deactivate, delete with its confirmation and, for a tag in use, deactivation offered instead;
 * the 'Posts tagged with' view with its numbered pager; axe on each route.
 *
 * Data through the API as the admin: 12 active and 3 inactive 'Grid <id>' tags, one tag used by
 * a published post, spare tags to delete and toggle, a tag on 121 published posts (11 pages of
 * 12) and a USER for the Access Denied view.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Sup3r-Secret!';
const uma = { fullName: 'Uma Tags', email: `uma-tags-${unique}@inkwell.test` };
const GRID = `Grid${unique}`;
const MANY_POSTS = 121;

interface CreatedTag {
  id: number;
  name: string;
  slug: string;
}

const tags: Record<string, CreatedTag> = {};
let admin: APIRequestContext;

async function createTag(key: string, name: string, extra: object = {}): Promise<CreatedTag> {
  const created = await admin.post('/api/v1/blog/tags', { data: { name, ...extra } });
  expect(created.status(), await created.text()).toBe(201);
  const data = (await created.json()).data as CreatedTag;
  tags[key] = { id: data.id, name: data.name, slug: data.slug };
  return tags[key];
}

async function tagOf(id: number): Promise<{ isActive: boolean; name: string; description: string | null; status: number }> {
  const answer = await admin.get(`/api/v1/blog/tags/${id}`);
  return {
    ...((answer.ok() ? (await answer.json()).data : {}) as { isActive: boolean; name: string; description: string | null }),
    status: answer.status(),
  };
}

/** The grid narrowed to one tag by its unique name, hydrated; `filter` all shows inactive ones too. */
async function openCard(page: Page, tag: CreatedTag) {
  await page.goto(`/admin/tags?search=${encodeURIComponent(tag.name)}&filter=all`);
  const card = page.locator(`li[data-tag-id="${tag.id}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: 'Delete' })).toBeEnabled();
  return card;
}

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(240_000);
  admin = await adminApi(baseURL!, playwright);
  const user = await admin.post('/api/v1/admin/users', {
    data: { ...uma, password: PASSWORD, confirmPassword: PASSWORD, roles: ['USER'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(user.status(), await user.text()).toBe(201);

  for (let index = 1; index <= 12; index++)
    await createTag(`grid-${index}`, `${GRID} ${String(index).padStart(2, '0')}`, { description: `Grid tag number ${index}.` });
  for (let index = 1; index <= 3; index++) await createTag(`off-${index}`, `${GRID} Off ${index}`, { isActive: false });
  await createTag('used', `Used ${unique}`, { color: '#3178c6' });
  await createTag('spare', `Spare ${unique}`);
  await createTag('toggle', `Toggle ${unique}`);
  await createTag('existing', `Existing ${unique}`);
  await createTag('edit', `Edit me ${unique}`);
  await createTag('many', `Many ${unique}`);
  await createTag('quiet', `Quiet ${unique}`, { isActive: false });

  const used = await admin.post('/api/v1/blog/posts', {
    data: {
      title: `Tagged post ${unique}`,
      slug: `tagged-post-${unique}`,
      content: 'Body.',
      status: 'PUBLISHED',
      tagSlugs: [tags.used.slug],
    },
  });
  expect(used.status(), await used.text()).toBe(201);
  for (let index = 1; index <= MANY_POSTS; index++) {
    const created = await admin.post('/api/v1/blog/posts', {
      data: {
        title: `Many post ${String(index).padStart(3, '0')} ${unique}`,
        slug: `many-${index}-${unique}`,
        summary: 'A post for the pager.',
        content: 'Body.',
        status: 'PUBLISHED',
        tagSlugs: [tags.many.slug, tags.used.slug],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
});

test.afterAll(async () => {
  await admin?.dispose();
});

test.describe('access', () => {
  test('anonymous visitors go to /login with the page as callback', async ({ page }) => {
    await page.goto('/admin/tags/new');
    await expect(page).toHaveURL(/\/login\?callback=%2Fadmin%2Ftags%2Fnew$/);
  });

  test('signed-in users below ADMIN see Access Denied (HTTP 200) on every mode', async ({ page, signIn }) => {
    await signIn({ email: uma.email, password: PASSWORD });
    for (const path of ['/admin/tags', '/admin/tags/new', `/admin/tags/${tags.edit.id}/edit`, `/admin/tags/${tags.many.id}/posts`]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByTestId('access-denied')).toContainText('Access Denied: You need admin privileges to access this page.');
    }
    await expectNoSeriousViolations(page, '/admin/tags (denied)');
  });
});

test.describe('list', () => {
  test('renders from the address without JavaScript: search, filter, size and pager', async ({ browser, baseURL, signIn }) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(ADMIN, page);
    const response = await page.goto(`/admin/tags?search=${GRID}&size=5&sortBy=name&sortDir=asc`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tag Management');
    const names = page.locator('[data-testid="tag-grid"] h3');
    // Active only by default: the 12 active grid tags, 5 a page.
    await expect(names).toHaveText([1, 2, 3, 4, 5].map((n) => `${GRID} 0${n}`));
    await expect(page.getByTestId('tags-range')).toHaveText('Showing 1–5 of 12 tags');
    const pager = page.getByRole('navigation', { name: 'Tags pages' });
    await expect(pager).toContainText('Page 1 of 3');
    await pager.getByRole('link', { name: 'Next' }).click();
    await expect(names.first()).toHaveText(`${GRID} 06`);

    await page.getByLabel('Show').selectOption('inactive');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/filter=inactive/);
    await expect(names).toHaveText([1, 2, 3].map((n) => `${GRID} Off ${n}`));
    await expect(page.locator('[data-testid="tag-status"]')).toHaveText(['Inactive', 'Inactive', 'Inactive']);
    await context.close();
  });

  test('search, filters, sort and the pager work in place', async ({ asAdmin: page }) => {
    await page.goto('/admin/tags');
    const names = page.locator('[data-testid="tag-grid"] h3');
    await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible();
    await page.getByLabel('Search tags').pressSequentially(GRID);
    await expect(page).toHaveURL(new RegExp(`search=${GRID}`));
    await expect(page.getByTestId('tags-range')).toHaveText('Showing 1–10 of 12 tags');
    // Default sort: name, descending (docs/requirements.md#constants-sorting).
    await expect(names.first()).toHaveText(`${GRID} 12`);

    await page.getByLabel('Show').selectOption('all');
    await expect(page.getByTestId('tags-range')).toHaveText('Showing 1–10 of 15 tags');
    await page.getByLabel('Show').selectOption('inactive');
    await expect(names).toHaveText([3, 2, 1].map((n) => `${GRID} Off ${n}`));
    await page.getByLabel('Show').selectOption('active');
    await page.getByLabel('Direction').selectOption('asc');
    await page.getByLabel('Tags per page').selectOption('5');
    await expect(names).toHaveText([1, 2, 3, 4, 5].map((n) => `${GRID} 0${n}`));
    const pager = page.getByRole('navigation', { name: 'Tags pages' });
    await pager.getByRole('link', { name: 'Page 3' }).click();
    await expect(page).toHaveURL(/page=3/);
    await expect(names).toHaveText([`${GRID} 11`, `${GRID} 12`]);

    await page.getByRole('link', { name: 'Clear all' }).first().click();
    await expect(page).toHaveURL(/\/admin\/tags$/);
    await expect(page.getByLabel('Search tags')).toHaveValue('');
  });
});

test.describe('actions', () => {
  test('Deactivate and Activate a tag', async ({ asAdmin: page }) => {
    const card = await openCard(page, tags.toggle);
    await expect(card.getByTestId('tag-status')).toHaveText('Active');
    await card.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Tag deactivated' })).toBeVisible();
    await expect(card.getByTestId('tag-status')).toHaveText('Inactive');
    expect((await tagOf(tags.toggle.id)).isActive).toBe(false);
    await card.getByRole('button', { name: 'Activate' }).click();
    await expect(card.getByTestId('tag-status')).toHaveText('Active');
    expect((await tagOf(tags.toggle.id)).isActive).toBe(true);
  });

  test("under 'Active' a deactivated tag leaves the list, and under 'Inactive' an activated one", async ({ asAdmin: page }) => {
    const tag = await createTag('leaves', `Leaves ${unique}`);
    // The default filter is 'Active'.
    await page.goto(`/admin/tags?search=${encodeURIComponent(tag.name)}`);
    let card = page.locator(`li[data-tag-id="${tag.id}"]`);
    await card.getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Tag deactivated' })).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page.getByText('No tags match your filters')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tags', exact: true })).toBeFocused();

    await page.goto(`/admin/tags?search=${encodeURIComponent(tag.name)}&filter=inactive`);
    card = page.locator(`li[data-tag-id="${tag.id}"]`);
    await card.getByRole('button', { name: 'Activate' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Tag activated' })).toBeVisible();
    await expect(card).toHaveCount(0);
    expect((await tagOf(tag.id)).isActive).toBe(true);
  });

  test('Delete asks first and removes an unused tag', async ({ asAdmin: page }) => {
    const card = await openCard(page, tags.spare);
    await card.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete tag?' });
    await expect(dialog).toContainText(tags.spare.name);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Tag deleted' })).toBeVisible();
    await expect(card).toHaveCount(0);
    expect((await tagOf(tags.spare.id)).status).toBe(404);
  });

  test('deleting a tag in use offers deactivation instead', async ({ asAdmin: page }) => {
    const card = await openCard(page, tags.used);
    await expect(card.getByTestId('tag-post-count')).toHaveText(`${MANY_POSTS + 1} posts`);
    // The card counts its posts: the offer comes at once, without the delete confirmation.
    await card.getByRole('button', { name: 'Delete' }).click();
    const offer = page.getByRole('alertdialog', { name: 'Tag is in use' });
    await expect(offer).toContainText(`Tag is used by ${MANY_POSTS + 1} posts. Deactivate it instead.`);
    await expectNoSeriousViolations(page, '/admin/tags (tag in use)');
    await offer.getByRole('button', { name: 'Deactivate Instead' }).click();
    await expect(offer).toBeHidden();
    await expect(card.getByTestId('tag-status')).toHaveText('Inactive');
    const after = await tagOf(tags.used.id);
    expect(after).toMatchObject({ status: 200, isActive: false });
  });

  test('a tag that got its first post after the list was read: the refused delete (409) ends in the same offer', async ({
    asAdmin: page,
  }) => {
    const late = await createTag('late', `Late ${unique}`);
    const card = await openCard(page, late);
    await expect(card.getByTestId('tag-post-count')).toHaveText('0 posts');
    const post = await admin.post('/api/v1/blog/posts', {
      data: { title: `Late post ${unique}`, slug: `late-post-${unique}`, content: 'Body.', status: 'PUBLISHED', tagSlugs: [late.slug] },
    });
    expect(post.status(), await post.text()).toBe(201);
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete tag?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Tag is in use' })).toContainText('Tag is used by 1 post. Deactivate it instead.');
    expect(await tagOf(late.id)).toMatchObject({ status: 200, isActive: true });
  });
});

test.describe('tag editor', () => {
  test('create: checks, slug from the name, badge, Ctrl+S saves and the list says so', async ({ asAdmin: page }) => {
    await page.goto('/admin/tags/new');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create Tag');
    await expect(page.getByTestId('auth-badge')).toHaveText('Authenticated');
    const name = page.getByLabel('Name', { exact: true });
    const slug = page.getByLabel('Slug');
    await expect(page.getByRole('button', { name: 'Create Tag' })).toBeEnabled();
    await expectNoSeriousViolations(page, '/admin/tags/new');

    await name.fill('A');
    await page.getByRole('button', { name: 'Create Tag' }).click();
    await expect(page.getByText('Tag name must be between 2-100 characters')).toBeVisible();
    await expect(name).toBeFocused();

    await name.fill(`Đà Lạt Travel ${unique}`);
    await expect(slug).toHaveValue(`da-lat-travel-${unique}`);
    await slug.fill('Bad Slug');
    await name.fill(`Đà Lạt Trips ${unique}`);
    // A slug typed by hand stays.
    await expect(slug).toHaveValue('Bad Slug');
    await page.getByRole('button', { name: 'Create Tag' }).click();
    await expect(page.getByText('Tag slug must be 2-100 characters: only lowercase letters, numbers, and hyphens.')).toBeVisible();
    await expect(slug).toBeFocused();

    await slug.fill(`dalat-${unique}`);
    await page.getByLabel('Description').fill('Trips to the highlands.');
    await page.getByLabel('Colour', { exact: true }).fill('#10b981');
    await page.getByLabel('Icon').fill('⛰️');
    await page.keyboard.press('Control+s');
    await expect(page).toHaveURL(/\/admin\/tags$/);
    await expect(page.getByRole('status').filter({ hasText: 'Tag created successfully.' })).toBeVisible();
    const found = (await (await admin.get(`/api/v1/blog/tags?search=dalat-${unique}&activeOnly=false`)).json()).data.content as {
      name: string;
      slug: string;
      color: string;
      description: string;
    }[];
    expect(found).toEqual([
      expect.objectContaining({
        name: `Đà Lạt Trips ${unique}`,
        slug: `dalat-${unique}`,
        color: '#10b981',
        description: 'Trips to the highlands.',
      }),
    ]);
  });

  test('edit: a taken name is refused on its field, Esc goes back, Save Changes updates', async ({ asAdmin: page }) => {
    const response = await page.goto(`/admin/tags/${tags.edit.id}/edit`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Tag');
    const name = page.getByLabel('Name', { exact: true });
    await expect(name).toHaveValue(tags.edit.name);
    await expect(page.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    await expectNoSeriousViolations(page, '/admin/tags/{id}/edit');

    await name.fill(tags.existing.name);
    // Renaming keeps the slug (the tag's public address).
    await expect(page.getByLabel('Slug')).toHaveValue(tags.edit.slug);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText(`A tag named "${tags.existing.name}" already exists.`).first()).toBeVisible();

    await name.fill(`Edited ${unique}`);
    await page.getByLabel('Description').fill('Now with a description.');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(/\/admin\/tags$/);
    await expect(page.getByRole('status').filter({ hasText: 'Tag updated successfully.' })).toBeVisible();
    expect(await tagOf(tags.edit.id)).toMatchObject({ name: `Edited ${unique}`, description: 'Now with a description.' });

    await page.goto(`/admin/tags/${tags.edit.id}/edit`);
    await expect(page.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/admin\/tags$/);
  });

  test('an unknown tag shows the load failure with HTTP 404', async ({ asAdmin: page }) => {
    const response = await page.goto('/admin/tags/2147483000/edit');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('alert')).toContainText('Failed to load tags');
    await expect(page.getByRole('alert')).toContainText('Tag with id 2147483000 not found');
  });
});

test.describe('posts tagged with', () => {
  test('Back to Tags, Refresh and the numbered pager with First, Last and the go-to box', async ({ asAdmin: page }) => {
    const path = `/admin/tags/${tags.many.id}/posts`;
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Posts tagged with “${tags.many.name}”`);
    await expect(page.getByText(`${MANY_POSTS} published posts`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Tags' })).toHaveAttribute('href', '/admin/tags');
    await expect(page.getByRole('link', { name: 'Refresh' })).toHaveAttribute('href', path);
    const rows = page.locator('[data-testid="tag-posts"] > li');
    await expect(rows).toHaveCount(12);
    // Newest first: the last one created is on top; each row shows 2 tags (below the limit of 5).
    await expect(rows.first().getByRole('heading')).toHaveText(`Many post ${MANY_POSTS} ${unique}`);
    await expect(rows.first().getByRole('link', { name: `Edit Many post ${MANY_POSTS} ${unique}` })).toBeVisible();

    const pager = page.getByRole('navigation', { name: 'Tagged posts pages' });
    await expect(pager).toContainText('Page 1 of 11');
    await expect(pager.getByText('First')).toHaveAttribute('aria-disabled', 'true');
    await pager.getByRole('link', { name: 'Last' }).click();
    await expect(page).toHaveURL(/page=11$/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByRole('heading')).toHaveText(`Many post 001 ${unique}`);
    await expect(pager.getByText('Last')).toHaveAttribute('aria-disabled', 'true');

    await pager.getByLabel('Go to page').fill('5');
    await pager.getByRole('button', { name: 'Go' }).click();
    await expect(page).toHaveURL(/page=5$/);
    await expect(pager.getByRole('link', { name: 'Page 5' })).toHaveAttribute('aria-current', 'page');
    await pager.getByRole('link', { name: 'First' }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expectNoSeriousViolations(page, '/admin/tags/{id}/posts');

    await page.goto(`${path}?page=99`);
    await expect(page).toHaveURL(/page=11$/);
    await page.getByRole('link', { name: 'Back to Tags' }).click();
    await expect(page).toHaveURL(/\/admin\/tags$/);
  });

  test('an inactive tag says why nothing is listed', async ({ asAdmin: page }) => {
    await page.goto(`/admin/tags/${tags.quiet.id}/posts`);
    await expect(page.getByText('This tag is inactive')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit Tag' }).first()).toHaveAttribute('href', `/admin/tags/${tags.quiet.id}/edit`);
  });
});

test.describe('accessibility', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`axe: /admin/tags (${theme})`, async ({ page, signIn }) => {
      await page.emulateMedia({ colorScheme: theme });
      await signIn(ADMIN);
      await page.goto(`/admin/tags?search=${GRID}&filter=all`);
      await expect(page.locator('[data-testid="tag-grid"] li').first().getByRole('button', { name: 'Delete' })).toBeEnabled();
      await expectNoSeriousViolations(page, `/admin/tags (${theme})`);
      await page.goto('/admin/tags/new');
      await expectNoSeriousViolations(page, `/admin/tags/new (${theme})`);
    });
  }

  test('keyboard: the card actions are reachable and the delete dialog traps focus', async ({ asAdmin: page }) => {
    await openCard(page, tags.existing);
    await page.getByLabel('Search tags').focus();
    const reached: string[] = [];
    for (let step = 0; step < 25; step++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? ''));
    }
    for (const name of ['Edit', 'View Posts', 'Deactivate', 'Delete']) expect(reached, `${name} reached by Tab`).toContain(name);
    await page.locator(`li[data-tag-id="${tags.existing.id}"]`).getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Delete tag?' });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Delete' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.locator(`li[data-tag-id="${tags.existing.id}"]`).getByRole('button', { name: 'Delete' })).toBeFocused();
  });
});

test('at 1280 px every card shows its actions on screen, no name or action label broken inside a word', async ({
  asAdmin: page,
  hydrated,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/admin/tags?search=${GRID}&filter=all`);
  await hydrated();
  const grid = page.getByTestId('tag-grid');
  await expect(grid.locator('li').first()).toBeVisible();
  expect(await outsideTheWindow(page, grid.locator('button, a'))).toEqual([]);
  expect(await brokenWords(grid.locator('h3, button, a'))).toEqual([]);
});

import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';
import { safeSnippetHtml } from '../src/features/search/snippet';

/**
 * The search pages: the header's box with JavaScript (suggestions, keyboard) and
 * without (a GET form), /search with results, filters, paging, 'Did you mean', no results, the
 * API's 400, noindex, and axe. The posts are made here through the API with words no other test
 * uses, so the results depend on nothing else.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
// Letters only after the first part: a word the full-text parser keeps whole.
const token = unique.replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)]);
const words = {
  /** In one post's title only: the header's suggestions and the keyboard. */
  title: `saxophone${token}`,
  /** In 12 posts' bodies: two pages of 10. */
  paged: `pagination${token}`,
  /** In three posts: one by the author (with the tag), two by the admin (one with the tag). */
  filtered: `filtering${token}`,
};
const tag = { name: `Search ${token}`, slug: `search-${token}` };
const PASSWORD = 'Search-tests-Passw0rd!';
const author = { fullName: `Searchable Author ${token}`, email: `search-author-${token}@inkwell.test` };
let authorSlug = '';
const titlePost = { title: `The ${words.title} quartet`, slug: `search-title-${token}` };

async function publishAsAdmin(api: APIRequestContext, data: Record<string, unknown>): Promise<void> {
  const created = await api.post('/api/v1/blog/posts', { data: { status: 'PUBLISHED', ...data } });
  expect(created.status(), await created.text()).toBe(201);
}

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  const admin = await adminApi(baseURL!, playwright);
  expect((await admin.post('/api/v1/blog/tags', { data: tag })).status()).toBe(201);
  const account = await admin.post('/api/v1/admin/users', {
    data: { ...author, password: PASSWORD, confirmPassword: PASSWORD, roles: ['AUTHOR'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(account.status(), await account.text()).toBe(201);

  await publishAsAdmin(admin, {
    ...titlePost,
    summary: 'A post found by a word of its title.',
    content: `Four players, one ${words.title} solo, and a < b & c <script>alert(1)</script> in the text.`,
  });
  for (let i = 1; i <= 12; i++) {
    await publishAsAdmin(admin, {
      title: `Paged result ${String(i).padStart(2, '0')} ${token}`,
      slug: `search-paged-${i}-${token}`,
      content: `The word ${words.paged} appears here.`,
    });
  }
  await publishAsAdmin(admin, {
    title: `Admin tagged ${token}`,
    slug: `search-admin-tagged-${token}`,
    content: `About ${words.filtered}.`,
    tagSlugs: [tag.slug],
  });
  await publishAsAdmin(admin, {
    title: `Admin untagged ${token}`,
    slug: `search-admin-untagged-${token}`,
    content: `About ${words.filtered}.`,
  });

  // The author's post goes through review, as authors' posts do.
  const writer = await apiAs(baseURL!, playwright, author.email, PASSWORD);
  const draft = await writer.post('/api/v1/blog/posts/author/create', {
    data: {
      title: `Author tagged ${token}`,
      slug: `search-author-tagged-${token}`,
      content: `About ${words.filtered}.`,
      tagSlugs: [tag.slug],
    },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  const draftId = ((await draft.json()).data as { id: number }).id;
  expect((await writer.post(`/api/v1/blog/posts/author/${draftId}/submit-for-review`)).status()).toBe(200);
  await writer.dispose();
  const approved = await admin.put(`/api/v1/blog/posts/admin/${draftId}/review`, { data: { status: 'APPROVED' } });
  expect(approved.status(), await approved.text()).toBe(200);
  const authors = (await (await admin.get('/api/v1/blog/authors')).json()).data as { fullName: string; slug: string }[];
  authorSlug = authors.find((entry) => entry.fullName === author.fullName)?.slug ?? '';
  expect(authorSlug).not.toBe('');
  await admin.dispose();
});

/** The page's own form (the header's is 'Site search'). */
const searchForm = (page: Page) => page.getByRole('search', { name: 'Search posts' });
const results = (page: Page) => page.locator('[data-search-result]');
const resultTitles = (page: Page) => page.locator('[data-search-result] h3');

test.describe('the snippet', () => {
  test('lets only <mark> through, balanced', () => {
    expect(safeSnippetHtml('a <mark>match</mark> &amp; &lt;b&gt;')).toBe('a <mark>match</mark> &amp; &lt;b&gt;');
    expect(safeSnippetHtml('<img src=x onerror=alert(1)><mark>x</mark>')).toBe('&lt;img src=x onerror=alert(1)&gt;<mark>x</mark>');
    expect(safeSnippetHtml('<mark class="x">a</mark></mark><mark>b')).toBe('&lt;mark class="x"&gt;a<mark>b</mark>');
    expect(safeSnippetHtml('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

test.describe('the header search box', () => {
  test('suggests the top titles as you type; arrows and Enter open a post, Escape closes', async ({ page, hydrated }) => {
    await page.goto('/blog');
    await hydrated('SearchBox'); // the header's box: client:visible, shown from 1024 px
    const box = page.getByRole('combobox', { name: 'Search the blog' });
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await box.fill(words.title);
    const listbox = page.getByRole('listbox', { name: 'Suggested posts' });
    await expect(listbox.getByRole('option')).toHaveText([titlePost.title]);
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await expect(box).toHaveAttribute('aria-controls', (await listbox.getAttribute('id'))!);
    await expectNoSeriousViolations(page, 'the header box with its suggestions open');

    await box.press('Escape');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expect(listbox).toBeHidden();

    await box.press('ArrowDown');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    const option = listbox.getByRole('option').first();
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
    await box.press('ArrowUp'); // wraps around the one option
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/blog/${titlePost.slug}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(titlePost.title);
  });

  test('keeps what was typed before it hydrated, and suggests for it', async ({ page, hydrated }) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/_astro\/[^?#]+\.js(\?.*)?$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/about');
    const box = page.getByRole('combobox', { name: 'Search the blog' });
    await box.fill(words.title);
    release();
    await hydrated('SearchBox');
    await expect(box).toHaveValue(words.title);
    await expect(page.getByRole('listbox', { name: 'Suggested posts' }).getByRole('option')).toHaveText([titlePost.title]);
  });

  test('Enter without a highlighted suggestion searches', async ({ page, hydrated }) => {
    await page.goto('/');
    await hydrated('SearchBox');
    const box = page.getByRole('combobox', { name: 'Search the blog' });
    await box.fill(words.paged);
    await expect(page.getByRole('listbox', { name: 'Suggested posts' }).getByRole('option')).toHaveCount(5);
    await box.press('Enter');
    await expect(page).toHaveURL(`/search?q=${words.paged}`);
    await expect(results(page)).toHaveCount(10);
  });

  test('without JavaScript it is a GET form to /search', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/about');
    const box = page.getByRole('combobox', { name: 'Search the blog' });
    await box.fill(`  ${words.title.toUpperCase()} `);
    await box.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Search results for “${words.title}”`);
    await expect(resultTitles(page)).toHaveText([titlePost.title]);
    await context.close();
  });

  test('on a small screen it is a link to the search page', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto('/blog');
    await expect(page.getByRole('combobox', { name: 'Search the blog' })).toBeHidden();
    await page.getByRole('banner').getByRole('link', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL('/search');
    await expect(page.getByRole('searchbox', { name: 'Search for' })).toBeVisible();
  });
});

test.describe('/search', () => {
  test('shows results with marked snippets, keeps the query, is not indexed', async ({ page }) => {
    const response = await page.goto(`/search?q=${encodeURIComponent(`  ${words.title.toUpperCase()}  `)}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('searchbox', { name: 'Search for' })).toHaveValue(words.title);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.locator('[data-search-summary]')).toHaveText(`1 result for “${words.title}”`);
    await expect(resultTitles(page)).toHaveText([titlePost.title]);
    await expect(page.locator('[data-snippet] mark').first()).toHaveText(new RegExp(words.title, 'i'));
    // Only <mark> inside a snippet: the body's escaped markup shows as text, never as elements.
    await expect(page.locator('[data-snippet] :not(mark)')).toHaveCount(0);
    await expect(page.locator('[data-snippet]')).toContainText('a < b & c');
    await page.getByRole('link', { name: titlePost.title }).click();
    await expect(page).toHaveURL(new RegExp(`/blog/${titlePost.slug}$`));
  });

  test('pages the results, ten a page', async ({ page }) => {
    await page.goto(`/search?q=${words.paged}`);
    await expect(page.locator('[data-search-summary]')).toHaveText(`12 results for “${words.paged}”`);
    await expect(results(page)).toHaveCount(10);
    const firstPage = await resultTitles(page).allTextContents();
    const pager = page.getByRole('navigation', { name: 'Search results pages' });
    await pager.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(`/search?q=${words.paged}&page=2`);
    await expect(results(page)).toHaveCount(2);
    const secondPage = await resultTitles(page).allTextContents();
    expect(new Set([...firstPage, ...secondPage]).size).toBe(12);
    await expect(page.getByRole('navigation', { name: 'Search results pages' }).getByRole('link', { name: 'Page 2' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // page=1 is the first page's other spelling: one address per page.
    await page.goto(`/search?q=${words.paged}&page=1`);
    await expect(page).toHaveURL(`/search?q=${words.paged}`);
  });

  test('filters by tag, author and date through the form', async ({ page }) => {
    await page.goto(`/search?q=${words.filtered}`);
    await expect(results(page)).toHaveCount(3);
    await page.getByLabel('Tag', { exact: true }).selectOption(tag.slug);
    await searchForm(page).getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]tag=${tag.slug}`));
    await expect(results(page)).toHaveCount(2);
    expect((await resultTitles(page).allTextContents()).map((title) => title.trim()).sort()).toEqual([
      `Admin tagged ${token}`,
      `Author tagged ${token}`,
    ]);
    await expect(page.getByLabel('Tag', { exact: true })).toHaveValue(tag.slug);

    await page.getByLabel('Author', { exact: true }).selectOption(authorSlug);
    await searchForm(page).getByRole('button', { name: 'Search', exact: true }).click();
    await expect(resultTitles(page)).toHaveText([`Author tagged ${token}`]);
    await expect(page.getByLabel('Author', { exact: true })).toHaveValue(authorSlug);

    await page.getByLabel('Published from').fill('2099-01-01');
    await searchForm(page).getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.locator('[data-no-results]')).toContainText(`No results for “${words.filtered}”`);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(`/search?q=${words.filtered}`);
    await expect(results(page)).toHaveCount(3);
  });

  test("offers 'Did you mean' for a misspelt title word", async ({ page }) => {
    const misspelt = words.title.replace('saxophone', 'saxofone');
    await page.goto(`/search?q=${misspelt}`);
    const suggestion = page.locator('[data-did-you-mean]').getByRole('link');
    await expect(suggestion).toBeVisible();
    await suggestion.click();
    await expect(page).toHaveURL(/\/search\?q=/);
    await expect(page.getByRole('searchbox', { name: 'Search for' })).not.toHaveValue(misspelt);
    await expect(resultTitles(page)).toContainText([titlePost.title]);
  });

  test("says 'No results for …' with tips and tags to browse", async ({ page }) => {
    const nothing = `nothingmatches${token}qqq`;
    const response = await page.goto(`/search?q=${nothing}`);
    expect(response?.status()).toBe(200);
    const empty = page.locator('[data-no-results]');
    await expect(empty).toContainText(`No results for “${nothing}”`);
    await expect(empty).toContainText('Check the spelling of your words.');
    await expect(empty.getByRole('link', { name: 'Browse all posts' })).toHaveAttribute('href', '/blog');
    await expect(results(page)).toHaveCount(0);
  });

  test("shows the API's 400 as the page's error state with the field's message; a blank query is the empty page", async ({ page }) => {
    const tooLong = await page.goto(`/search?q=${'a'.repeat(201)}`);
    expect(tooLong?.status()).toBe(400);
    await expect(page.locator('[data-search-problem]')).toBeVisible();
    await expect(page.locator('[data-search-problem]')).toContainText('Please check your search');
    await expect(page.getByRole('searchbox', { name: 'Search for' })).toHaveAttribute('aria-invalid', 'true');

    const badDate = await page.goto(`/search?q=${words.filtered}&from=not-a-date`);
    expect(badDate?.status()).toBe(400);
    await expect(page.locator('[data-search-problem]')).toBeVisible();
    await expect(page.getByLabel('Published from')).toHaveAttribute('aria-invalid', 'true');

    const blank = await page.goto('/search?q=%20%20');
    expect(blank?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search Inkwell');
    await expect(page.locator('[data-search-problem]')).toHaveCount(0);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  });

  test('works signed in too', async ({ page, signIn }) => {
    await signIn({ email: author.email, password: PASSWORD });
    await page.goto(`/search?q=${words.title}`);
    await expect(resultTitles(page)).toHaveText([titlePost.title]);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test.describe(`axe, ${colorScheme}`, () => {
      test.use({ colorScheme });
      for (const [state, path] of [
        ['empty', () => '/search'],
        ['results', () => `/search?q=${words.paged}`],
        ['no results', () => `/search?q=nothingmatches${token}qqq`],
        ['refused', () => `/search?q=${'a'.repeat(201)}`],
      ] as const) {
        test(`/search, ${state}`, async ({ page, hydrated }) => {
          await page.goto(path());
          await hydrated('SearchBox');
          await expectNoSeriousViolations(page, `/search ${state} (${colorScheme})`);
        });
      }
    });
  }
});

import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, type BrowserFixtures } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * The editor's publishing tools on /author/posts/{id}/edit: autosave and its
 * status line (saving, saved, retrying while the API fails), two tabs editing the same post (the
 * 409 dialog: keep mine, keep theirs, compare, by keyboard), the History panel (list, open,
 * compare, restore), the SEO section (fields saved, live previews, the API's field errors), and
 * axe with the panel and the section open at 320 px and desktop, light and dark.
 */

const PASSWORD = 'Publishing-Pass-1!';
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const writer = { fullName: `Pia ${unique}`, email: `pia-${unique}@inkwell.test`, password: PASSWORD, id: 0 };
let serial = 0;

interface Post {
  id: number;
  version: number;
  content: string;
  title: string;
}

const editPath = (post: Post) => `/author/posts/${post.id}/edit`;

test.beforeAll(async ({ playwright, baseURL }) => {
  const admin = await adminApi(baseURL!, playwright);
  const created = await admin.post('/api/v1/admin/users', {
    data: {
      fullName: writer.fullName,
      email: writer.email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: ['AUTHOR'],
      status: 'ACTIVE',
      markEmailAsVerified: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  writer.id = ((await created.json()).data as { id: number }).id;
  await admin.dispose();
});

/** A fresh draft of the writer's, made through the author API. */
async function draft(api: APIRequestContext, content = 'The first words of this draft.'): Promise<Post> {
  serial += 1;
  const title = `Publishing ${unique} ${serial}`;
  const answer = await api.post('/api/v1/blog/posts/author/create', { data: { title, slug: `publishing-${unique}-${serial}`, content } });
  expect(answer.status(), await answer.text()).toBe(201);
  return (await answer.json()).data as Post;
}

async function writerApi(baseURL: string, playwright: Parameters<typeof apiAs>[1]): Promise<APIRequestContext> {
  return apiAs(baseURL, playwright, writer.email, PASSWORD);
}

/** Signs the page in as the writer and opens the post's editor, hydrated. */
async function openEditor(page: Page, post: Post, { signIn, hydrated }: Pick<BrowserFixtures, 'signIn' | 'hydrated'>): Promise<void> {
  await signIn(writer, page);
  await page.goto(editPath(post));
  await hydrated(page.getByTestId('post-editor'));
}

const content = (page: Page) => page.getByLabel('Content', { exact: true });
const status = (page: Page) => page.getByTestId('save-status');
const SAVED = /^Saved · \d{1,2}:\d{2} (AM|PM) GMT[+-]\d+/;

test.describe('editor publishing tools', () => {
  test('autosave: Saving… then Saved · time, five seconds after the last change; the reload shows the text', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    const post = await draft(api);
    await openEditor(page, post, { signIn, hydrated });
    await expect(page.getByTestId('save-status')).toHaveAttribute('role', 'status');

    // Hold the autosave's request until 'Saving…' has been seen, then let it through.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent: { version?: number; status?: string }[] = [];
    await page.route(`**/api/v1/blog/posts/author/${post.id}`, async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      sent.push(route.request().postDataJSON() as { version?: number; status?: string });
      await held;
      await route.continue();
    });
    await content(page).fill('Autosaved words, typed once.');
    await expect(status(page)).toHaveText('Saving…', { timeout: 15_000 });
    // Typed while the save runs: kept, and saved by the next autosave.
    await content(page).press('End');
    await content(page).pressSequentially(' And more.');
    release();
    await expect(status(page)).toHaveText(SAVED);
    await expect(content(page)).toHaveValue('Autosaved words, typed once. And more.');
    expect(sent.length).toBe(1);
    await expect(page.getByText('You have unsaved changes.')).toBeVisible();
    await expect(page.getByText('You have unsaved changes.')).toBeHidden({ timeout: 15_000 });
    await expect(status(page)).toHaveText(SAVED);
    // Each save names the version it was based on, and never a status.
    expect(sent.map((body) => [body.version, body.status])).toEqual([
      [post.version, undefined],
      [post.version + 1, undefined],
    ]);

    await page.reload();
    await hydrated(page.getByTestId('post-editor'));
    await expect(content(page)).toHaveValue('Autosaved words, typed once. And more.');
    const stored = await api.get(`/api/v1/blog/posts/${post.id}`);
    const saved = (await stored.json()).data as Post & { status: string };
    expect(saved.status).toBe('DRAFT');
    expect(saved.version).toBeGreaterThan(post.version);
    await api.dispose();
  });

  test('autosave of a new post: once it has a title and content it is created, and the address becomes its edit page', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    await signIn(writer);
    await page.goto('/author/posts/new');
    await hydrated(page.getByTestId('post-editor'));
    serial += 1;
    const title = `Autosaved new ${unique} ${serial}`;
    await page.getByLabel('Title', { exact: true }).fill(title);
    await content(page).fill('A new post that saves itself.');
    await expect(status(page)).toHaveText(SAVED, { timeout: 15_000 });
    await expect(page).toHaveURL(/\/author\/posts\/\d+\/edit$/);
    const id = Number(/\/posts\/(\d+)\/edit/.exec(page.url())?.[1]);
    const api = await writerApi(baseURL!, playwright);
    const stored = (await (await api.get(`/api/v1/blog/posts/${id}`)).json()).data as Post & { status: string };
    expect([stored.title, stored.content, stored.status]).toEqual([title, 'A new post that saves itself.', 'DRAFT']);
    await page.reload();
    await hydrated(page.getByTestId('post-editor'));
    await expect(content(page)).toHaveValue('A new post that saves itself.');
    await api.dispose();
  });

  test('admin editor: autosave of a draft keeps its status (the status select waits for the manual save)', async ({
    asAdmin: page,
    playwright,
    baseURL,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    const post = await draft(api);
    const sent: { status?: string; version?: number }[] = [];
    await page.route(`**/api/v1/blog/posts/${post.id}`, (route) => {
      if (route.request().method() === 'PUT') sent.push(route.request().postDataJSON() as { status?: string; version?: number });
      return route.continue();
    });
    await page.goto(`/admin/posts/${post.id}/edit`);
    await hydrated(page.getByTestId('post-editor'));
    await page.getByLabel('Status').selectOption('PUBLISHED');
    await content(page).fill('An admin edit, autosaved.');
    await expect(status(page)).toHaveText(SAVED, { timeout: 15_000 });
    expect(sent).toEqual([expect.objectContaining({ status: 'DRAFT', version: post.version })]);
    const stored = (await (await api.get(`/api/v1/blog/posts/${post.id}`)).json()).data as Post & { status: string };
    expect([stored.status, stored.content]).toEqual(['DRAFT', 'An admin edit, autosaved.']);
    await expect(page.getByLabel('Status')).toHaveValue('PUBLISHED');
    await api.dispose();
  });

  test('autosave: the API failing shows Not saved, retrying; it saves once the API answers again', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    const post = await draft(api);
    await openEditor(page, post, { signIn, hydrated });
    let failing = true;
    await page.route(`**/api/v1/blog/posts/author/${post.id}`, (route) =>
      route.request().method() === 'PUT' && failing
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ success: false, data: null, message: 'Service unavailable', status: 503, errors: null }),
          })
        : route.continue(),
    );
    await content(page).fill('Words the server misses at first.');
    await expect(status(page)).toHaveText('Not saved, retrying', { timeout: 15_000 });
    // Meanwhile the local copy keeps the text.
    await expect
      .poll(() => page.evaluate((key) => localStorage.getItem(key) ?? '', `inkwell:draft:${writer.id}:post:${post.id}`))
      .toContain('Words the server misses at first.');
    failing = false;
    await expect(status(page)).toHaveText(SAVED, { timeout: 30_000 });
    const stored = await api.get(`/api/v1/blog/posts/${post.id}`);
    expect(((await stored.json()).data as Post).content).toBe('Words the server misses at first.');
    await api.dispose();
  });

  test('two tabs edit the same post: the second gets the 409 dialog; keep mine and keep theirs both work, by keyboard', async ({
    context,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    const post = await draft(api, 'Shared words.');
    const first = await context.newPage();
    const second = await context.newPage();
    await openEditor(first, post, { signIn, hydrated });
    await openEditor(second, post, { signIn, hydrated });

    await content(first).fill('Words from the first tab.');
    await first.getByRole('button', { name: 'Save Draft' }).click();
    await expect(status(first)).toHaveText(SAVED);

    await content(second).fill('Words from the second tab.');
    await second.keyboard.press('Control+s');
    const dialog = second.getByRole('dialog', { name: 'This post was changed elsewhere' });
    await expect(dialog).toBeVisible();
    // Focus starts on Compare; Enter opens the diff (the saved text struck through, yours underlined).
    await expect(dialog.getByRole('button', { name: 'Compare' })).toBeFocused();
    await second.keyboard.press('Enter');
    await expect(dialog.getByTestId('conflict-diff').locator('del').filter({ hasText: 'first' })).toBeVisible();
    await expect(dialog.getByTestId('conflict-diff').locator('ins').filter({ hasText: 'second' })).toBeVisible();
    await expectNoSeriousViolations(second, 'the conflict dialog');
    await second.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Keep theirs' })).toBeFocused();
    await second.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Keep mine' })).toBeFocused();
    await second.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(status(second)).toHaveText(SAVED);
    let stored = (await (await api.get(`/api/v1/blog/posts/${post.id}`)).json()).data as Post;
    expect(stored.content).toBe('Words from the second tab.');

    // The first tab is now the stale one: it keeps theirs (the second tab's text).
    await content(first).fill('A late edit in the first tab.');
    await first.getByRole('button', { name: 'Save Draft' }).click();
    const stale = first.getByRole('dialog', { name: 'This post was changed elsewhere' });
    await expect(stale).toBeVisible();
    await stale.getByRole('button', { name: 'Keep theirs' }).click();
    await expect(stale).toBeHidden();
    await expect(content(first)).toHaveValue('Words from the second tab.');
    await expect(first.getByTestId('editor-notice')).toHaveText('The saved version was loaded; your changes were discarded.');
    stored = (await (await api.get(`/api/v1/blog/posts/${post.id}`)).json()).data as Post;
    expect(stored.content).toBe('Words from the second tab.');

    // Escape closes the dialog without saving anything.
    await content(second).fill('The second tab again.');
    await second.getByRole('button', { name: 'Save Draft' }).click();
    await expect(status(second)).toHaveText(SAVED);
    await content(first).fill('Another late edit.');
    await first.getByRole('button', { name: 'Save Draft' }).click();
    await expect(stale).toBeVisible();
    await first.keyboard.press('Escape');
    await expect(stale).toBeHidden();
    await expect(content(first)).toHaveValue('Another late edit.');
    stored = (await (await api.get(`/api/v1/blog/posts/${post.id}`)).json()).data as Post;
    expect(stored.content).toBe('The second tab again.');
    await api.dispose();
  });

  test('edit → History → open, compare, restore: the editor loads the restored post', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    const post = await draft(api, 'The original opening line.');
    // An admin's edit is another person's save: a second revision.
    const admin = await adminApi(baseURL!, playwright);
    const edited = await admin.put(`/api/v1/blog/posts/${post.id}`, {
      data: { title: post.title, content: 'The rewritten opening line.' },
    });
    expect(edited.status(), await edited.text()).toBe(200);
    await admin.dispose();

    await openEditor(page, post, { signIn, hydrated });
    await expect(content(page)).toHaveValue('The rewritten opening line.');
    await page.getByRole('button', { name: 'History' }).click();
    const panel = page.getByRole('dialog', { name: 'History' });
    await expect(panel.getByTestId('revision')).toHaveCount(2);
    await expect(panel.getByTestId('revision').first()).toContainText('words');
    const oldest = panel.getByTestId('revision').last();
    await expect(oldest).toContainText(writer.fullName);

    await oldest.getByRole('button', { name: /^Open the revision of / }).click();
    const opened = page.getByTestId('revision-view');
    await expect(opened.getByLabel('Content of the revision')).toHaveText('The original opening line.');
    await opened.getByRole('button', { name: 'Back to history' }).click();

    await panel
      .getByTestId('revision')
      .last()
      .getByRole('button', { name: /^Compare the revision of / })
      .click();
    const diff = page.getByTestId('compare-content');
    await expect(diff.locator('del')).toContainText('original');
    await expect(diff.locator('ins')).toContainText('rewritten');
    await expect(diff.locator('del .sr-only').first()).toHaveText('removed:');
    await page.getByRole('button', { name: 'Back to history' }).click();

    await panel
      .getByTestId('revision')
      .last()
      .getByRole('button', { name: /^Restore the revision of / })
      .click();
    await expect(page.getByRole('dialog', { name: 'Restore this revision?' })).toBeVisible();
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(content(page)).toHaveValue('The original opening line.');
    await expect(page.getByTestId('editor-notice')).toHaveText('Revision restored.');
    // The editor holds the restored version: the next save goes through without a conflict.
    await content(page).fill('The original opening line, and one more.');
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(status(page)).toHaveText(SAVED);
    await expect(page.getByRole('dialog')).toBeHidden();

    await page.getByRole('button', { name: 'History' }).click();
    await expect(panel.getByTestId('revision-kind').filter({ hasText: 'Restored' }).or(panel.getByText('(restored)'))).toHaveCount(1);
    await api.dispose();
  });

  test('SEO section: fields save, show in the live previews, and the API field errors show on the fields', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    const post = await draft(api);
    await openEditor(page, post, { signIn, hydrated });
    const section = page.getByTestId('seo-section');
    await section.getByText('SEO', { exact: true }).click();
    await expect(page.getByTestId('search-preview-title')).toHaveText(post.title);

    const metaTitle = page.getByLabel('Meta title');
    await metaTitle.fill('A search title');
    await expect(page.getByTestId('search-preview-title')).toHaveText('A search title');
    await expect(page.getByTestId('social-preview-title')).toHaveText('A search title');
    await expect(page.getByTestId('metaTitle-counter')).toHaveText('14 / 60 recommended');
    await metaTitle.fill('A search title that runs well past what a search engine shows in a result');
    await expect(page.getByTestId('metaTitle-counter')).toContainText('Longer than 60 characters');
    await expect(page.getByTestId('search-preview-title')).toHaveText(/…$/);
    await metaTitle.fill('A search title');
    await page.getByLabel('Meta description').fill('What the result says under the title.');
    await expect(page.getByTestId('search-preview-description')).toHaveText('What the result says under the title.');

    // A canonical address that is not absolute: the API's field error shows on the field.
    const canonical = page.getByLabel('Canonical URL');
    await canonical.fill('not an address');
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(canonical).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator(`#${await canonical.getAttribute('id')}-error`)).toBeVisible();
    await expect(canonical).toBeFocused();

    await canonical.fill('https://example.com/first-home');
    await expect(page.getByTestId('search-preview-url')).toHaveText('https://example.com/first-home');
    await page.getByLabel('Hide from search engines (noindex)').check();
    await page.getByLabel('Social image URL').fill('https://example.com/card.png');
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(status(page)).toHaveText(SAVED);

    const stored = (await (await api.get(`/api/v1/blog/posts/${post.id}`)).json()).data as { seo: Record<string, unknown> };
    expect(stored.seo).toEqual({
      metaTitle: 'A search title',
      metaDescription: 'What the result says under the title.',
      canonicalUrl: 'https://example.com/first-home',
      noindex: true,
      socialImage: 'https://example.com/card.png',
    });
    await page.reload();
    await hydrated(page.getByTestId('post-editor'));
    await page.getByTestId('seo-section').getByText('SEO', { exact: true }).click();
    await expect(page.getByLabel('Meta title')).toHaveValue('A search title');
    await expect(page.getByLabel('Hide from search engines (noindex)')).toBeChecked();
    await api.dispose();
  });

  test('Submit for review with a requested publish time: the site-zone wall time goes out as UTC; a past time is refused on the field', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    const post = await draft(api);
    await openEditor(page, post, { signIn, hydrated });
    const zone = await page.evaluate(() => document.documentElement.dataset.timeZone ?? 'Asia/Ho_Chi_Minh');
    const wallValue = (instant: Date) => {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-CA', {
          timeZone: zone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
          .formatToParts(instant)
          .map((part) => [part.type, part.value]),
      );
      return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
    };
    const field = page.getByLabel(/^Requested publish time \(GMT[+-]?\d*\)$/);
    await field.fill(wallValue(new Date(Date.now() - 3_600_000)));
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(page.getByText('Choose a time in the future.')).toBeVisible();
    await expect(field).toBeFocused();

    const when = new Date(Math.floor((Date.now() + 2 * 86_400_000) / 60_000) * 60_000);
    await field.fill(wallValue(when));
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForURL('**/author/posts');
    const stored = (await (await api.get(`/api/v1/blog/posts/${post.id}`)).json()).data as {
      status: string;
      requestedPublishAt: string | null;
    };
    expect(stored.status).toBe('PENDING_REVIEW');
    expect(new Date(stored.requestedPublishAt ?? '').toISOString()).toBe(when.toISOString());
    await api.dispose();
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const width of [320, 1280]) {
      test(`axe: the editor with the SEO section and the History panel open (${width} px, ${theme})`, async ({
        browser,
        playwright,
        baseURL,
        signIn,
        hydrated,
      }) => {
        const context = await browser.newContext({ baseURL, colorScheme: theme, viewport: { width, height: 900 } });
        const page = await context.newPage();
        const api = await writerApi(baseURL!, playwright);
        const post = await draft(api);
        await openEditor(page, post, { signIn, hydrated });
        await page.getByTestId('seo-section').getByText('SEO', { exact: true }).click();
        await expect(page.getByLabel('Meta title')).toBeVisible();
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await expectNoSeriousViolations(page, `editor with SEO open (${width} px, ${theme})`);
        await page.getByRole('button', { name: 'History' }).click();
        const panel = page.getByRole('dialog', { name: 'History' });
        await expect(panel.getByTestId('revision')).toHaveCount(1);
        await expectNoSeriousViolations(page, `History panel (${width} px, ${theme})`);
        // Keyboard: Close has focus; Escape closes and focus returns to History.
        await expect(panel.getByRole('button', { name: 'Close' })).toBeFocused();
        await page.keyboard.press('Escape');
        await expect(panel).toBeHidden();
        await expect(page.getByRole('button', { name: 'History' })).toBeFocused();
        await api.dispose();
        await context.close();
      });
    }
  }
});

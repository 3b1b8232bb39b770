import type { APIRequestContext, Locator, Page, Route } from '@playwright/test';
import { expect, test, type BrowserFixtures, type Credentials } from './fixtures';
import sharp from 'sharp';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * The post editor island on /author/posts/new (docs/requirements.md#post-editor, 'Post preview', docs/requirements.md#post-transitions
 * thumbnail states, docs/requirements.md#validation-post and 'Thumbnail', docs/requirements.md#errors-upload, docs/requirements.md#constants-images): the slug following the title, the
 * Markdown toolbar by mouse and keyboard, the save checks in the spec's order, the server-rendered
 * preview and the Preview dialog, saving and submitting through the author endpoints, a used slug,
 * the local copy offered back after a reload, the beforeunload guard, Esc and Ctrl+S (blocked
 * while saving), the thumbnail flow with real PNGs (checks, 'Continue anyway?', progress, remove
 * and delete), and axe in the editor's states. The writer is an AUTHOR made by the seeded admin.
 */

const PASSWORD = 'Editor-Pass-1!';
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const writer = { fullName: `Eddie ${unique}`, email: `eddie-${unique}@inkwell.test`, password: PASSWORD, id: 0 };
/** A second author signing in on the same browser. */
const sharer = { fullName: `Sasha ${unique}`, email: `sasha-${unique}@inkwell.test`, password: PASSWORD, id: 0 };
const activeTag = { name: `Essays ${unique}`, slug: `essays-${unique}` };
const inactiveTag = { name: `Retired ${unique}`, slug: `retired-${unique}` };
const NEW = '/author/posts/new';
/** The local copies' keys: per signed-in user, for the new post and for each saved one. */
const newKey = (userId = writer.id) => `inkwell:draft:${userId}:new`;
const postKey = (id: number, userId = writer.id) => `inkwell:draft:${userId}:post:${id}`;
const stored = (page: Page, key: string) => page.evaluate((name) => localStorage.getItem(name), key);

type Playwright = { request: { newContext: (options: object) => Promise<APIRequestContext> } };

interface MyPost {
  id: number;
  title: string;
  slug: string;
  status: string;
  thumbnail: string | null;
  tags: { slug: string }[];
}

function writerApi(baseURL: string, playwright: Playwright): Promise<APIRequestContext> {
  return apiAs(baseURL, playwright, writer.email, PASSWORD);
}

/** The writer's post with this slug, as the author list has it. */
async function myPost(api: APIRequestContext, slug: string): Promise<MyPost | undefined> {
  const answer = await api.get('/api/v1/blog/posts/author/my-posts', { params: { page: 0, size: 1000 } });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()).data.content as MyPost[]).find((post) => post.slug === slug);
}

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(60_000);
  const admin = await adminApi(baseURL!, playwright);
  for (const who of [writer, sharer]) {
    const created = await admin.post('/api/v1/admin/users', {
      data: {
        fullName: who.fullName,
        email: who.email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        roles: ['AUTHOR'],
        status: 'ACTIVE',
        markEmailAsVerified: true,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    who.id = ((await created.json()).data as { id: number }).id;
  }
  for (const tag of [activeTag, inactiveTag]) {
    const answer = await admin.post('/api/v1/blog/tags', { data: tag });
    expect(answer.status(), await answer.text()).toBe(201);
    if (tag === inactiveTag) {
      const id = ((await answer.json()).data as { id: number }).id;
      const deactivated = await admin.delete(`/api/v1/blog/tags/${id}/deactivate`);
      expect(deactivated.status(), await deactivated.text()).toBe(200);
    }
  }
  await admin.dispose();
});

/** Signs the browser in as the writer (or `who`) and opens the new-post editor, hydrated. */
async function openEditor(
  page: Page,
  { signIn, hydrated }: Pick<BrowserFixtures, 'signIn' | 'hydrated'>,
  path = NEW,
  who: Credentials = writer,
): Promise<void> {
  await signIn(who, page);
  await page.goto(path);
  await hydrated(page.getByTestId('post-editor'));
}

const fields = (page: Page) => ({
  title: page.getByLabel('Title', { exact: true }),
  slug: page.getByLabel('Slug', { exact: true }),
  excerpt: page.getByLabel('Excerpt', { exact: true }),
  content: page.getByLabel('Content', { exact: true }),
  save: page.getByRole('button', { name: 'Save Draft' }),
  preview: page.getByRole('button', { name: 'Preview', exact: true }),
  notice: page.getByTestId('editor-notice'),
});

const select = (textarea: Locator, start: number, end: number) =>
  textarea.evaluate((element: HTMLTextAreaElement, [from, to]) => element.setSelectionRange(from, to), [start, end]);

/** A solid PNG of the given size, made here with sharp. */
const png = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 200 } } })
    .png()
    .toBuffer();

async function chooseImage(page: Page, name: string, buffer: Buffer, mimeType = 'image/png'): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /^(Choose image|Choose another image|Change image)$/ }).click();
  await (await chooser).setFiles({ name, mimeType, buffer });
}

test.describe('post editor', () => {
  test('the slug follows the title until it is edited; toolbar by mouse, keyboard and shortcuts', async ({ page, signIn, hydrated }) => {
    // The server's HTML and the first browser render agree (no hydration mismatch), and nothing throws.
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on(
      'console',
      (message) =>
        message.type() === 'error' && /hydrat|did not match|Minified React error/i.test(message.text()) && problems.push(message.text()),
    );
    await openEditor(page, { signIn, hydrated });
    const { title, slug, content } = fields(page);
    await title.fill('Crème brûlée à la carte');
    await expect(slug).toHaveValue('creme-brulee-a-la-carte');
    await title.pressSequentially(' 2');
    await expect(slug).toHaveValue('creme-brulee-a-la-carte-2');
    await slug.fill('my-own-slug');
    await title.fill('Another title');
    await expect(slug).toHaveValue('my-own-slug');
    await slug.fill('');
    await title.fill('Đà Nẵng notes');
    await expect(slug).toHaveValue('da-nang-notes');

    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    await expect(toolbar.getByRole('button')).toHaveCount(8);
    for (const name of ['Heading', 'Bold', 'Italic', 'Link', 'Bulleted list', 'Quote', 'Code', 'Image'])
      await expect(toolbar.getByRole('button', { name, exact: true })).toBeVisible();
    await expect(content).toHaveAttribute('rows', '20');

    await content.fill('hello world');
    await select(content, 6, 11);
    await toolbar.getByRole('button', { name: 'Bold' }).click();
    await expect(content).toHaveValue('hello **world**');
    await expect(content).toBeFocused();
    // Typed as an edit: the browser's undo takes it back.
    await page.keyboard.press('Control+z');
    await expect(content).toHaveValue('hello world');

    // One tab stop; arrows, Home and End move between the buttons; Enter applies.
    await select(content, 0, 5);
    await toolbar.getByRole('button', { name: 'Heading' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(toolbar.getByRole('button', { name: 'Bold' })).toBeFocused();
    await page.keyboard.press('End');
    await expect(toolbar.getByRole('button', { name: 'Image' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(toolbar.getByRole('button', { name: 'Heading' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(toolbar.getByRole('button', { name: 'Italic' })).toBeFocused();
    await expect(toolbar.getByRole('button', { name: 'Italic' })).toHaveAttribute('tabindex', '0');
    await expect(toolbar.getByRole('button', { name: 'Bold' })).toHaveAttribute('tabindex', '-1');
    await page.keyboard.press('Enter');
    await expect(content).toHaveValue('_hello_ world');

    // Ctrl+B in the field; a link selects its URL for typing.
    await select(content, 8, 13);
    await page.keyboard.press('Control+b');
    await expect(content).toHaveValue('_hello_ **world**');
    await content.fill('read the docs');
    await select(content, 5, 13);
    await toolbar.getByRole('button', { name: 'Link' }).click();
    await page.keyboard.type('https://example.com');
    await expect(content).toHaveValue('read [the docs](https://example.com)');
    await content.fill('one\ntwo');
    await select(content, 0, 7);
    await toolbar.getByRole('button', { name: 'Bulleted list' }).click();
    await expect(content).toHaveValue('- one\n- two');
    expect(problems).toEqual([]);
  });

  test('save checks in the spec’s order, on their fields; Preview needs title and content', async ({ page, signIn, hydrated }) => {
    await openEditor(page, { signIn, hydrated });
    const { title, slug, content, save, preview, notice } = fields(page);
    await expect(save).toBeDisabled();
    // Ctrl+S runs the checks even while the button waits for a title.
    await page.keyboard.press('Control+s');
    await expect(notice).toHaveText('Title is required');
    await expect(title).toBeFocused();
    await expect(title).toHaveAccessibleDescription('Title is required');
    await expect(title).toHaveAttribute('aria-invalid', 'true');

    await title.fill('   ');
    await expect(save).toBeDisabled();
    await title.fill('Order check');
    await expect(save).toBeEnabled();
    await save.click();
    await expect(notice).toHaveText('Content is required');
    await expect(content).toBeFocused();
    await expect(content).toHaveAccessibleDescription('Content is required');

    await content.fill('Some body');
    await slug.fill('');
    await save.click();
    await expect(notice).toHaveText('Slug is required');
    await expect(slug).toBeFocused();

    await slug.fill('Not A Slug');
    await save.click();
    await expect(notice).toHaveText('Invalid slug format: Slug must contain only lowercase letters, numbers, and hyphens.');
    await expect(slug).toHaveAccessibleDescription(
      /^Invalid slug format: Slug must contain only lowercase letters, numbers, and hyphens\./,
    );
    await expectNoSeriousViolations(page, `${NEW} (validation errors)`);

    await content.fill('');
    await preview.click();
    await expect(notice).toHaveText('Preview requires title and content');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('Rendered shows the server’s sanitized HTML; the Preview dialog shows the post as readers would, Escape closes it', async ({
    page,
    signIn,
    hydrated,
  }) => {
    await openEditor(page, { signIn, hydrated });
    const { title, excerpt, content, preview } = fields(page);
    await title.fill('Preview title');
    await excerpt.fill('A short excerpt.');
    await content.fill(`## Section\n\nSome **bold** text.<script>window.hacked = 1</script>\n\n${'word '.repeat(250)}`);
    await page.getByRole('button', { name: `Add tag ${activeTag.name}` }).click();

    await page.getByRole('group', { name: 'Content view' }).getByRole('button', { name: 'Rendered' }).click();
    const rendered = page.getByTestId('content-preview');
    await expect(rendered.getByRole('heading', { name: 'Section' })).toBeVisible();
    await expect(rendered.locator('strong')).toHaveText('bold');
    await expect(rendered.locator('script')).toHaveCount(0);
    await expect(page.getByTestId('content-preview-figures')).toHaveText('257 words · 2 min read');
    await expect(content).toBeHidden();
    await page.getByRole('group', { name: 'Content view' }).getByRole('button', { name: 'Write' }).click();
    await expect(content).toBeVisible();

    await preview.click();
    const dialog = page.getByRole('dialog', { name: 'Preview title' });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('.post-prose strong')).toHaveText('bold');
    await expect(dialog).toContainText('Not published');
    await expect(dialog).toContainText('A short excerpt.');
    await expect(dialog).toContainText(writer.fullName);
    await expect(dialog).toContainText(activeTag.name);
    await expect(dialog.getByTestId('preview-reading-time')).toHaveText('2 min read');
    await expect(dialog).not.toContainText(/\bviews\b/);
    await expect(dialog).toContainText('Preview Mode');
    await expect(dialog.getByRole('button', { name: 'Close Preview' })).toBeFocused();
    expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
    await expectNoSeriousViolations(page, `${NEW} (Preview dialog)`);

    // Escape closes the dialog, not the editor; focus goes back to Preview.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(NEW);
    await expect(preview).toBeFocused();
    await preview.click();
    await dialog.getByRole('button', { name: 'Close Preview' }).click();
    await expect(dialog).toBeHidden();
  });

  test('Save Draft saves through the author endpoint with active tags only, a second save updates it, Submit for review goes to My Posts', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    await openEditor(page, { signIn, hydrated });
    const { title, slug, excerpt, content, save, notice } = fields(page);
    const postTitle = `Journey ${unique}`;
    await title.fill(postTitle);
    await excerpt.fill('  Why editors matter.  ');
    await content.fill('# Start\n\nThe body of the journey.');
    await expect(page.getByRole('button', { name: `Add tag ${inactiveTag.name}` })).toHaveCount(0);
    await page.getByRole('button', { name: `Add tag ${activeTag.name}` }).click();
    await expect(page.getByRole('button', { name: `Remove tag ${activeTag.name}` })).toBeVisible();
    const expectedSlug = `journey-${unique}`;
    await expect(slug).toHaveValue(expectedSlug);
    await expect(page.getByRole('button', { name: 'Submit for review' })).toHaveCount(0);

    await save.click();
    await expect(notice).toHaveText('Post saved as a draft. Submit it for review to publish it.');
    const saved = await myPost(api, expectedSlug);
    expect(saved).toMatchObject({ title: postTitle, status: 'DRAFT', tags: [{ slug: activeTag.slug }] });
    // The address is now the saved post's edit page (a reload opens it), without a page load.
    await expect(page).toHaveURL(`/author/posts/${saved!.id}/edit`);
    await expect(title).toHaveValue(postTitle);
    const info = page.getByTestId('post-info');
    await expect(info).toContainText(writer.fullName);
    await expect(info).toContainText('Draft');
    await expect(excerpt).toHaveValue('Why editors matter.');
    expect(await stored(page, newKey())).toBeNull();

    // A change must be saved before submitting; Ctrl+S saves it to the same post.
    await title.fill(`${postTitle} revised`);
    await expect(slug).toHaveValue(`${expectedSlug}-revised`);
    await expect(page.getByRole('button', { name: 'Submit for review' })).toBeDisabled();
    await page.keyboard.press('Control+s');
    await expect(notice).toHaveText('Post saved as a draft. Submit it for review to publish it.');
    await expect(page.getByRole('button', { name: 'Submit for review' })).toBeEnabled();
    const revised = await myPost(api, `${expectedSlug}-revised`);
    expect(revised).toMatchObject({ id: saved!.id, title: `${postTitle} revised` });
    expect(await stored(page, postKey(saved!.id))).toBeNull();
    expect(await myPost(api, expectedSlug)).toBeUndefined();

    await page.getByRole('button', { name: 'Submit for review' }).click();
    await expect(page).toHaveURL('/author/posts');
    await expect(page.getByRole('status').filter({ hasText: 'Post submitted for review.' })).toBeVisible();
    expect((await myPost(api, `${expectedSlug}-revised`))?.status).toBe('PENDING_REVIEW');
    await api.dispose();
  });

  test('a slug another post uses is shown on the slug field (409)', async ({ page, playwright, baseURL, signIn, hydrated }) => {
    const api = await writerApi(baseURL!, playwright);
    const taken = `taken-${unique}`;
    const created = await api.post('/api/v1/blog/posts/author/create', { data: { title: 'Taken', slug: taken, content: 'Already here.' } });
    expect(created.status(), await created.text()).toBe(201);
    await openEditor(page, { signIn, hydrated });
    const { title, slug, content, save, notice } = fields(page);
    await title.fill('Wants the slug');
    await content.fill('Body.');
    await slug.fill(taken);
    await save.click();
    const message = `Slug "${taken}" is already used by another post. Choose another slug.`;
    await expect(notice).toHaveText(message);
    await expect(slug).toHaveAccessibleDescription(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    await expect(slug).toBeFocused();
    await api.dispose();
  });

  test('unsaved text survives a reload (Restore / Discard), leaving asks first, Esc goes back and keeps the copy', async ({
    page,
    signIn,
    hydrated,
  }) => {
    await openEditor(page, { signIn, hydrated });
    const { title, content } = fields(page);
    await title.fill('Kept locally');
    await content.fill('Typed but never saved.');
    await expect.poll(() => stored(page, newKey())).toContain('Typed but never saved.');
    await expect(page.getByText('You have unsaved changes.')).toBeVisible();

    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await hydrated(page.getByTestId('post-editor'));
    const offer = page.getByRole('alertdialog', { name: 'Restore unsaved changes?' });
    await expect(offer).toBeVisible();
    await expect(title).toHaveValue('');
    await expectNoSeriousViolations(page, `${NEW} (restore offer)`);
    await offer.getByRole('button', { name: 'Restore' }).click();
    await expect(title).toHaveValue('Kept locally');
    await expect(content).toHaveValue('Typed but never saved.');
    await expect(offer).toHaveCount(0);

    // Esc goes back (to /author) at once; the copy is written first and offered again.
    await content.press('End');
    await page.keyboard.type(' More.');
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL('/author');
    await page.goto(NEW);
    await hydrated(page.getByTestId('post-editor'));
    await offer.getByRole('button', { name: 'Discard' }).click();
    await expect(title).toHaveValue('');
    expect(await stored(page, newKey())).toBeNull();
    await page.reload();
    await hydrated(page.getByTestId('post-editor'));
    await expect(offer).toHaveCount(0);
  });

  test('another account signing in on the same browser is not offered the first one’s unsaved text', async ({ page, signIn, hydrated }) => {
    await openEditor(page, { signIn, hydrated });
    const { title, content } = fields(page);
    await title.fill('Eddie’s secret draft');
    await content.fill('Only Eddie may get this back.');
    await expect.poll(() => stored(page, newKey())).toContain('Only Eddie may get this back.');

    page.on('dialog', (dialog) => void dialog.accept());
    await openEditor(page, { signIn, hydrated }, NEW, sharer);
    const offer = page.getByRole('alertdialog', { name: 'Restore unsaved changes?' });
    await expect(offer).toHaveCount(0);
    await expect(title).toHaveValue('');
    await title.fill('Sasha’s own');
    await expect.poll(() => stored(page, newKey(sharer.id))).toContain('Sasha’s own');
    expect(await stored(page, newKey())).toContain('Only Eddie may get this back.');

    // Back as Eddie: his copy is offered, Sasha's stays hers.
    await openEditor(page, { signIn, hydrated });
    await expect(offer).toBeVisible();
    await offer.getByRole('button', { name: 'Restore' }).click();
    await expect(title).toHaveValue('Eddie’s secret draft');
    await expect(content).toHaveValue('Only Eddie may get this back.');
    expect(await stored(page, newKey(sharer.id))).toContain('Sasha’s own');
  });

  test('closing the tab with unsaved changes asks first (beforeunload)', async ({ page, signIn, hydrated }) => {
    await openEditor(page, { signIn, hydrated });
    await fields(page).title.fill('Not saved yet');
    const dialog = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const asked = await dialog;
    expect(asked.type()).toBe('beforeunload');
    await asked.accept();
  });

  test('while a save runs, Save, Ctrl+S and Esc wait: one request only', async ({ page, signIn, hydrated }) => {
    await openEditor(page, { signIn, hydrated });
    const { title, content, save, notice } = fields(page);
    await title.fill(`Held ${unique}`);
    await content.fill('Body.');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    await page.route('**/api/v1/blog/posts/author/create', async (route: Route) => {
      requests += 1;
      await held;
      await route.continue();
    });
    await save.click();
    await expect(save).toBeDisabled();
    await page.keyboard.press('Control+s');
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(NEW);
    release();
    await expect(notice).toHaveText('Post saved as a draft. Submit it for review to publish it.');
    expect(requests).toBe(1);
  });

  test('featured image: checks, Continue anyway?, upload with progress, replace, remove with confirmation, saved with the post', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    test.setTimeout(60_000);
    const api = await writerApi(baseURL!, playwright);
    await openEditor(page, { signIn, hydrated });
    const image = page.getByRole('img', { name: 'Featured image' });
    await expect(page.getByText('No featured image')).toBeVisible();

    // Client checks: type, then dimensions; the server's check next.
    await chooseImage(page, 'notes.png', Buffer.from('not an image at all'), 'text/plain');
    await expect(page.getByRole('alert')).toContainText('Invalid File');
    await expect(page.getByRole('alert')).toContainText('Please select a valid image file (JPG, PNG, WEBP, GIF)');
    await chooseImage(page, 'broken.png', Buffer.from('\x89PNG\r\n\x1a\nbroken'));
    await expect(page.getByRole('alert')).toContainText('The file could not be read as an image.');
    await chooseImage(page, 'huge.png', await png(3000, 1000));
    await expect(page.getByRole('alert')).toContainText('Invalid image dimensions');
    await expect(page.getByRole('alert')).toContainText('The image is 3000x1000 pixels; at most 2048x2048 is allowed.');
    await chooseImage(page, 'square.png', await png(300, 300));
    await expect(page.getByRole('alert')).toContainText('Image validation failed');
    await expect(page.getByRole('alert')).toContainText('Image dimensions 300x300px are too different from recommended 800x400px');
    await expect(page.getByRole('button', { name: 'Upload image' })).toHaveCount(0);

    // 800x400: no question; the progress bar shows while the upload runs.
    await chooseImage(page, 'exact.png', await png(800, 400));
    await expect(page.getByTestId('thumbnail-file')).toContainText('800x400');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/images/thumbnail/upload', async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Upload image' }).click();
    const progress = page.getByRole('progressbar', { name: 'Upload progress' });
    await expect(progress).toBeVisible();
    await expect(progress).toHaveAttribute('aria-valuemin', '0');
    await expect(progress).toHaveAttribute('aria-valuemax', '100');
    await expect(progress).toHaveAttribute('aria-valuenow', /^\d{1,3}$/);
    await expectNoSeriousViolations(page, `${NEW} (uploading)`);
    release();
    await expect(page.getByText('Image uploaded.')).toBeVisible();
    await page.unroute('**/images/thumbnail/upload');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(image).toHaveAttribute('src', /^\/images\/thumbnails\/[0-9a-f]{32}-800x400\.webp$/);
    const first = (await image.getAttribute('src'))!;

    // 1600x800 is not 800x400: 'Continue anyway?' first (Escape keeps the file, Continue uploads).
    await chooseImage(page, 'wide.png', await png(1600, 800));
    await page.getByRole('button', { name: 'Upload image' }).click();
    const question = page.getByRole('dialog', { name: 'Continue anyway?' });
    await expect(question).toContainText('The image is 1600x800 pixels; the recommended size is 800x400.');
    await expect(question).toContainText('Recommended size is 800x400px for optimal display');
    await expectNoSeriousViolations(page, `${NEW} (Continue anyway?)`);
    await page.keyboard.press('Escape');
    await expect(question).toBeHidden();
    await expect(page).toHaveURL(NEW);
    await page.getByRole('button', { name: 'Upload image' }).click();
    await question.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Image uploaded.')).toBeVisible();
    // Done: the first upload, saved nowhere, is deleted.
    const firstDeleted = page.waitForResponse(
      (response) => response.request().method() === 'DELETE' && response.url().endsWith(first.split('/').pop()!),
    );
    await page.getByRole('button', { name: 'Done' }).click();
    expect((await firstDeleted).status()).toBe(204);
    await expect(image).toHaveAttribute('src', /-1600x800\.webp$/);
    const second = (await image.getAttribute('src'))!;

    // Saved with the post.
    const { title, content, save, notice } = fields(page);
    await title.fill(`Pictured ${unique}`);
    await content.fill('A post with a picture.');
    await save.click();
    await expect(notice).toHaveText('Post saved as a draft. Submit it for review to publish it.');
    expect((await myPost(api, `pictured-${unique}`))?.thumbnail).toBe(second);

    // Remove asks first; Cancel keeps it.
    await page.getByRole('button', { name: 'Remove image' }).click();
    const removal = page.getByRole('dialog', { name: 'Remove featured image?' });
    await expect(removal).toBeVisible();
    await expect(removal.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await removal.getByRole('button', { name: 'Cancel' }).click();
    await expect(image).toBeVisible();
    await page.getByRole('button', { name: 'Remove image' }).click();
    await removal.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('No featured image')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose image' })).toBeFocused();
    // The saved file goes only once a save no longer uses it.
    const secondDeleted = page.waitForResponse(
      (response) => response.request().method() === 'DELETE' && response.url().endsWith(second.split('/').pop()!),
    );
    await save.click();
    await expect(notice).toHaveText('Post saved as a draft. Submit it for review to publish it.');
    expect((await secondDeleted).status()).toBe(204);
    expect((await myPost(api, `pictured-${unique}`))?.thumbnail).toBeNull();
    await api.dispose();
  });

  test('Save Draft uploads a chosen image first (progress in the status line); when it cannot, nothing is saved and the notice says why', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    await openEditor(page, { signIn, hydrated });
    const { title, content, save, notice } = fields(page);
    const status = page.getByTestId('save-status');
    const slug = `chosen-${unique}`;
    await title.fill(`Chosen ${unique}`);
    await content.fill('Saved with the image chosen, never uploaded by hand.');

    // Chosen, not uploaded: Save Draft uploads it (held a moment to see the progress) and saves it.
    await chooseImage(page, 'chosen.png', await png(800, 400));
    await expect(page.getByRole('button', { name: 'Upload image' })).toBeVisible();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/images/thumbnail/upload', async (route: Route) => {
      await held;
      await route.continue();
    });
    await save.click();
    await expect(status).toHaveText(/^Uploading image… \d{1,3}%$/);
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
    release();
    await expect(notice).toHaveText('Post saved as a draft. Submit it for review to publish it.');
    const saved = (await myPost(api, slug))?.thumbnail;
    expect(saved).toMatch(/^\/images\/thumbnails\/[0-9a-f]{32}-800x400\.webp$/);
    await expect(page.getByRole('img', { name: 'Featured image' })).toHaveAttribute('src', saved!);
    await page.unroute('**/images/thumbnail/upload');

    // Not the recommended size: autosave waits for the writer; Save asks, and 'Cancel' saves nothing.
    await chooseImage(page, 'wide.png', await png(1600, 800));
    await expect(status).toHaveText('Not saved: upload or cancel the chosen image');
    await content.fill('Changed while the image waits.');
    await save.click();
    const question = page.getByRole('dialog', { name: 'Continue anyway?' });
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(notice).toHaveText('The chosen image was not uploaded at its current size.');
    await expect(notice.locator('..')).toContainText('Image not uploaded');
    await expect(notice.locator('..')).toContainText(
      'The post was not saved. Upload the chosen image again, or cancel it to save the post without it.',
    );
    expect((await myPost(api, slug))?.thumbnail).toBe(saved);

    // The upload fails: the same, with the failure's words; the chosen file stays for another try.
    await page.route('**/images/thumbnail/upload', (route: Route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, status: 500, message: 'Internal server error', data: null, errors: null }),
      }),
    );
    await chooseImage(page, 'again.png', await png(800, 400));
    await save.click();
    await expect(notice).toHaveText('Server error occurred. Please try again later.');
    await expect(notice.locator('..')).toContainText('Upload Failed');
    await expect(notice.locator('..')).toContainText('The post was not saved.');
    await expect(page.getByRole('button', { name: 'Try upload again' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit for review' })).toBeDisabled();
    expect((await myPost(api, slug))?.thumbnail).toBe(saved);
    await page.unroute('**/images/thumbnail/upload');
    await api.dispose();
  });

  test('editing a saved post: its info card, a newer local copy offered back, the save updates it', async ({
    page,
    playwright,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const api = await writerApi(baseURL!, playwright);
    const slug = `saved-${unique}`;
    // A tag of the post that is deactivated afterwards: shown, marked and warned about, not sent again.
    const admin = await adminApi(baseURL!, playwright);
    const fading = { name: `Fading ${unique}`, slug: `fading-${unique}` };
    const tagAnswer = await admin.post('/api/v1/blog/tags', { data: fading });
    expect(tagAnswer.status(), await tagAnswer.text()).toBe(201);
    const created = await api.post('/api/v1/blog/posts/author/create', {
      data: { title: `Saved ${unique}`, slug, summary: 'Kept.', content: 'Saved body.', tagSlugs: [activeTag.slug, fading.slug] },
    });
    expect(created.status(), await created.text()).toBe(201);
    const id = ((await created.json()).data as { id: number }).id;
    const deactivated = await admin.delete(`/api/v1/blog/tags/${((await tagAnswer.json()).data as { id: number }).id}/deactivate`);
    expect(deactivated.status(), await deactivated.text()).toBe(200);
    await admin.dispose();
    const edit = `/author/posts/${id}/edit`;
    await openEditor(page, { signIn, hydrated }, edit);
    const { title, slug: slugField, content, save, notice } = fields(page);
    await expect(title).toHaveValue(`Saved ${unique}`);
    await expect(slugField).toHaveValue(slug);
    await expect(page.getByRole('button', { name: `Remove tag ${activeTag.name}` })).toBeVisible();
    await expect(page.getByRole('button', { name: `Remove tag ${fading.name}` })).toBeVisible();
    await expect(page.getByTestId('inactive-tags-warning')).toHaveText(`Inactive tags are not saved with the post: ${fading.name}`);
    const info = page.getByTestId('post-info');
    await expect(info).toContainText(writer.fullName);
    await expect(info).toContainText('Views');
    await expect(info).toContainText(/Created\s*[A-Z][a-z]+ \d{1,2}, \d{4}/);
    await expect(info.getByRole('link', { name: 'Open saved preview' })).toHaveAttribute('href', `/author/posts/${id}/preview`);
    await expect(page.getByRole('button', { name: 'Submit for review' })).toBeEnabled();

    await content.fill('Edited body, not saved yet.');
    await expect.poll(() => stored(page, postKey(id))).toContain('Edited body');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await hydrated(page.getByTestId('post-editor'));
    await expect(content).toHaveValue('Saved body.');
    await page.getByRole('alertdialog', { name: 'Restore unsaved changes?' }).getByRole('button', { name: 'Restore' }).click();
    await expect(content).toHaveValue('Edited body, not saved yet.');
    await save.click();
    await expect(notice).toHaveText('Post saved as a draft. Submit it for review to publish it.');
    const answer = await api.get(`/api/v1/blog/posts/${id}`);
    expect((await answer.json()).data).toMatchObject({ content: 'Edited body, not saved yet.', tags: [{ slug: activeTag.slug }] });
    expect(await stored(page, postKey(id))).toBeNull();
    await api.dispose();
  });

  test('admin mode: status and Featured, the admin editor’s texts, a save goes to the list with the notice', async ({
    asAdmin: page,
    playwright,
    baseURL,
    hydrated,
  }) => {
    await page.goto('/admin/posts/new');
    await hydrated(page.getByTestId('post-editor'));
    const { title, content, notice } = fields(page);
    const status = page.getByLabel('Status', { exact: true });
    await expect(status.locator('option')).toHaveText(['Draft', 'Published', 'Archived']);
    await expect(page.getByRole('button', { name: 'Submit for review' })).toHaveCount(0);
    await page.keyboard.press('Control+s');
    await expect(notice).toHaveText('Please enter a title');
    await title.fill(`Admin ${unique}`);
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await expect(notice).toHaveText('Please enter content');
    await content.fill('Published by the admin.');
    await status.selectOption('PUBLISHED');
    await page.getByLabel('Featured post').check();
    await page.getByRole('button', { name: 'Save Post' }).click();
    await expect(page).toHaveURL(/\/admin\/posts(\?|$)/);
    const admin = await adminApi(baseURL!, playwright);
    const answer = await admin.get('/api/v1/blog/posts/public/' + `admin-${unique}`);
    expect(answer.status(), await answer.text()).toBe(200);
    expect((await answer.json()).data).toMatchObject({ title: `Admin ${unique}`, status: 'PUBLISHED', isFeatured: true });
    await admin.dispose();
  });

  test('axe: the editor light and dark, with its settings', async ({ page, signIn, hydrated }) => {
    await openEditor(page, { signIn, hydrated });
    await expectNoSeriousViolations(page, `${NEW} (light)`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await hydrated(page.getByTestId('post-editor'));
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
    await fields(page).title.fill('Dark mode');
    await page.getByRole('button', { name: `Add tag ${activeTag.name}` }).click();
    await expectNoSeriousViolations(page, `${NEW} (dark)`);
  });
});

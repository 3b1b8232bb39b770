import type { APIRequestContext, Page } from '@playwright/test';
import { ADMIN, expect, test } from './fixtures';
import { gzipSync } from 'node:zlib';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * The post page's islands (docs/requirements.md#screen-post, 'Comments section'): the Like button (live
 * count and state after hydration, optimistic toggle with rollback, the visitor's message) and
 * the comments section (write, reply, edit, delete with the deleted marker, pages of 10, nesting,
 * the visitor's login prompt), axe with the islands hydrated, and the page's JavaScript budget.
 * Readers are made through the API (sign-up, the mailed code, sign-in); posts as the seeded admin.
 */

const MAIL_CAPTURE_URL = process.env.MAIL_CAPTURE_URL;
const PASSWORD = 'Sup3r-Secret!';
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

interface Reader {
  email: string;
  password: string;
  fullName: string;
}

/** A verified reader (role USER), made through the API with the code from the captured e-mail. */
async function newReader(request: APIRequestContext, fullName: string): Promise<Reader> {
  if (!MAIL_CAPTURE_URL) throw new Error('MAIL_CAPTURE_URL is not set: run the browser tests with npm run test:browser');
  const email = `engage-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@inkwell.test`;
  const registered = await request.post('/api/v1/auth/register', {
    data: { fullName, email, password: PASSWORD, confirmPassword: PASSWORD },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${MAIL_CAPTURE_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as {
          subject: string;
          text: string;
        }[];
        const last = mails.filter((mail) => /verification code/i.test(mail.subject)).at(-1);
        code = last ? /\b(\d{6})\b/.exec(last.text)?.[1] : undefined;
        return code;
      },
      { message: `verification e-mail for ${email}`, timeout: 15_000 },
    )
    .toMatch(/^\d{6}$/);
  const verified = await request.post('/api/v1/auth/verify-email', { data: { email, verificationCode: code } });
  expect(verified.status(), await verified.text()).toBe(200);
  return { email, password: PASSWORD, fullName };
}

/** An API client with the reader's bearer token. */
function readerApi(
  baseURL: string,
  playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } },
  reader: Reader,
): Promise<APIRequestContext> {
  return apiAs(baseURL, playwright, reader.email, PASSWORD);
}

/** A published post of its own for each test (tests run in any order and in parallel). */
async function newPost(api: APIRequestContext, name: string): Promise<{ id: number; slug: string; title: string }> {
  const slug = `engage-${name}-${unique}`;
  const title = `Engagement ${name} ${unique}`;
  const created = await api.post('/api/v1/blog/posts', {
    data: { title, slug, summary: `A post for the ${name} journey.`, content: `Body of ${name}.`, status: 'PUBLISHED' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { id: ((await created.json()).data as { id: number }).id, slug, title };
}

async function addComment(api: APIRequestContext, postId: number, content: string, parentId?: number): Promise<number> {
  const created = await api.post('/api/v1/comments', { data: { postId, content, parentId: parentId ?? null } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()).data as { id: number }).id;
}

const likeButton = (page: Page) => page.getByRole('button', { name: /^Like \d/ });
const comments = (page: Page) => page.getByRole('list', { name: 'Comments' });
const commentBy = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text });

// A fresh admin client per test: one kept across tests may reuse a keep-alive socket the server
// has just closed (ECONNRESET).
let admin: APIRequestContext;
test.beforeEach(async ({ playwright, baseURL }) => {
  admin = await adminApi(baseURL!, playwright);
});
test.afterEach(async () => {
  await admin.dispose();
});

test('like and unlike: the count changes at once and stays after a reload', async ({ page, request, signIn, hydrated }) => {
  const post = await newPost(admin, 'like');
  const reader = await newReader(request, 'Lan Liker');
  await signIn(reader);
  await page.goto(`/blog/${post.slug}`);
  await hydrated('LikeButton');
  const like = likeButton(page);
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('like-count')).toHaveText('0');

  // The button answers at once; the reload waits for the server's answer (a reload cancels a request in flight).
  const saved = page.waitForResponse((response) => /\/api\/v1\/likes\/post\/\d+\/toggle$/.test(response.url()));
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('like-count')).toHaveText('1');
  await expect(like).toHaveClass(/rose/);
  await expect(page.locator('[data-live-like-count]')).toHaveText('1 like');
  expect((await saved).status()).toBe(200);

  await page.reload();
  await hydrated('LikeButton');
  await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('like-count')).toHaveText('1');

  // By keyboard this time.
  const unsaved = page.waitForResponse((response) => /\/api\/v1\/likes\/post\/\d+\/toggle$/.test(response.url()));
  await likeButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('like-count')).toHaveText('0');
  expect((await unsaved).status()).toBe(200);
  await page.reload();
  await hydrated('LikeButton');
  await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('like-count')).toHaveText('0');
});

test('a failed like puts the previous state back and says why', async ({ page, request, signIn, hydrated }) => {
  const post = await newPost(admin, 'rollback');
  const reader = await newReader(request, 'Rollback Reader');
  await signIn(reader);
  await page.goto(`/blog/${post.slug}`);
  await hydrated('LikeButton');
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/likes/post/*/toggle', async (route) => {
    await held;
    await route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, data: null, message: 'An unexpected error occurred', status: 500, errors: null }),
    });
  });
  await likeButton(page).click();
  // Optimistic: red with the new count before the server answers.
  await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('like-count')).toHaveText('1');
  release();
  await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('like-count')).toHaveText('0');
  await expect(page.getByRole('alert').filter({ hasText: 'An unexpected error occurred' })).toBeVisible();
});

test('a visitor sees the live like count, the login message on Like and the login prompt for comments', async ({
  page,
  playwright,
  baseURL,
  request,
  hydrated,
}) => {
  const post = await newPost(admin, 'visitor');
  const reader = await newReader(request, 'Visitor Check');
  // The anonymous page is cached first; a like after that is still shown, read after hydration.
  expect((await request.get(`/blog/${post.slug}`)).status()).toBe(200);
  const api = await readerApi(baseURL!, playwright, reader);
  expect((await api.post(`/api/v1/likes/post/${post.id}/toggle`)).status()).toBe(200);
  await addComment(api, post.id, `A reader was here ${unique}`);
  await api.dispose();

  const commentReads: string[] = [];
  page.on('request', (sent) => {
    if (sent.url().includes('/api/v1/comments/post/')) commentReads.push(sent.url());
  });
  await page.goto(`/blog/${post.slug}`);
  await hydrated('LikeButton');
  await expect(page.getByTestId('like-count')).toHaveText('1');
  await likeButton(page).click();
  await expect(page.getByText('Vui lòng đăng nhập để thích bài viết.')).toBeVisible();
  await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('like-count')).toHaveText('1');
  await expect(page.locator('[data-post-actions]').getByRole('link', { name: 'Log in' })).toHaveAttribute(
    'href',
    `/login?callback=${encodeURIComponent(`/blog/${post.slug}`)}`,
  );

  await hydrated('CommentSection');
  const section = page.locator('#comments');
  await expect(section.getByText('You need to log in to comment.')).toBeVisible();
  await expect(section.getByRole('link', { name: 'Log in' })).toHaveAttribute(
    'href',
    `/login?callback=${encodeURIComponent(`/blog/${post.slug}#comments`)}`,
  );
  await expect(section.getByRole('link', { name: 'register' })).toHaveAttribute('href', '/register');
  await expect(section.getByRole('textbox')).toHaveCount(0);
  await expect(commentBy(page, `A reader was here ${unique}`)).toBeVisible();
  await expect(commentBy(page, `A reader was here ${unique}`).getByRole('button')).toHaveCount(0);
  // A visitor's section takes the server's first page over and reads nothing (no reader to read it for).
  expect(commentReads).toEqual([]);
});

test('write, reply, edit and delete comments; a deleted comment with replies keeps its place', async ({
  page,
  request,
  signIn,
  hydrated,
}) => {
  const post = await newPost(admin, 'comments');
  const reader = await newReader(request, 'Minh Commenter');
  await signIn(reader);
  await page.goto(`/blog/${post.slug}`);
  await hydrated('CommentSection');
  await expect(page.getByRole('heading', { level: 2, name: 'Comments (0)' })).toBeVisible();

  const box = page.getByLabel('Write a comment');
  await page.getByRole('button', { name: 'Post Comment' }).click();
  await expect(page.getByText('Comment content cannot be empty')).toBeVisible();
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await box.fill('x'.repeat(180));
  await expect(page.getByTestId('comment-counter')).toHaveText(/^180\/200/);
  await expect(page.getByTestId('comment-counter')).not.toHaveClass(/text-red/);
  await box.fill('x'.repeat(181));
  await expect(page.getByTestId('comment-counter')).toHaveClass(/text-red/);
  await box.fill('y'.repeat(250));
  await expect(box).toHaveValue('y'.repeat(200));
  // Characters, not UTF-16 units: 101 emoji are 101 of the 200.
  await box.fill('😀'.repeat(101));
  await expect(page.getByTestId('comment-counter')).toHaveText(/^101\/200/);
  await expect(box).toHaveValue('😀'.repeat(101));

  // Text, never HTML.
  const first = `First thoughts <b>not bold</b> ${unique}`;
  await box.fill(first);
  await page.getByRole('button', { name: 'Post Comment' }).click();
  await expect(page.getByText('Comment has been added.')).toBeVisible();
  await expect(box).toHaveValue('');
  await expect(commentBy(page, first)).toBeVisible();
  await expect(page.locator('#comments b')).toHaveCount(0);
  await expect(commentBy(page, first).getByText('Just now')).toBeVisible();
  await expect(commentBy(page, first).getByText('Minh Commenter', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Comments (1)' })).toBeVisible();

  // Reply, by keyboard.
  await commentBy(page, first).getByRole('button', { name: 'Reply to Minh Commenter' }).click();
  const replyBox = page.getByLabel('Reply to Minh Commenter');
  await expect(replyBox).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(replyBox).toHaveCount(0);
  await expect(commentBy(page, first).getByRole('button', { name: 'Reply to Minh Commenter' })).toBeFocused();
  await page.keyboard.press('Enter');
  await replyBox.fill(`A reply ${unique}`);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Reply has been added.')).toBeVisible();
  const reply = page
    .locator('[data-replies-of]')
    .getByRole('article')
    .filter({ hasText: `A reply ${unique}` });
  await expect(reply).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Comments (2)' })).toBeVisible();
  await expect(commentBy(page, first).getByText('(edited)')).toHaveCount(0);

  // Edit.
  await commentBy(page, first).getByRole('button', { name: 'Edit your comment' }).click();
  const editBox = page.getByLabel('Edit your comment');
  await editBox.fill(`Second thoughts ${unique}`);
  await page.getByRole('button', { name: 'Save Comment' }).click();
  await expect(page.getByText('Comment has been updated.')).toBeVisible();
  const edited = commentBy(page, `Second thoughts ${unique}`).first();
  await expect(edited.getByText('(edited)')).toBeVisible();

  await page.reload();
  await hydrated('CommentSection');
  await expect(commentBy(page, `Second thoughts ${unique}`).first().getByText('(edited)')).toBeVisible();
  await expect(page.locator('[data-replies-of]').getByText(`A reply ${unique}`)).toBeVisible();

  // Delete the comment that has a reply: the marker stays, in italics, with no Reply button.
  page.once('dialog', (dialog) => void dialog.accept());
  await commentBy(page, `Second thoughts ${unique}`)
    .first()
    .getByRole('button', { name: /^Delete/ })
    .first()
    .click();
  await expect(page.getByText('Comment has been deleted.')).toBeVisible();
  const marker = page.getByText('[This comment has been deleted]');
  await expect(marker).toBeVisible();
  await expect(marker).toHaveClass(/italic/);
  await expect(page.getByText(`Second thoughts ${unique}`)).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2, name: 'Comments (1)' })).toBeVisible();
  const placeholder = page.locator('li').filter({ has: marker }).first().getByRole('article').first();
  await expect(placeholder.getByRole('button')).toHaveCount(0);
  await page.reload();
  await hydrated('CommentSection');
  await expect(page.getByText('[This comment has been deleted]')).toBeVisible();
  await expect(page.getByText(`A reply ${unique}`)).toBeVisible();

  // Deleting the last reply takes the placeholder with it.
  page.once('dialog', (dialog) => void dialog.accept());
  await commentBy(page, `A reply ${unique}`)
    .getByRole('button', { name: /^Delete/ })
    .click();
  await expect(page.getByText('[This comment has been deleted]')).toHaveCount(0);
  await expect(comments(page)).toHaveCount(0);
  await page.reload();
  await hydrated('CommentSection');
  await expect(page.getByText('[This comment has been deleted]')).toHaveCount(0);
  await expect(page.getByText(`A reply ${unique}`)).toHaveCount(0);
});

test("an administrator deletes another reader's comment but cannot edit it; readers cannot touch others' comments", async ({
  page,
  playwright,
  baseURL,
  request,
  signIn,
  hydrated,
}) => {
  const post = await newPost(admin, 'moderation');
  const author = await newReader(request, 'Quang Poster');
  const other = await newReader(request, 'Hoa Other');
  const api = await readerApi(baseURL!, playwright, author);
  await addComment(api, post.id, `Moderate me ${unique}`);
  await api.dispose();

  await signIn(other);
  await page.goto(`/blog/${post.slug}`);
  await hydrated('CommentSection');
  const target = commentBy(page, `Moderate me ${unique}`);
  await expect(target.getByRole('button', { name: 'Reply to Quang Poster' })).toBeVisible();
  await expect(target.getByRole('button', { name: /^Edit/ })).toHaveCount(0);
  await expect(target.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  await page.context().clearCookies();
  await signIn(ADMIN);
  await page.goto(`/blog/${post.slug}`);
  await hydrated('CommentSection');
  await expect(target.getByRole('button', { name: /^Edit/ })).toHaveCount(0);
  page.once('dialog', (dialog) => void dialog.accept());
  await target.getByRole('button', { name: 'Delete comment by Quang Poster' }).click();
  await expect(page.getByText('Comment has been deleted.')).toBeVisible();
  await expect(page.getByText(`Moderate me ${unique}`)).toHaveCount(0);
});

test('pages of 10 with Load More Comments; replies nest, indented at most 2 levels of 24 px', async ({
  page,
  playwright,
  baseURL,
  request,
  signIn,
  hydrated,
}) => {
  const post = await newPost(admin, 'paging');
  const reader = await newReader(request, 'Tuan Pager');
  const api = await readerApi(baseURL!, playwright, reader);
  for (let i = 1; i <= 12; i++) await addComment(api, post.id, `Paged comment ${i} ${unique}`);
  const newest = 12;
  const top = await addComment(api, post.id, `Thread root ${unique}`);
  const level1 = await addComment(api, post.id, `Level one ${unique}`, top);
  const level2 = await addComment(api, post.id, `Level two ${unique}`, level1);
  await addComment(api, post.id, `Level three ${unique}`, level2);
  await api.dispose();

  await signIn(reader);
  const commentReads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/comments/post/')) commentReads.push(request.url());
  });
  await page.goto(`/blog/${post.slug}`);
  // The first page reaches the page once, as HTML: the section's props hold no comment's text.
  const island = page.locator('astro-island[component-url*="CommentSection"]');
  expect(await island.getAttribute('props')).not.toContain('Paged comment');
  await hydrated('CommentSection');
  const topLevel = comments(page).locator(':scope > li');
  await expect(topLevel).toHaveCount(10);
  await expect(page.getByText(`Paged comment ${newest} ${unique}`)).toBeVisible();
  // Hydrated, the section takes the server's list over (its static slot is gone). The cached page
  // is everyone's, so once the personal fragment has named the reader, the first page is read
  // once more for them (their own held comments): one read, of page 0, and no other.
  await expect(island.locator('astro-slot')).toHaveCount(0);
  await expect.poll(() => commentReads.length).toBe(1);
  expect(new URL(commentReads[0]).searchParams.get('page')).toBe('0');
  await page.getByRole('button', { name: 'Load More Comments' }).click();
  await expect(topLevel).toHaveCount(13);
  await expect(page.getByRole('button', { name: 'Load More Comments' })).toHaveCount(0);

  const left = async (text: string) => (await commentBy(page, text).last().boundingBox())!.x;
  const x0 = await left(`Thread root ${unique}`);
  const x1 = await left(`Level one ${unique}`);
  const x2 = await left(`Level two ${unique}`);
  const x3 = await left(`Level three ${unique}`);
  expect(Math.round(x1 - x0)).toBe(24);
  expect(Math.round(x2 - x1)).toBe(24);
  expect(Math.round(x3 - x2)).toBe(0);
  // Level 3 is the deepest: it offers no Reply (one would sit beside it); its parent's Reply goes to level 3.
  await expect(commentBy(page, `Level three ${unique}`).getByRole('button', { name: /^Reply/ })).toHaveCount(0);
  await commentBy(page, `Level two ${unique}`).getByRole('button', { name: 'Reply to Tuan Pager' }).click();
  await page.getByLabel('Reply to Tuan Pager').fill(`Level three again ${unique}`);
  await page.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(page.getByText('Reply has been added.')).toBeVisible();
  expect(Math.round((await left(`Level three again ${unique}`)) - x3)).toBe(0);
  await page.reload();
  await hydrated('CommentSection');
  await expect(commentBy(page, `Level three again ${unique}`)).toBeVisible();
  expect(Math.round((await left(`Level three again ${unique}`)) - (await left(`Level three ${unique}`)))).toBe(0);
});

test('a failed refresh says so over the list, which stays; the next refresh reads the comments', async ({
  page,
  playwright,
  baseURL,
  request,
  hydrated,
}) => {
  const post = await newPost(admin, 'loadfail');
  let fail = true;
  await page.route('**/api/v1/comments/post/**', (route) => (fail ? route.abort() : route.fallback()));
  await page.goto(`/blog/${post.slug}`);
  await hydrated('CommentSection');
  // The first page came with the page (rendered by the server): nothing to read yet.
  await expect(page.getByText('No comments yet. Be the first to share your thoughts.')).toBeVisible();
  const api = await readerApi(baseURL!, playwright, await newReader(request, 'Refresh Reader'));
  await addComment(api, post.id, `Written meanwhile ${unique}`);
  await api.dispose();
  await page.locator('#comments').getByRole('button', { name: 'Refresh comments' }).click();
  await expect(page.locator('#comments').getByRole('alert').first()).toContainText('Unable to refresh comments.');
  await expect(page.getByText('No comments yet. Be the first to share your thoughts.')).toBeVisible();
  fail = false;
  await page.locator('#comments').getByRole('button', { name: 'Refresh comments' }).click();
  await expect(commentBy(page, `Written meanwhile ${unique}`)).toBeVisible();
});

test("a crash of the section shows 'Comment System Error'; Try Again mounts it anew", async ({ page, hydrated }) => {
  const post = await newPost(admin, 'crash');
  // An answer the section cannot draw (replies must be a list): the error boundary takes over.
  const broken = {
    id: 1,
    postId: post.id,
    parentId: null,
    content: 'broken',
    author: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    level: 0,
    deleted: false,
    replyCount: 1,
    replies: null,
  };
  await page.route('**/api/v1/comments/post/**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        success: true,
        status: 200,
        message: 'OK',
        errors: null,
        data: { content: [broken], last: true, first: true, totalPages: 1, totalElements: 1 },
      }),
    }),
  );
  await page.goto(`/blog/${post.slug}`);
  await hydrated('CommentSection');
  await page.locator('#comments').getByRole('button', { name: 'Refresh comments' }).click();
  const failure = page.locator('#comments').getByRole('alert');
  await expect(failure.getByRole('heading', { name: 'Comment System Error' })).toBeVisible();
  await expect(failure.getByRole('button', { name: 'Reload Page' })).toBeVisible();
  await page.unroute('**/api/v1/comments/post/**');
  await failure.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByText('No comments yet. Be the first to share your thoughts.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Comments (0)' })).toBeVisible();
});

for (const who of ['visitor', 'signed in'] as const) {
  test(`the post page loads at most 100 KB of gzipped JavaScript, none of it render-blocking (${who})`, async ({
    page,
    request,
    baseURL,
    signIn,
    hydrated,
  }) => {
    const post = await newPost(admin, `budget-${who.replace(' ', '-')}`);
    if (who === 'signed in') await signIn(await newReader(request, 'Budget Reader'));
    const scripts = new Set<string>();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(request.url());
    });
    await page.goto(`/blog/${post.slug}`);
    await hydrated('LikeButton');
    await hydrated('CommentSection');
    await page.waitForLoadState('networkidle');
    let total = 0;
    for (const url of scripts) {
      expect(url.startsWith(baseURL!), url).toBe(true);
      total += gzipSync(await (await request.get(url)).body()).length;
    }
    expect(scripts.size).toBeGreaterThan(0);
    console.log(`post page JavaScript (${who}): ${(total / 1024).toFixed(1)} KB gzipped in ${scripts.size} files`);
    expect(total, `${(total / 1024).toFixed(1)} KB gzipped in ${scripts.size} files`).toBeLessThanOrEqual(100 * 1024);
    const head = await page.locator('head script[src]:not([async]):not([defer]):not([type="module"])').count();
    expect(head).toBe(0);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe with the islands hydrated, ${theme} theme`, () => {
    test.use({ colorScheme: theme });
    // Each theme writes its own texts: the same text again within HOLD_DUPLICATE_MINUTES would be held.

    test('visitor', async ({ page, hydrated }) => {
      const post = await newPost(admin, `axe-visitor-${theme}`);
      await addComment(admin, post.id, `An admin comment ${theme} ${unique}`);
      await page.goto(`/blog/${post.slug}`);
      await hydrated('LikeButton');
      await likeButton(page).click();
      await expect(page.getByText('Vui lòng đăng nhập để thích bài viết.')).toBeVisible();
      await hydrated('CommentSection');
      await expect(commentBy(page, `An admin comment ${theme} ${unique}`)).toBeVisible();
      await expectNoSeriousViolations(page, `/blog/{post} with islands (visitor, ${theme})`);
    });

    test('signed in, liked, a thread with a deleted comment and a reply form open', async ({ page, request, signIn, hydrated }) => {
      const post = await newPost(admin, `axe-reader-${theme}`);
      const root = await addComment(admin, post.id, `Root ${theme} ${unique}`);
      const child = await addComment(admin, post.id, `Child ${theme} ${unique}`, root);
      await addComment(admin, post.id, `Grandchild ${theme} ${unique}`, child);
      expect((await admin.delete(`/api/v1/comments/${root}`)).status()).toBe(204);
      const reader = await newReader(request, 'Axe Reader');
      await signIn(reader);
      await page.goto(`/blog/${post.slug}`);
      await hydrated('LikeButton');
      await likeButton(page).click();
      await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true');
      await hydrated('CommentSection');
      await expect(page.getByText('[This comment has been deleted]')).toBeVisible();
      await page.getByLabel('Write a comment').fill('z'.repeat(190));
      await commentBy(page, `Child ${theme} ${unique}`)
        .first()
        .getByRole('button', { name: /^Reply/ })
        .click();
      await page.getByRole('button', { name: 'Post Comment' }).focus();
      await expectNoSeriousViolations(page, `/blog/{post} with islands (signed in, ${theme})`);
    });
  });
}

import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * The reader's own pages (docs/requirements.md#screen-liked-posts): /liked-posts, /my-comments, /dashboard, /user-dashboard
 * and the signed-in home. Readers sign up through the API (the code comes from the captured
 * e-mail), like and comment through the API, then read their pages in the browser.
 *
 * Data: 3 published posts titled Alpha/Bravo/Charlie; reader "Lan" likes all three (Alpha
 * first, Charlie last) and writes 2 comments on Alpha (a comment and a reply to it); reader
 * "Minh" likes 51 posts (the pager: 11 pages of 5) and writes 6 comments (the dashboard's
 * 'Load More Comments'); a fresh reader sees the empty states.
 */

const MAIL_CAPTURE_URL = process.env.MAIL_CAPTURE_URL;
const PASSWORD = 'Sup3r-Secret!';
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

interface CreatedPost {
  id: number;
  slug: string;
  title: string;
}

const titles = ['Alpha', 'Bravo', 'Charlie'].map((word) => `${word} reader story ${unique}`);
const posts: CreatedPost[] = [];
const lan = { fullName: 'Lan Reader', email: `lan-${unique}@inkwell.test` };
const minh = { fullName: 'Minh Pager', email: `minh-${unique}@inkwell.test` };
const comments: { root?: number; reply?: number } = {};
const ROOT_TEXT = `A thoughtful comment from Lan ${unique}`;
const REPLY_TEXT = `And a reply to it ${unique}`;

/** Waits for the verification e-mail sent to `email` and returns its 6-digit code. */
async function verificationCode(email: string): Promise<string> {
  if (!MAIL_CAPTURE_URL) throw new Error('MAIL_CAPTURE_URL is not set: run the browser tests with npm run test:browser');
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${MAIL_CAPTURE_URL}/messages?to=${encodeURIComponent(email)}`);
        const mails = (await response.json()) as { subject: string; text: string }[];
        const last = mails.filter((mail) => /verification code/i.test(mail.subject)).at(-1);
        code = last ? /\b(\d{6})\b/.exec(last.text)?.[1] : undefined;
        return code;
      },
      { message: `verification e-mail for ${email}`, timeout: 15_000 },
    )
    .toMatch(/^\d{6}$/);
  return code as string;
}

/** A verified reader account, made through the API. */
async function signUp(request: APIRequestContext, reader: { fullName: string; email: string }): Promise<void> {
  const registered = await request.post('/api/v1/auth/register', { data: { ...reader, password: PASSWORD, confirmPassword: PASSWORD } });
  expect(registered.status(), await registered.text()).toBe(201);
  const verified = await request.post('/api/v1/auth/verify-email', {
    data: { email: reader.email, verificationCode: await verificationCode(reader.email) },
  });
  expect(verified.status(), await verified.text()).toBe(200);
}

async function publish(admin: APIRequestContext, title: string, slug: string): Promise<CreatedPost> {
  const created = await admin.post('/api/v1/blog/posts', {
    data: { title, slug, summary: `Summary of ${title}.`, content: 'Text.', status: 'PUBLISHED' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()).data as { id: number };
  return { id, slug, title };
}

async function like(api: APIRequestContext, postId: number): Promise<void> {
  const liked = await api.post(`/api/v1/likes/post/${postId}`);
  expect(liked.status(), await liked.text()).toBe(200);
}

test.beforeAll(async ({ playwright, baseURL, request }) => {
  test.setTimeout(120_000);
  const admin = await adminApi(baseURL!, playwright);
  for (const [index, title] of titles.entries()) posts.push(await publish(admin, title, `reader-${'abc'[index]}-${unique}`));
  const extra: CreatedPost[] = [];
  for (let index = 0; index < 48; index++)
    extra.push(await publish(admin, `Pager story ${index + 1} ${unique}`, `pager-${index + 1}-${unique}`));
  await admin.dispose();

  await signUp(request, lan);
  await signUp(request, minh);

  const lanApi = await apiAs(baseURL!, playwright, lan.email, PASSWORD);
  for (const post of posts) await like(lanApi, post.id);
  const root = await lanApi.post('/api/v1/comments', { data: { postId: posts[0].id, content: ROOT_TEXT } });
  expect(root.status(), await root.text()).toBe(201);
  comments.root = ((await root.json()).data as { id: number }).id;
  const reply = await lanApi.post('/api/v1/comments', { data: { postId: posts[0].id, content: REPLY_TEXT, parentId: comments.root } });
  expect(reply.status(), await reply.text()).toBe(201);
  comments.reply = ((await reply.json()).data as { id: number }).id;
  await lanApi.dispose();

  const minhApi = await apiAs(baseURL!, playwright, minh.email, PASSWORD);
  for (const post of [...posts, ...extra]) await like(minhApi, post.id);
  for (let index = 1; index <= 6; index++) {
    const comment = await minhApi.post('/api/v1/comments', { data: { postId: extra[0].id, content: `Minh's comment ${index} ${unique}` } });
    expect(comment.status(), await comment.text()).toBe(201);
  }
  await minhApi.dispose();
});

test.describe('reader pages', () => {
  test('/liked-posts lists the liked posts, newest first, and sorts by post title', async ({ page, signIn }) => {
    await signIn({ email: lan.email, password: PASSWORD });
    const response = await page.goto('/liked-posts');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Liked Posts');
    await expect(page.getByTestId('liked-total')).toHaveText('3 liked posts');
    const cards = page.locator('[data-liked-post] h2');
    await expect(cards).toHaveText([titles[2], titles[1], titles[0]]);
    await expect(page.locator('[data-liked-post]').first().getByRole('link', { name: titles[2], exact: true })).toHaveAttribute(
      'href',
      `/blog/${posts[2].slug}`,
    );
    await expect(page.locator('[data-liked-post]').first()).toContainText('5 min read');
    // Three posts fit on one page: no pager.
    await expect(page.getByRole('navigation', { name: 'Liked posts pages' })).toHaveCount(0);

    await page.getByLabel('Sort by').selectOption({ label: 'Post title' });
    await page.getByLabel('Direction').selectOption({ label: 'Ascending' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/sortBy=postTitle/);
    await expect(page).toHaveURL(/sortDirection=asc/);
    await expect(cards).toHaveText(titles);
    await expect(page.getByLabel('Sort by')).toHaveValue('postTitle');
    await expect(page.getByLabel('Posts per page')).toHaveValue('12');

    const refresh = page.getByRole('link', { name: 'Refresh' });
    await expect(refresh).toHaveAttribute('href', /\/liked-posts\?.*sortBy=postTitle/);
  });

  test('/liked-posts pages through 51 likes: 5-button window, jump box above 10 pages, page sizes', async ({ page, signIn }) => {
    await signIn({ email: minh.email, password: PASSWORD });
    await page.goto('/liked-posts?size=5');
    await expect(page.getByTestId('liked-total')).toHaveText('51 liked posts');
    await expect(page.locator('[data-liked-post]')).toHaveCount(5);
    const pager = page.getByRole('navigation', { name: 'Liked posts pages' });
    await expect(pager).toContainText('Page 1 of 11');
    await expect(pager.getByRole('link', { name: /^Page \d+$/ })).toHaveText(['1', '2', '3', '4', '5']);
    await expect(pager.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    await pager.getByRole('link', { name: 'Page 4' }).click();
    await expect(page).toHaveURL(/page=4/);
    await expect(pager.getByRole('link', { name: /^Page \d+$/ })).toHaveText(['2', '3', '4', '5', '6']);
    await expect(pager.getByRole('link', { name: 'Previous' })).toBeVisible();

    const jump = pager.getByLabel('Go to page');
    await expect(jump).toHaveAttribute('max', '11');
    await jump.fill('11');
    await jump.press('Enter');
    await expect(page).toHaveURL(/page=11/);
    await expect(page).toHaveURL(/size=5/);
    await expect(page.locator('[data-liked-post]')).toHaveCount(1);
    await expect(pager.getByRole('link', { name: /^Page \d+$/ })).toHaveText(['7', '8', '9', '10', '11']);
    await expect(pager.getByText('Next')).toHaveAttribute('aria-disabled', 'true');
    // The browser refuses a page outside 1..11 in the box; a typed address past the end shows the last page.
    await jump.fill('12');
    expect(await jump.evaluate((input: HTMLInputElement) => input.checkValidity())).toBe(false);
    await page.goto('/liked-posts?size=5&page=99');
    await expect(page).toHaveURL(/page=11/);
    await expect(pager.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '/liked-posts?size=5&page=10');
    // One ?page convention (lib/paging): 1-based, none on the first page; any other spelling is a 301 to it.
    const moved: [string, string][] = [
      ['/liked-posts?size=5&page=1', '/liked-posts?size=5'],
      ['/liked-posts?page=0', '/liked-posts'],
      ['/liked-posts?page=03&size=5', '/liked-posts?size=5&page=3'],
      ['/my-comments?sort=oldest&page=first', '/my-comments?sort=oldest'],
    ];
    for (const [from, to] of moved) {
      const response = await page.request.get(from, { maxRedirects: 0 });
      expect(response.status(), from).toBe(301);
      expect(response.headers().location, from).toBe(to);
    }

    // 12 a page (the default): 5 pages, no jump box.
    await page.goto('/liked-posts');
    await expect(page.locator('[data-liked-post]')).toHaveCount(12);
    await expect(pager).toContainText('Page 1 of 5');
    await expect(pager.getByLabel('Go to page')).toHaveCount(0);
  });

  test('/my-comments lists the comments with their posts, the reply marker and the article links', async ({ page, signIn }) => {
    await signIn({ email: lan.email, password: PASSWORD });
    const response = await page.goto('/my-comments');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My Comments List');
    await expect(page.getByRole('heading', { name: 'Display Options' })).toBeVisible();
    await expect(page.getByLabel('Comments per page')).toHaveValue('20');
    await expect(page.getByLabel('Sort by')).toHaveValue('newest');
    const widget = page.getByTestId('my-comments-widget');
    await expect(widget.getByRole('heading', { name: 'My Comments' })).toBeVisible();
    await expect(page.getByTestId('my-comments-count')).toHaveText('2 comments');
    const items = widget.locator('[data-comment-item]');
    await expect(items).toHaveCount(2);
    // Newest first: the reply, with its marker.
    await expect(items.nth(0)).toContainText(REPLY_TEXT);
    await expect(items.nth(0)).toContainText('↳ Reply to comment');
    await expect(items.nth(1)).toContainText(ROOT_TEXT);
    await expect(items.nth(1)).not.toContainText('↳ Reply to comment');
    await expect(items.nth(1).getByRole('link', { name: titles[0], exact: true })).toHaveAttribute('href', `/blog/${posts[0].slug}`);
    await expect(items.nth(1).getByRole('link', { name: /View in article/ })).toHaveAttribute(
      'href',
      `/blog/${posts[0].slug}#comment-${comments.root}`,
    );

    await page.getByLabel('Sort by').selectOption('oldest');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/sort=oldest/);
    await expect(items.nth(0)).toContainText(ROOT_TEXT);

    await page.goto('/my-comments?size=5');
    await expect(page.getByLabel('Comments per page')).toHaveValue('5');
  });

  test("/dashboard and /user-dashboard show the reader's numbers, recent activity and member card", async ({ page, signIn }) => {
    await signIn({ email: lan.email, password: PASSWORD });
    for (const path of ['/dashboard', '/user-dashboard']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, ${lan.fullName}`);
      await expect(page.locator('[data-stat="total-likes"] [data-value]')).toHaveText('3');
      await expect(page.locator('[data-stat="total-comments"] [data-value]')).toHaveText('2');
      await expect(page.locator('[data-stat="posts-liked"] [data-value]')).toHaveText('3');
      await expect(page.locator('[data-stat="recent-count"] [data-value]')).toHaveText('5');
      await expect(page.locator('[data-stat="total-likes"]')).toContainText('Tổng lượt thích');
      const activity = page.getByTestId('recent-activity').getByRole('listitem');
      await expect(activity).toHaveCount(5);
      await expect(activity.filter({ hasText: 'Đã thích' })).toHaveCount(3);
      await expect(activity.filter({ hasText: 'Đã bình luận' })).toHaveCount(2);
      const today = new Intl.DateTimeFormat('vi-VN', {
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        timeZone: 'Asia/Ho_Chi_Minh',
      }).format(new Date());
      const member = page.getByTestId('member-info');
      const value = (label: string) =>
        member
          .locator('div')
          .filter({ has: page.getByText(label, { exact: true }) })
          .locator('dd');
      await expect(value('Thành viên từ')).toHaveText(today);
      await expect(value('Tên hiển thị')).toHaveText(lan.fullName);
      await expect(value('Bài viết đã bình luận')).toHaveText('1');
      // 3 likes and 2 comments in the first week: 3,0 and 2,0 a week (one decimal, Vietnamese).
      await expect(value('Lượt thích trung bình mỗi tuần')).toHaveText('3,0');
      await expect(value('Bình luận trung bình mỗi tuần')).toHaveText('2,0');
      for (const [name, href] of [
        ['Bài viết yêu thích', '/liked-posts'],
        ['Khám phá bài viết', '/blog'],
        ['Tài khoản của tôi', '/account'],
        ['Bảng điều khiển', '/dashboard'],
      ]) {
        await expect(page.getByRole('main').getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
      }
      // The widgets: favorite posts (newest first) and the comment list with View All.
      await expect(page.getByTestId('favorite-posts').getByRole('listitem')).toHaveText([
        new RegExp(titles[2]),
        new RegExp(titles[1]),
        new RegExp(titles[0]),
      ]);
      await expect(page.getByTestId('my-comments-count')).toHaveText('2 comments');
      await expect(page.getByTestId('my-comments-widget').getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/my-comments');
    }
  });

  test("the dashboard's comment list loads more comments in place, and without JavaScript by its link", async ({
    page,
    signIn,
    hydrated,
  }) => {
    await signIn({ email: minh.email, password: PASSWORD });
    await page.goto('/dashboard');
    const widget = page.getByTestId('my-comments-widget');
    await expect(page.getByTestId('my-comments-count')).toHaveText('6 comments');
    await expect(widget.locator('[data-comment-item]')).toHaveCount(5);
    // client:visible: it hydrates once scrolled into view (hydrated scrolls to it).
    await hydrated('LoadMoreComments');
    await widget.getByRole('link', { name: 'Load More Comments' }).click();
    await expect(widget.locator('[data-comment-item]')).toHaveCount(6);
    await expect(widget.getByRole('link', { name: 'Load More Comments' })).toHaveCount(0);
    await expect(page).toHaveURL('/dashboard');
    // The link itself is the page with more comments.
    await page.goto('/dashboard?comments=2');
    await expect(widget.locator('[data-comment-item]')).toHaveCount(6);
  });

  test('the signed-in home greets the reader with recent likes and comments', async ({ page, signIn }) => {
    await signIn({ email: lan.email, password: PASSWORD });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, ${lan.fullName}`);
    const likes = page.getByTestId('recent-likes');
    await expect(likes.getByRole('listitem')).toHaveCount(3);
    await expect(likes.getByRole('link', { name: titles[2] })).toHaveAttribute('href', `/blog/${posts[2].slug}`);
    const recent = page.getByTestId('recent-comments');
    await expect(recent.getByRole('listitem')).toHaveCount(2);
    await expect(recent.getByRole('listitem').nth(0)).toContainText(REPLY_TEXT);
    await expect(recent.getByRole('listitem').nth(0)).toContainText('Reply');
    await expect(recent.getByRole('listitem').nth(1)).toContainText('1 reply');
    await expect(recent.getByRole('link', { name: titles[0] }).first()).toHaveAttribute('href', `/blog/${posts[0].slug}#comments`);
    // The anonymous home keeps its hero.
    await page.context().clearCookies();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stories worth reading, from writers worth following');
  });

  test('without a session the pages send the visitor to /login and back after signing in; a new reader sees the empty states', async ({
    page,
    request,
  }) => {
    for (const path of ['/liked-posts', '/my-comments', '/dashboard', '/user-dashboard', '/liked-posts?sortBy=postTitle&page=2']) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers().location, path).toBe(`/login?callback=${encodeURIComponent(path)}`);
    }
    const fresh = { fullName: 'Hoa Newcomer', email: `hoa-${unique}@inkwell.test` };
    await signUp(request, fresh);
    await page.goto('/liked-posts');
    await expect(page).toHaveURL(`/login?callback=${encodeURIComponent('/liked-posts')}`);
    await page.getByLabel('Email', { exact: true }).fill(fresh.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL('/liked-posts');
    await expect(page.getByText('No favorite posts yet')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Explore posts' })).toHaveAttribute('href', '/blog');

    await page.goto('/my-comments');
    await expect(page.getByText('No comments yet')).toBeVisible();
    await expect(page.getByText("You haven't posted any comments on articles yet.")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse Articles' })).toHaveAttribute('href', '/blog');

    await page.goto('/dashboard');
    await expect(page.locator('[data-stat="total-likes"] [data-value]')).toHaveText('0');
    await expect(page.getByText('Chưa có hoạt động nào trong 7 ngày qua.')).toBeVisible();

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, ${fresh.fullName}`);
    await expect(page.getByTestId('recent-likes').getByRole('link', { name: 'Explore posts' })).toHaveAttribute('href', '/blog');
    await expect(page.getByTestId('recent-comments').getByRole('link', { name: 'Explore posts' })).toHaveAttribute('href', '/blog');
  });
});

for (const theme of ['light', 'dark'] as const) {
  test.describe(`reader pages with data, axe (${theme})`, () => {
    test.use({ colorScheme: theme });
    for (const path of ['/liked-posts', '/liked-posts?size=5&page=6', '/my-comments', '/dashboard', '/user-dashboard', '/']) {
      test(`${path} (${theme})`, async ({ page, signIn }) => {
        await signIn({ email: path.includes('size=5') ? minh.email : lan.email, password: PASSWORD });
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        await expectNoSeriousViolations(page, `${path} signed in as a reader (${theme})`);
      });
    }
  });
}

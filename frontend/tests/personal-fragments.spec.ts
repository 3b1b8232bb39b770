import type { Browser, BrowserContext, Page, Response } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * Public pages from one cache for everyone. Two readers with different names,
 * e-mails, avatars, likes and roles load every public page: each sees their own account parts
 * (from the personal fragment), never the other's, and the page itself (the bytes the page cache
 * serves) is the same for both and for a visitor. Nothing of theirs is in any response a shared
 * cache may keep. Filling the post page's personal parts shifts nothing (CLS 0) at 1280 and 390 px,
 * and without JavaScript the header's Login link takes a signed-in reader to their dashboard.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Personal-Parts-2026!';
const tag = { name: `Personal ${unique}`, slug: `personal-${unique}` };

interface Reader {
  fullName: string;
  email: string;
  role: 'AUTHOR' | 'USER';
  /** The role badge the header shows. */
  badge: string;
  avatar?: string;
}
const readers: Reader[] = [
  { fullName: `Annika Fragmentsson ${unique}`, email: `annika-${unique}@inkwell.test`, role: 'AUTHOR', badge: 'Author' },
  { fullName: `Bartholomew Cachefree ${unique}`, email: `bart-${unique}@inkwell.test`, role: 'USER', badge: 'User' },
];
let post = { id: 0, slug: '' };
let authorSlug = '';

test.beforeAll(async ({ playwright, baseURL }) => {
  const admin = await adminApi(baseURL!, playwright);
  try {
    expect((await admin.post('/api/v1/blog/tags', { data: tag })).status()).toBe(201);
    const created = await admin.post('/api/v1/blog/posts', {
      data: {
        title: `One page for everyone ${unique}`,
        slug: `personal-${unique}`,
        summary: 'A post both readers load.',
        content: 'Read by two people.',
        status: 'PUBLISHED',
        tagSlugs: [tag.slug],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    post = (await created.json()).data as { id: number; slug: string };
    const authors = ((await (await admin.get('/api/v1/blog/authors')).json()).data as { slug: string }[]) ?? [];
    authorSlug = authors[0]?.slug ?? '';
    for (const reader of readers) {
      const made = await admin.post('/api/v1/admin/users', {
        data: {
          fullName: reader.fullName,
          email: reader.email,
          password: PASSWORD,
          confirmPassword: PASSWORD,
          roles: [reader.role],
          status: 'ACTIVE',
          markEmailAsVerified: true,
        },
      });
      expect(made.status(), await made.text()).toBe(201);
    }
  } finally {
    await admin.dispose();
  }
  // The first reader likes the post and has an avatar; the second has neither.
  const first = await apiAs(baseURL!, playwright, readers[0].email, PASSWORD);
  try {
    expect((await first.post(`/api/v1/likes/post/${post.id}/toggle`)).status()).toBe(200);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 60, b: 90 } } })
      .png()
      .toBuffer();
    const uploaded = await first.post('/api/v1/users/avatar', {
      multipart: { file: { name: 'me.png', mimeType: 'image/png', buffer: png } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(200);
    readers[0].avatar = ((await uploaded.json()).data as { avatarUrl: string }).avatarUrl;
    expect(readers[0].avatar).toBeTruthy();
  } finally {
    await first.dispose();
  }
});

const publicPages = () => [
  '/',
  '/home',
  '/blog',
  `/blog/${post.slug}`,
  `/blog/tag/${tag.slug}`,
  `/tag/${tag.slug}`,
  '/authors',
  `/authors/${authorSlug}`,
  `/search?q=everyone`,
  '/about',
];

/** What must never reach anyone else: the name, the e-mail, the avatar's address. */
const secretsOf = (reader: Reader) => [reader.fullName, reader.email, ...(reader.avatar ? [reader.avatar.split('/').pop()!] : [])];

async function signedInContext(
  browser: Browser,
  baseURL: string,
  reader: Reader,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, ...options });
  const login = await context.request.post('/api/v1/auth/login', { data: { email: reader.email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  return context;
}

/** Every answer a shared cache may keep (anything not `private`), with its body, as the page loads. */
function sharedAnswers(page: Page): { url: string; body: Promise<string> }[] {
  const seen: { url: string; body: Promise<string> }[] = [];
  page.on('response', (response: Response) => {
    const cacheControl = response.headers()['cache-control'] ?? '';
    if (/private/.test(cacheControl) || response.status() === 204 || response.status() >= 300) return;
    const type = response.headers()['content-type'] ?? '';
    if (!/html|json|xml|text/.test(type)) return;
    seen.push({ url: response.url(), body: response.text().catch(() => '') });
  });
  return seen;
}

/** Waits until the page's personal fragment has been put in place (components/PersonalParts.astro). */
async function personalPartsFilled(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-personal', 'filled');
}

test('two readers and a visitor get the same cached public pages; each sees only their own account parts', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(120_000);
  const anonymous = await playwright.request.newContext({ baseURL });
  const contexts = await Promise.all(
    readers.map((reader) => signedInContext(browser, baseURL!, reader, { viewport: { width: 1280, height: 800 } })),
  );
  try {
    const pages = await Promise.all(contexts.map((context) => context.newPage()));
    const shared = pages.map(sharedAnswers);
    for (const path of publicPages()) {
      // Other journeys run meanwhile and may change a listing (a new post on /, /blog) between the
      // three loads: the three must match within one of a few rounds, never be allowed to differ.
      let same = false;
      for (let round = 1; round <= 3 && !same; round++) {
        // Both readers at once (a context each): half the wall time.
        const documents = await Promise.all(
          readers.map(async (reader, index) => {
            const page = pages[index];
            const other = readers[1 - index];
            const response = await page.goto(path);
            expect(response?.status(), path).toBe(200);
            expect(response?.headers()['cache-control'], path).toBe('public, max-age=0, must-revalidate');
            expect(response?.headers()['vary'], path).toBe('Accept, Accept-Encoding');
            const served = await response!.text();
            await personalPartsFilled(page);
            // Their own account: the avatar link with their name, their role badge; nothing of the other's.
            const header = page.getByRole('banner');
            await expect(header.getByRole('link', { name: `My account (${reader.fullName})` }), path).toBeVisible();
            await expect(header.locator('[data-role-badges]'), path).toHaveText(reader.badge);
            await expect(header.getByRole('link', { name: 'Login' }), path).toHaveCount(0);
            const html = await page.content();
            for (const secret of secretsOf(other))
              expect(html.includes(secret), `${other.fullName}'s ${secret} on ${path} as ${reader.fullName}`).toBe(false);
            if (reader.avatar) expect(html, path).toContain(reader.avatar.split('/').pop()!);
            return served;
          }),
        );
        // The page as served is the same bytes for both readers and for a visitor (the cached copy).
        const visitor = await anonymous.get(path);
        expect(visitor.status(), path).toBe(200);
        const cached = await visitor.text();
        for (const secret of readers.flatMap(secretsOf)) expect(cached.includes(secret), `${secret} in the cached ${path}`).toBe(false);
        same = documents[0] === cached && documents[1] === cached;
        if (!same && round === 3) {
          expect(documents[0], path).toBe(cached);
          expect(documents[1], path).toBe(cached);
        }
      }
    }

    // The like state is the reader's own: pressed for the one who liked the post, not for the other.
    const [liker, nonLiker] = pages;
    for (const [page, liked] of [
      [liker, 'true'],
      [nonLiker, 'false'],
    ] as const) {
      await page.goto(`/blog/${post.slug}`);
      await personalPartsFilled(page);
      const like = page.getByRole('button', { name: /^Like/ });
      await like.scrollIntoViewIfNeeded();
      await expect(like).toHaveAttribute('aria-pressed', liked);
    }
    // The home page greets each by name ('Welcome back,'); /authors too ('Welcome, NAME!').
    for (const [index, page] of pages.entries()) {
      await page.goto('/');
      await personalPartsFilled(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome back, ${readers[index].fullName}`);
      await page.goto('/authors');
      await personalPartsFilled(page);
      await expect(page.locator('[data-author-greeting]')).toContainText(`Welcome, ${readers[index].fullName}!`);
    }

    // No answer any cache may share carries either reader's data.
    for (const answers of shared) {
      for (const answer of answers) {
        const body = await answer.body;
        for (const secret of readers.flatMap(secretsOf))
          expect(body.includes(secret), `${secret} in the shared answer ${answer.url}`).toBe(false);
      }
    }
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
    await anonymous.dispose();
  }
});

/** The layout shifts of the page so far (buffered, so those before this call count), without the ones after input. */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((done) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
            if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => done(total), 100);
      }),
  );

test('filling the post page’s personal parts shifts nothing (CLS 0 at 1280 and 390 px); axe finds nothing serious', async ({
  browser,
  baseURL,
  hydrated,
}) => {
  const context = await signedInContext(browser, baseURL!, readers[0]);
  try {
    const page = await context.newPage();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/blog/${post.slug}`);
      await personalPartsFilled(page);
      await hydrated(page.locator('astro-island[component-url*="/CommentSection."]'));
      // The comment form the reader gets in place of the stand-in.
      await expect(page.getByLabel('Write a comment')).toBeVisible();
      expect(await layoutShift(page), `layout shift at ${width} px`).toBe(0);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/blog/${post.slug}`);
    await personalPartsFilled(page);
    await expect(page.getByLabel('Write a comment')).toBeVisible();
    await expectNoSeriousViolations(page, `/blog/${post.slug} (signed in, personal parts filled)`);
  } finally {
    await context.close();
  }
});

test('without JavaScript a signed-in reader follows the header’s Login link to their dashboard', async ({ browser, baseURL }) => {
  const context = await signedInContext(browser, baseURL!, readers[0], { javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`/blog/${post.slug}`);
    await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/author$/);
    await expect(page.getByRole('banner').getByRole('link', { name: `My account (${readers[0].fullName})` })).toBeVisible();
  } finally {
    await context.close();
  }
});

test('a session without the signed-in hint gets it back from the next page that reads the session', async ({ browser, baseURL }) => {
  const context = await signedInContext(browser, baseURL!, readers[1]);
  try {
    const hint = async () => (await context.cookies()).find((cookie) => cookie.name === 'inkwell_signed_in');
    expect(await hint()).toBeDefined();
    // A session signed in before the hint existed: its public pages would stay a visitor's.
    await context.clearCookies({ name: 'inkwell_signed_in' });
    expect(await hint()).toBeUndefined();
    expect((await context.request.get('/dashboard')).status()).toBe(200);
    expect((await hint())?.value).toBe('1');
    expect((await hint())?.httpOnly).toBe(false);
  } finally {
    await context.close();
  }
});

import type { APIRequestContext, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { ADMIN, expect, test, type Credentials } from './fixtures';
import { adminApi, apiAs } from './admin-api';
import { brokenWords, distortedImages, outsideTheWindow } from './layout-checks';
import { showVisibleIslands } from './walk-routes';

/**
 * Every route of frontend/src/pages fits a 320 px and a 390 px screen with no horizontal scroll
 *, for each role the route allows: visitor, reader, author, admin. The data is made
 * to be long: a 100-character tag name and user names, a 200-character post title, unbroken words
 * and addresses in a post body and in comments. A page fails when
 * `document.documentElement.scrollWidth > innerWidth`; the message lists the elements that stick
 * out past the right edge.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e5).toString(36)}`;
const PASSWORD = 'Small-screens-Passw0rd!';
const longWord = (length: number, seed: string) => `${seed}${'x'.repeat(length - seed.length)}`;
const longName = (seed: string) => longWord(100, `${seed}-${unique}-`).replace(/x/g, 'n');
const TAG_NAME = longWord(100, `Tag${unique}`);
const TAG_SLUG = `tag-${unique}-${'s'.repeat(80)}`.slice(0, 100);
const TITLE = `${longWord(120, `Title${unique}`)} ${longWord(79, 'and')}`;
const UNBROKEN_URL = `https://example.com/${'a-very-long-path-segment/'.repeat(12)}end`;
const BODY = `${longWord(300, 'Unbroken')}\n\n${UNBROKEN_URL}\n\n\`\`\`\n${longWord(200, 'code')}\n\`\`\`\n\n| ${longWord(80, 'cell')} | ${longWord(80, 'other')} |\n|---|---|\n| 1 | 2 |\n`;
const COMMENT = longWord(200, `Comment${unique}`);

const reader = { fullName: longName('Reader'), email: `reader-${unique}@inkwell.test` };
const author = { fullName: longName('Author'), email: `author-${unique}@inkwell.test` };

const ids = { post: 0, postSlug: '', draft: 0, tag: 0, reader: 0, authorSlug: '', previewToken: '' };

async function createAccount(admin: APIRequestContext, who: { fullName: string; email: string }, role: 'AUTHOR' | 'USER'): Promise<number> {
  const created = await admin.post('/api/v1/admin/users', {
    data: { ...who, password: PASSWORD, confirmPassword: PASSWORD, roles: [role], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()).data as { id: number }).id;
}

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  const admin = await adminApi(baseURL!, playwright);
  const tag = await admin.post('/api/v1/blog/tags', {
    data: { name: TAG_NAME, slug: TAG_SLUG, description: longWord(300, 'Description') },
  });
  expect(tag.status(), await tag.text()).toBe(201);
  ids.tag = ((await tag.json()).data as { id: number }).id;
  ids.reader = await createAccount(admin, reader, 'USER');
  await createAccount(admin, author, 'AUTHOR');

  const authorApi = await apiAs(baseURL!, playwright, author.email, PASSWORD);
  ids.postSlug = `wide-${unique}`;
  const post = await authorApi.post('/api/v1/blog/posts/author/create', {
    data: { title: TITLE, slug: ids.postSlug, summary: longWord(400, 'Summary'), content: BODY, tagSlugs: [TAG_SLUG] },
  });
  expect(post.status(), await post.text()).toBe(201);
  ids.post = ((await post.json()).data as { id: number }).id;
  const draft = await authorApi.post('/api/v1/blog/posts/author/create', {
    data: {
      title: `Draft ${TITLE}`.slice(0, 200),
      slug: `wide-draft-${unique}`,
      summary: longWord(300, 'Draft'),
      content: BODY,
      tagSlugs: [TAG_SLUG],
    },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  ids.draft = ((await draft.json()).data as { id: number }).id;
  // A live preview link of the draft: /preview/{previewToken}, and the edit page's links panel lists it.
  const preview = await authorApi.post(`/api/v1/blog/posts/${ids.draft}/preview-links`);
  expect(preview.status(), await preview.text()).toBe(201);
  ids.previewToken = ((await preview.json()).data as { url: string }).url.split('/').pop() ?? '';
  const submitted = await authorApi.post(`/api/v1/blog/posts/author/${ids.post}/submit-for-review`);
  expect(submitted.status(), await submitted.text()).toBe(200);
  const approved = await admin.put(`/api/v1/blog/posts/admin/${ids.post}/review`, { data: { status: 'APPROVED' } });
  expect(approved.status(), await approved.text()).toBe(200);
  // The long-named author's page address (users.slug).
  const published = await authorApi.get(`/api/v1/blog/posts/public/${ids.postSlug}`);
  ids.authorSlug = ((await published.json()).data as { author: { slug: string } }).author.slug;
  await authorApi.dispose();

  const readerApi = await apiAs(baseURL!, playwright, reader.email, PASSWORD);
  // A picture for the header's avatar (stored square, 512×512).
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  const avatar = await readerApi.post('/api/v1/users/avatar', {
    multipart: { file: { name: 'me.png', mimeType: 'image/png', buffer: picture } },
  });
  expect(avatar.status(), await avatar.text()).toBe(200);
  const liked = await readerApi.post(`/api/v1/likes/post/${ids.post}`);
  expect(liked.status(), await liked.text()).toBe(200);
  const comment = await readerApi.post('/api/v1/comments', { data: { postId: ids.post, content: COMMENT, parentId: null } });
  expect(comment.status(), await comment.text()).toBe(201);
  const commentId = ((await comment.json()).data as { id: number }).id;
  const reply = await readerApi.post('/api/v1/comments', { data: { postId: ids.post, content: COMMENT, parentId: commentId } });
  expect(reply.status(), await reply.text()).toBe(201);
  await readerApi.dispose();
  // A report with a long description, for the moderation queue's cards (/admin/comments).
  const reporter = await apiAs(baseURL!, playwright, author.email, PASSWORD);
  const report = await reporter.post(`/api/v1/comments/${commentId}/reports`, {
    data: { reason: 'OTHER', details: longWord(300, 'Report') },
  });
  expect(report.status(), await report.text()).toBe(201);
  await reporter.dispose();
  await admin.dispose();
});

type Role = 'visitor' | 'reader' | 'author' | 'admin';
const fill = (path: string) =>
  path
    .replace('{post}', ids.postSlug)
    .replace('{postId}', String(ids.post))
    .replace('{draftId}', String(ids.draft))
    .replace('{previewToken}', ids.previewToken)
    .replace('{tag}', TAG_SLUG)
    .replace('{tagId}', String(ids.tag))
    .replace('{readerId}', String(ids.reader))
    .replace('{author}', ids.authorSlug)
    .replace('{titleWord}', encodeURIComponent(TITLE.split(' ')[0]));

/** Every route of frontend/src/pages, by the roles that may open it. */
const ROUTES: Record<Role, string[]> = {
  visitor: [
    '/',
    '/home',
    '/about',
    '/authors',
    '/authors/{author}',
    '/blog',
    '/blog/{post}',
    '/posts/{post}',
    '/blog/tag/{tag}',
    '/tag/{tag}',
    '/tags/{tag}',
    '/tag',
    '/search',
    '/search?q={titleWord}',
    `/search?q=nothing-${unique}`,
    '/login',
    '/auth/login',
    '/register',
    `/register?verify=${encodeURIComponent(`${'long'.repeat(20)}-${unique}@inkwell.test`)}`,
    '/forgot-password',
    '/reset-password',
    `/reset-password?token=${'0'.repeat(64)}`,
    '/account',
    '/service-unavailable',
    `/no-such-page-${unique}`,
    '/privacy',
    '/unsubscribe',
    `/unsubscribe?token=${'t'.repeat(120)}`,
    '/preview/{previewToken}',
    `/preview/not-a-token-${unique}`,
  ],
  reader: [
    '/',
    '/blog/{post}',
    '/search?q={titleWord}',
    '/dashboard',
    '/user-dashboard',
    '/liked-posts',
    '/my-comments',
    '/account',
    '/author',
    '/notifications',
  ],
  author: [
    '/author',
    '/author/drafts',
    '/author/posts',
    '/author/posts/new',
    '/author/posts/{draftId}/edit',
    '/author/posts/{draftId}/preview',
    '/account',
    '/blog/{post}',
    '/admin',
    '/notifications',
  ],
  admin: [
    '/admin',
    '/admin/posts',
    '/admin/posts/new',
    '/admin/posts/{postId}/edit',
    '/admin/posts/{postId}/preview',
    '/admin/tags',
    '/admin/tags/new',
    '/admin/tags/{tagId}/edit',
    '/admin/tags/{tagId}/posts',
    '/admin/comments?filter=all',
    '/admin/users',
    `/admin/users?search=${encodeURIComponent(unique)}`,
    '/admin/users/{readerId}',
    '/dashboard',
    '/account',
    '/blog/{post}',
    '/notifications',
  ],
};

/** Whom a role signs in as (a visitor signs in as nobody). */
function credentialsOf(role: Role): Credentials | undefined {
  if (role === 'visitor') return undefined;
  return role === 'admin' ? ADMIN : { email: (role === 'reader' ? reader : author).email, password: PASSWORD };
}

/** The page's width past the screen, with the deepest elements whose box reaches past the right edge. */
async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const culprits: string[] = [];
    // Inside a scroll frame, yet past the edge: an absolutely placed child (sr-only) whose containing block is outside the frame.
    const framed: string[] = [];
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 0.5) continue;
      // Inside a scroll container of its own (a table's frame, a code block): that box scrolls, not the page.
      let clipped = false;
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const { overflowX } = getComputedStyle(parent);
        if (overflowX !== 'visible' && parent.getBoundingClientRect().right <= width + 0.5) {
          clipped = true;
          break;
        }
      }
      if ([...element.children].some((child) => child.getBoundingClientRect().right > width + 0.5)) continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).slice(0, 4).join('.')}` : ''}`;
      (clipped ? framed : culprits).push(
        `${name} (right ${Math.round(box.right)} px, ${getComputedStyle(element).position}): ${(element.textContent ?? '').trim().slice(0, 40)}`,
      );
    }
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: width,
      culprits: (culprits.length > 0 ? culprits : framed).slice(0, 8),
    };
  });
}

for (const width of [320, 390]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    for (const role of Object.keys(ROUTES) as Role[]) {
      test(`every ${role} route fits without horizontal scroll`, async ({ page, signIn, hydrated }) => {
        test.setTimeout(180_000);
        const who = credentialsOf(role);
        if (who) await signIn(who);
        const problems: string[] = [];
        for (const route of ROUTES[role]) {
          await page.goto(fill(route));
          await hydrated();
          await showVisibleIslands(page, hydrated);
          if (route.endsWith('{post}')) await expect(page.getByText(COMMENT).first()).toBeVisible();
          await page.evaluate(() => window.scrollTo(0, 0));
          const measured = await overflow(page);
          if (measured.scrollWidth > measured.innerWidth)
            problems.push(`${route} → ${page.url()}: ${measured.scrollWidth} px\n    ${measured.culprits.join('\n    ')}`);
        }
        expect(problems, `pages wider than ${width} px for the ${role}:\n${problems.join('\n')}`).toEqual([]);
      });
    }
  });
}

/** The header's controls a sighted user sees (a closed menu's items are not shown). */
const shownControls = (header: Locator) =>
  header.locator('a, button, summary').evaluateAll((found) => found.filter((element) => element.getClientRects().length > 0).length);

/** At phone widths the header is the logo, search, the account control and one menu; nothing in it wraps or is squashed. */
for (const width of [320, 390]) {
  test(`at ${width} px the header holds the logo, search, the account control and one menu; no label breaks, the avatar is square`, async ({
    page,
    signIn,
    hydrated,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    const header = page.getByRole('banner');
    const menu = header.locator('summary', { hasText: 'Menu' });
    const checkHeader = async (where: string, account: Locator) => {
      await expect(header.getByRole('link', { name: 'Inkwell' })).toBeVisible();
      await expect(header.getByRole('link', { name: 'Search', exact: true })).toBeVisible();
      await expect(account).toBeVisible();
      await expect(menu).toBeVisible();
      expect(await shownControls(header), `${where}: the header's controls`).toBe(4);
      expect(await brokenWords(header), where).toEqual([]);
      expect(await outsideTheWindow(page, header.locator('a, button, summary')), where).toEqual([]);
      expect(await header.evaluate((element) => element.getBoundingClientRect().height), `${where}: one row`).toBe(56);
      // The menu: every item on screen, none broken.
      await menu.click();
      const items = header.getByRole('navigation', { name: 'Menu' });
      await expect(items.getByRole('link', { name: 'Blog' })).toBeVisible();
      expect(await outsideTheWindow(page, header.locator('details a, details button')), `${where}, menu open`).toEqual([]);
      expect(await brokenWords(header.locator('details')), `${where}, menu open`).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(items).toBeHidden();
      await expect(menu).toBeFocused();
    };

    await page.goto('/');
    await hydrated();
    await checkHeader('visitor on /', header.getByRole('link', { name: 'Login' }));

    await signIn({ email: reader.email, password: PASSWORD });
    for (const path of ['/', '/liked-posts']) {
      await page.goto(path);
      await hydrated();
      const account = header.getByRole('link', { name: `My account (${reader.fullName})` });
      await checkHeader(`reader on ${path}`, account);
      const picture = account.getByRole('img');
      await expect(picture).toHaveJSProperty('complete', true);
      expect(await distortedImages(picture), `reader on ${path}`).toEqual([]);
      const drawn = await picture.boundingBox();
      expect(drawn && Math.abs(drawn.width - drawn.height), `reader on ${path}: the avatar is square`).toBeLessThanOrEqual(0.5);
    }
  });
}

import type { Page } from '@playwright/test';
import { expect, test, type BrowserFixtures } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi } from './admin-api';

/**
 * axe-core on every page route of frontend/src/pages (and the states behind a click: form errors,
 * the change-password dialog), anonymous and signed in, in the light and the dark theme. Any
 * serious or critical violation fails, listed with its elements. The test makes its own data
 * through the API as the seeded admin: a tag and two published posts, one featured whose body
 * starts with `# Heading`.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const tag = { name: `Access ${unique}`, slug: `access-${unique}` };
const post = {
  title: `Reading without barriers ${unique}`,
  slug: `a11y-post-${unique}`,
  summary: 'A post whose page is checked with axe in both themes.',
  content: `# Before you start\n\nSome **bold** text, a [link](/blog) and \`code\`.\n\n## Details\n\n> A quote.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n\`\`\`ts\nconst a = 1;\n\`\`\`\n`,
};

// About 90 page scans: both workers share them (each worker makes its own data in beforeAll).
test.describe.configure({ mode: 'parallel' });

/** The token of this worker's live preview link (beforeAll). */
let previewToken = '';

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await adminApi(baseURL!, playwright);
  const createdTag = await api.post('/api/v1/blog/tags', {
    data: { ...tag, description: 'Posts written by the accessibility test.', color: '#3b55d9' },
  });
  expect(createdTag.status(), await createdTag.text()).toBe(201);
  const other = await api.post('/api/v1/blog/posts', {
    data: {
      title: `Another accessible story ${unique}`,
      slug: `a11y-other-${unique}`,
      summary: 'A second card for the grids.',
      content: 'Text.',
      status: 'PUBLISHED',
      tagSlugs: [tag.slug],
    },
  });
  expect(other.status(), await other.text()).toBe(201);
  const created = await api.post('/api/v1/blog/posts', { data: { ...post, status: 'PUBLISHED', isFeatured: true, tagSlugs: [tag.slug] } });
  expect(created.status(), await created.text()).toBe(201);
  // A draft with a live preview link: /preview/{preview}.
  const draft = await api.post('/api/v1/blog/posts', {
    data: { ...post, title: `Previewed ${unique}`, slug: `a11y-draft-${unique}`, status: 'DRAFT' },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  const link = await api.post(`/api/v1/blog/posts/${((await draft.json()).data as { id: number }).id}/preview-links`);
  expect(link.status(), await link.text()).toBe(201);
  previewToken = ((await link.json()).data as { url: string }).url.split('/').pop() ?? '';
  await api.dispose();
});

interface Route {
  /** The path; `{post}`, `{tag}` and `{unique}` stand for this run's post slug, tag slug and token. */
  path: string;
  /** The status the page answers with (after redirects); 200 unless said. */
  status?: number;
  /** Something to do before the scan (open a dialog, submit an empty form...). */
  act?: (page: Page, theme: 'light' | 'dark') => Promise<void>;
  /** The test's title when it is not the path (titles must not change between processes). */
  label?: string;
}

const pathOf = (route: Route) =>
  route.path.replace('{post}', post.slug).replace('{tag}', tag.slug).replace('{unique}', unique).replace('{preview}', previewToken);

const anonymousRoutes = (): Route[] => [
  { path: '/' },
  { path: '/home' },
  { path: '/blog' },
  { path: '/blog?page=2' },
  { path: '/blog/{post}' },
  { path: '/posts/{post}', label: '/posts/{post} → /blog/{post}' },
  { path: '/blog/no-such-post-{unique}', status: 404 },
  { path: '/blog/Not_A_Slug', status: 400 },
  { path: '/blog/tag/{tag}' },
  { path: '/blog/tag/no-such-tag-{unique}', status: 404 },
  { path: '/tag/{tag}' },
  { path: '/tags/{tag}', label: '/tags/{tag} → /blog/tag/{tag}' },
  { path: '/tag/no-such-tag-{unique}', status: 404 },
  { path: '/tag', status: 404 },
  { path: '/authors' },
  { path: '/about' },
  { path: '/login' },
  { path: '/auth/login', label: '/auth/login → /login' },
  {
    path: '/login',
    label: '/login, submitted empty',
    act: async (page) => {
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    },
  },
  { path: '/register' },
  {
    path: '/register',
    label: '/register, submitted empty',
    act: async (page) => {
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    },
  },
  { path: '/register?verify=nobody-{unique}%40inkwell.test', label: '/register?verify= (code step)' },
  { path: '/forgot-password' },
  { path: '/reset-password' },
  { path: `/reset-password?token=${'0'.repeat(64)}`, label: '/reset-password?token= (unknown token)' },
  { path: '/account', label: '/account (not signed in)' },
  { path: '/no-such-page-{unique}', status: 404 },
  { path: '/privacy', label: '/privacy (under development)' },
  { path: '/service-unavailable', status: 503, label: '/service-unavailable (what signed-in pages show while the database is away)' },
  { path: '/unsubscribe', status: 400, label: '/unsubscribe (no token)' },
  { path: '/unsubscribe?token=not-a-token-{unique}', status: 400, label: '/unsubscribe?token= (invalid token)' },
  { path: '/preview/{preview}', label: '/preview/{token} (a live preview link)' },
  { path: '/preview/not-a-token-{unique}', status: 404, label: '/preview/{token} (invalid link)' },
  { path: '/newsletter/confirm', status: 400, label: '/newsletter/confirm (no token)' },
  {
    path: '/newsletter/preferences?token=p.1.not-a-signature-{unique}',
    status: 400,
    label: '/newsletter/preferences?token= (invalid token)',
  },
  {
    path: '/newsletter/unsubscribe?token=u.1.not-a-signature-{unique}',
    status: 400,
    label: '/newsletter/unsubscribe?token= (invalid token)',
  },
];

const signedInRoutes = (): Route[] => [
  {
    // One visit: the page, then with the change-password dialog open, then editing the profile.
    path: '/account',
    label: '/account (signed in; the change-password dialog; editing the profile)',
    act: async (page, theme) => {
      await expectNoSeriousViolations(page, `/account (${theme}, signed in)`);
      await page.getByRole('button', { name: 'Change Password' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change Password' });
      await expect(dialog).toBeVisible();
      await expectNoSeriousViolations(page, `/account, change-password dialog open (${theme})`);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
    },
  },
  { path: '/', label: '/ (signed in)' },
  { path: '/liked-posts' },
  { path: '/my-comments' },
  { path: '/notifications' },
  { path: '/dashboard' },
  { path: '/user-dashboard' },
  { path: '/blog/{post}', label: '/blog/{post} (signed in)' },
  { path: '/authors', label: '/authors (signed in)' },
  { path: '/admin/comments?filter=all', label: '/admin/comments (the moderation queue)' },
  { path: '/admin/subscribers', label: '/admin/subscribers (the newsletter back-office)' },
  { path: '/no-such-page-{unique}', status: 404, label: '/no-such-page-{unique} (signed in)' },
];

/** Phone width: the header folds into its menu, counts read 99+. */
const SMALL_SCREEN = { width: 390, height: 844 };
const smallScreenRoutes = (): Route[] => [
  { path: '/' },
  { path: '/blog' },
  { path: '/blog/{post}' },
  { path: '/login' },
  { path: '/preview/{preview}', label: '/preview/{token} (a live preview link)' },
];
const smallScreenSignedInRoutes = (): Route[] => [
  { path: '/', label: '/ (signed in)' },
  { path: '/dashboard' },
  {
    path: '/account',
    // On a phone the header's one menu holds the side panel's links, the site's and Logout.
    label: '/account, header menu open',
    act: async (page) => {
      await page.getByRole('banner').locator('summary', { hasText: 'Menu' }).click();
      await expect(page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Account' })).toBeInViewport();
    },
  },
];

async function scan(page: Page, route: Route, theme: 'light' | 'dark', hydrated: BrowserFixtures['hydrated']): Promise<void> {
  const response = await page.goto(pathOf(route));
  expect(response?.status(), `status of ${pathOf(route)}`).toBe(route.status ?? 200);
  await hydrated();
  const html = expect(page.locator('html'), `the ${theme} theme is on`);
  await (theme === 'dark' ? html.toHaveClass(/(^|\s)dark(\s|$)/) : html.not.toHaveClass(/(^|\s)dark(\s|$)/));
  await route.act?.(page, theme);
  await expectNoSeriousViolations(page, `${route.label ?? route.path} (${theme}, ${page.viewportSize()?.width} px, ${page.url()})`);
}

/** One test per route: anonymous ones, then signed-in ones (as the seeded admin, a fresh session each). */
function scanEach(theme: 'light' | 'dark', anonymous: Route[], signedIn: Route[]): void {
  for (const route of anonymous) {
    test(route.label ?? route.path, async ({ page, hydrated }) => {
      await scan(page, route, theme, hydrated);
    });
  }
  for (const route of signedIn) {
    test(route.label ?? route.path, async ({ asAdmin: page, hydrated }) => {
      await scan(page, route, theme, hydrated);
    });
  }
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe, ${theme} theme`, () => {
    // The theme follows the system preference when no choice is stored (ThemeScript).
    test.use({ colorScheme: theme });
    scanEach(theme, anonymousRoutes(), signedInRoutes());

    test.describe('small screen', () => {
      test.use({ viewport: SMALL_SCREEN });
      scanEach(theme, smallScreenRoutes(), smallScreenSignedInRoutes());
    });
  });
}

test('the post page has one h1, the title; the body heading that was `#` is an h2', async ({ page }) => {
  await page.goto(`/blog/${post.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.locator('.post-prose h2').first()).toHaveText('Before you start');
  await expect(page.locator('.post-prose h3')).toHaveText('Details');
});

test('error pages carry the reason phrase of their status', async ({ page }) => {
  for (const [path, status, reason] of [
    [`/no-such-page-${unique}`, 404, 'Not Found'],
    [`/blog/no-such-post-${unique}`, 404, 'Not Found'],
    ['/blog/Not_A_Slug', 400, 'Bad Request'],
    ['/tag', 404, 'Not Found'],
    ['/about', 200, 'OK'],
  ] as const) {
    // Twice: the second answer of a public page comes from the page cache.
    for (let i = 0; i < 2; i++) {
      const response = await page.request.get(path);
      expect(`${response.status()} ${response.statusText()}`, path).toBe(`${status} ${reason}`);
    }
  }
});

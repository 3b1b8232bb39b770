import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';
import { wholeSitemap } from './sitemap';

/**
 * Discovery: an author's page with their posts paged and their feed, the author
 * links on cards and post pages, the author and tag feeds read as RSS, author pages in the
 * sitemap. The test makes its own data through the API: an author with a bio and 13 published
 * posts (one more than a page of 12) under a tag of their own.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Discovery-Passw0rd!';
const author = {
  fullName: `Đỗ Minh Thư ${unique}`,
  email: `discovery-${unique}@inkwell.test`,
  bio: `Writes about finding things ${unique}.`,
};
const tag = { name: `Discovery ${unique}`, slug: `discovery-${unique}` };
const POSTS = 13;
const titleOf = (i: number) => `Discovery story ${i} ${unique}`;
const slugOf = (i: number) => `discovery-story-${i}-${unique}`;
let authorSlug = '';

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  const admin = await adminApi(baseURL!, playwright);
  const createdTag = await admin.post('/api/v1/blog/tags', { data: { ...tag, description: 'Posts of the discovery test.' } });
  expect(createdTag.status(), await createdTag.text()).toBe(201);
  const created = await admin.post('/api/v1/admin/users', {
    data: {
      fullName: author.fullName,
      email: author.email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: ['AUTHOR'],
      status: 'ACTIVE',
      markEmailAsVerified: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const writer = await apiAs(baseURL!, playwright, author.email, PASSWORD);
  const profile = await writer.put('/api/v1/users/profile', { data: { bio: author.bio } });
  expect(profile.status(), await profile.text()).toBe(200);
  for (let i = 1; i <= POSTS; i++) await publish(admin, writer, i);
  const post = await writer.get(`/api/v1/blog/posts/public/${slugOf(POSTS)}`);
  authorSlug = ((await post.json()).data as { author: { slug: string } }).author.slug;
  await writer.dispose();
  await admin.dispose();
});

/** Post i by the author: written, submitted, approved (published) in that order, so the last is the newest. */
async function publish(admin: APIRequestContext, writer: APIRequestContext, i: number): Promise<void> {
  const draft = await writer.post('/api/v1/blog/posts/author/create', {
    data: {
      title: titleOf(i),
      slug: slugOf(i),
      summary: `Summary of story ${i}.`,
      content: `Story number ${i} of the discovery test.`,
      tagSlugs: [tag.slug],
    },
  });
  expect(draft.status(), await draft.text()).toBe(201);
  const id = ((await draft.json()).data as { id: number }).id;
  expect((await writer.post(`/api/v1/blog/posts/author/${id}/submit-for-review`)).status()).toBe(200);
  const approved = await admin.put(`/api/v1/blog/posts/admin/${id}/review`, { data: { status: 'APPROVED' } });
  expect(approved.status(), await approved.text()).toBe(200);
}

/** A feed parsed by the browser's XML parser: the channel's title and links, each item's title, link and creator. */
async function parseFeed(page: Page, xml: string) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    if (doc.querySelector('parsererror')) throw new Error(`not XML: ${doc.querySelector('parsererror')?.textContent}`);
    const channel = doc.querySelector('rss > channel');
    const child = (parent: Element | null | undefined, name: string) => parent?.getElementsByTagName(name)[0]?.textContent ?? null;
    return {
      version: doc.documentElement.getAttribute('version'),
      title: child(channel, 'title'),
      link: child(channel, 'link'),
      self: channel?.getElementsByTagName('atom:link')[0]?.getAttribute('href') ?? null,
      items: [...doc.querySelectorAll('item')].map((item) => ({
        title: child(item, 'title'),
        link: child(item, 'link'),
        creator: child(item, 'dc:creator'),
        categories: [...item.getElementsByTagName('category')].map((c) => c.textContent),
      })),
    };
  }, xml);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test('an author page: profile, the newest 12 posts, Load More Posts, the feed link; axe', async ({ page, hydrated }) => {
      const response = await page.goto(`/authors/${authorSlug}`);
      expect(response?.status()).toBe(200);
      const html = expect(page.locator('html'), `the ${theme} theme is on`);
      await (theme === 'dark' ? html.toHaveClass(/(^|\s)dark(\s|$)/) : html.not.toHaveClass(/(^|\s)dark(\s|$)/));
      await expect(page.getByRole('heading', { level: 1, name: author.fullName })).toBeVisible();
      await expect(page.getByText(author.bio)).toBeVisible();
      await expect(page.locator('[data-author-post-count]')).toHaveText(`${POSTS} posts`);
      await expect(page.getByRole('img', { name: author.fullName }).first()).toBeVisible();
      const feed = page.getByRole('link', { name: 'RSS feed' });
      await expect(feed).toHaveAttribute('href', `/authors/${authorSlug}/rss.xml`);
      await expect(page.locator('head link[rel="alternate"][type="application/rss+xml"]').last()).toHaveAttribute(
        'href',
        `/authors/${authorSlug}/rss.xml`,
      );
      const cards = page.locator('#author-posts [data-post-card]');
      await expect(cards).toHaveCount(12);
      await expect(cards.first().getByRole('link', { name: titleOf(POSTS), exact: true })).toBeVisible();
      await expectNoSeriousViolations(page, `/authors/${authorSlug} (${theme})`);

      const more = page.getByRole('link', { name: 'Load More Posts' });
      await expect(more).toHaveAttribute('href', `/authors/${authorSlug}?page=2`);
      await hydrated(more);
      await more.click();
      await expect(cards).toHaveCount(POSTS);
      await expect(page).toHaveURL(`/authors/${authorSlug}`);
      await expect(cards.last().getByRole('link', { name: titleOf(1), exact: true })).toBeVisible();
      await expect(more).toHaveCount(0);
    });
  });
}

test('the second page without JavaScript; an unknown author is 404', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/authors/${authorSlug}`);
  await page.getByRole('link', { name: 'Load More Posts' }).click();
  await expect(page).toHaveURL(`/authors/${authorSlug}?page=2`);
  await expect(page.locator('#author-posts [data-post-card]')).toHaveCount(1);
  await expect(page.getByRole('link', { name: titleOf(1), exact: true })).toBeVisible();
  const missing = await page.goto(`/authors/no-such-author-${unique}`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Author Not Found' })).toBeVisible();
  await context.close();
});

test("the author's name links to their page from a card and from a post page", async ({ page }) => {
  await page.goto(`/blog/tag/${tag.slug}`);
  await page
    .locator('[data-post-card]')
    .filter({ hasText: titleOf(POSTS - 1) })
    .getByRole('link', { name: author.fullName })
    .click();
  await expect(page).toHaveURL(`/authors/${authorSlug}`);
  await expect(page.getByRole('heading', { level: 1, name: author.fullName })).toBeVisible();

  await page.goto(`/blog/${slugOf(3)}`);
  await page.locator('article header').getByRole('link', { name: author.fullName }).click();
  await expect(page).toHaveURL(`/authors/${authorSlug}`);
});

test("the author's and the tag's feeds are RSS with their posts, newest first; unknown ones 404; the sitemap lists the author page", async ({
  page,
  request,
}) => {
  const authorFeed = await request.get(`/authors/${authorSlug}/rss.xml`);
  expect(authorFeed.status()).toBe(200);
  expect(authorFeed.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
  const byAuthor = await parseFeed(page, await authorFeed.text());
  expect(byAuthor.version).toBe('2.0');
  expect(byAuthor.title).toBe(`${author.fullName} · Inkwell`);
  expect(byAuthor.link).toMatch(new RegExp(`^https?://[^/]+/authors/${authorSlug}$`));
  expect(byAuthor.self).toMatch(new RegExp(`^https?://[^/]+/authors/${authorSlug}/rss\\.xml$`));
  expect(byAuthor.items.map((item) => item.title)).toEqual(Array.from({ length: POSTS }, (_, i) => titleOf(POSTS - i)));
  expect(byAuthor.items[0]).toMatchObject({ creator: author.fullName, categories: [tag.name] });
  expect(byAuthor.items[0].link).toMatch(new RegExp(`^https?://[^/]+/blog/${slugOf(POSTS)}$`));

  const tagFeed = await request.get(`/blog/tag/${tag.slug}/rss.xml`);
  expect(tagFeed.status()).toBe(200);
  const byTag = await parseFeed(page, await tagFeed.text());
  expect(byTag.title).toBe(`${tag.name} · Inkwell`);
  expect(byTag.items.map((item) => item.title)).toEqual(Array.from({ length: POSTS }, (_, i) => titleOf(POSTS - i)));

  expect((await request.get(`/blog/tag/no-such-tag-${unique}/rss.xml`)).status()).toBe(404);
  expect((await request.get(`/authors/no-such-author-${unique}/rss.xml`)).status()).toBe(404);

  const sitemap = await wholeSitemap(request);
  expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+/authors/${authorSlug}</loc><lastmod>`));
});

test("the cached author page shows the author's new bio and a new post at once", async ({ request, playwright, baseURL }) => {
  const admin = await adminApi(baseURL!, playwright);
  const other = { fullName: `Cached Author ${unique}`, email: `discovery-cached-${unique}@inkwell.test` };
  const created = await admin.post('/api/v1/admin/users', {
    data: { ...other, password: PASSWORD, confirmPassword: PASSWORD, roles: ['AUTHOR'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const writer = await apiAs(baseURL!, playwright, other.email, PASSWORD);
  const first = await writer.post('/api/v1/blog/posts/author/create', {
    data: { title: `Cached first ${unique}`, slug: `cached-first-${unique}`, content: 'First.' },
  });
  const firstId = ((await first.json()).data as { id: number }).id;
  await writer.post(`/api/v1/blog/posts/author/${firstId}/submit-for-review`);
  expect((await admin.put(`/api/v1/blog/posts/admin/${firstId}/review`, { data: { status: 'APPROVED' } })).status()).toBe(200);
  const slug = ((await (await writer.get(`/api/v1/blog/posts/public/cached-first-${unique}`)).json()).data as { author: { slug: string } })
    .author.slug;

  const before = await request.get(`/authors/${slug}`);
  expect(before.status()).toBe(200);
  const etag = before.headers()['etag'];
  expect(etag).toBeTruthy();
  expect((await request.get(`/authors/${slug}`, { headers: { 'If-None-Match': etag } })).status()).toBe(304);

  expect((await writer.put('/api/v1/users/profile', { data: { bio: `A brand new bio ${unique}` } })).status()).toBe(200);
  const afterBio = await request.get(`/authors/${slug}`);
  expect(await afterBio.text()).toContain(`A brand new bio ${unique}`);

  const second = await writer.post('/api/v1/blog/posts/author/create', {
    data: { title: `Cached second ${unique}`, slug: `cached-second-${unique}`, content: 'Second.' },
  });
  const secondId = ((await second.json()).data as { id: number }).id;
  await writer.post(`/api/v1/blog/posts/author/${secondId}/submit-for-review`);
  expect((await admin.put(`/api/v1/blog/posts/admin/${secondId}/review`, { data: { status: 'APPROVED' } })).status()).toBe(200);
  const afterPost = await (await request.get(`/authors/${slug}`)).text();
  expect(afterPost).toContain(`Cached second ${unique}`);
  expect(afterPost).toContain('2 posts');
  const feed = await (await request.get(`/authors/${slug}/rss.xml`)).text();
  expect(feed).toContain(`<title>Cached second ${unique}</title>`);
  await writer.dispose();
  await admin.dispose();
});

test('related posts at the end of a post page: posts sharing its tags, linking to them and their authors; axe', async ({ page }) => {
  await page.goto(`/blog/${slugOf(3)}`);
  const section = page.getByRole('region', { name: 'Related posts' });
  await expect(section).toBeVisible();
  const items = section.locator('[data-related-post]');
  const count = await items.count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThanOrEqual(4);
  const titles = await section.locator('h3 a').allTextContents();
  expect(titles).not.toContain(titleOf(3));
  const ours = Array.from({ length: POSTS }, (_, i) => titleOf(i + 1));
  for (const title of titles) expect(ours).toContain(title.trim());
  await expect(section.getByRole('link', { name: author.fullName }).first()).toHaveAttribute('href', `/authors/${authorSlug}`);
  await expectNoSeriousViolations(page, `/blog/${slugOf(3)} (related posts)`);
  await section.locator('h3 a').first().click();
  await expect(page).toHaveURL(/\/blog\/discovery-story-\d+-/);
});

test("a cached post page shows a related post's new title at once, and drops it when it is unpublished; no section without related posts", async ({
  request,
  playwright,
  baseURL,
}) => {
  const admin = await adminApi(baseURL!, playwright);
  const lonelyTag = { name: `Related ${unique}`, slug: `related-${unique}` };
  expect((await admin.post('/api/v1/blog/tags', { data: lonelyTag })).status()).toBe(201);
  const make = async (name: string) => {
    const created = await admin.post('/api/v1/blog/posts', {
      data: {
        title: `${name} ${unique}`,
        slug: `${name.toLowerCase()}-${unique}`,
        content: `${name} body.`,
        status: 'PUBLISHED',
        tagSlugs: [lonelyTag.slug],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    return (await created.json()).data as { id: number; slug: string; title: string };
  };
  const host = await make('Host');
  const alone = await (await request.get(`/blog/${host.slug}`)).text();
  expect(alone).not.toContain('data-related-posts');

  const neighbour = await make('Neighbour');
  const before = await (await request.get(`/blog/${host.slug}`)).text();
  expect(before).toContain(`>${neighbour.title}</a>`);
  expect((await request.get(`/blog/${host.slug}`)).headers()['etag']).toBeTruthy();

  const renamed = `Renamed neighbour ${unique}`;
  expect((await admin.put(`/api/v1/blog/posts/${neighbour.id}`, { data: { title: renamed } })).status()).toBe(200);
  const afterRename = await (await request.get(`/blog/${host.slug}`)).text();
  expect(afterRename).toContain(`>${renamed}</a>`);
  expect(afterRename).not.toContain(`>${neighbour.title}</a>`);

  expect((await admin.put(`/api/v1/blog/posts/${neighbour.id}`, { data: { status: 'ARCHIVED' } })).status()).toBe(200);
  const afterUnpublish = await (await request.get(`/blog/${host.slug}`)).text();
  expect(afterUnpublish).not.toContain(renamed);
  expect(afterUnpublish).not.toContain('data-related-posts');
  await admin.dispose();
});

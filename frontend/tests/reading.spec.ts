import { expect, test } from './fixtures';
import { adminApi } from './admin-api';
import { wholeSitemap } from './sitemap';

/**
 * The reading journey: home → a post → its tag page, error pages with their statuses,
 * the feed, the sitemap and HTTP caching (the post page's JavaScript budget is checked in
 * engagement.spec.ts, now that it has islands). The test makes its own data through the API as the seeded admin (scripts/browser-tests.mjs passes its
 * credentials): a tag and a featured, published post carrying it.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const tag = { name: `Reading ${unique}`, slug: `reading-${unique}` };
const post = {
  title: `A walk through the reading pages ${unique}`,
  slug: `reading-walk-${unique}`,
  summary: 'Where a reader starts on the home page, opens a story and follows its tag to more of the same.',
  // `##` in the body is an h3 on the page: body headings go one level down under the title's h1.
  content: `## Why read here\n\nInkwell keeps **reviewed** stories.\n\n- first point\n- second point\n\nSee [the blog](/blog).\n`,
};

/** A second tag with 13 posts: one more than a page of 12, for 'Load More Posts'. */
const pagedTag = { name: `Paged ${unique}`, slug: `paged-${unique}` };
const PAGED_POSTS = 13;

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await adminApi(baseURL!, playwright);
  for (const item of [tag, pagedTag]) {
    const createdTag = await api.post('/api/v1/blog/tags', {
      data: { ...item, description: 'Posts written by the reading journey test.', color: '#3b55d9' },
    });
    expect(createdTag.status(), await createdTag.text()).toBe(201);
  }
  for (let i = 1; i <= PAGED_POSTS; i++) {
    const created = await api.post('/api/v1/blog/posts', {
      data: {
        title: `Paged story ${i} ${unique}`,
        slug: `paged-story-${i}-${unique}`,
        summary: `Story ${i} of a tag with more than one page.`,
        content: `Story number ${i}.`,
        status: 'PUBLISHED',
        tagSlugs: [pagedTag.slug],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  // Last, so that it is the newest: first in Latest Stories and on /blog.
  const createdPost = await api.post('/api/v1/blog/posts', {
    data: { ...post, status: 'PUBLISHED', isFeatured: true, tagSlugs: [tag.slug] },
  });
  expect(createdPost.status(), await createdPost.text()).toBe(201);
  await api.dispose();
});

test('home → post → tag page', async ({ page }) => {
  await page.goto('/');
  const stories = page.getByRole('region', { name: 'Latest Stories' });
  const storyLink = stories.getByRole('link', { name: post.title, exact: true });
  await expect(storyLink).toBeVisible();
  const card = stories.locator('[data-post-card]').filter({ has: page.getByRole('link', { name: post.title, exact: true }) });
  await expect(card.getByText('Featured', { exact: true })).toBeVisible();
  await expect(card.getByText('By Administrator')).toBeVisible();

  await storyLink.click();
  await expect(page).toHaveURL(`/blog/${post.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(post.title);
  await expect(page).toHaveTitle(`${post.title} · Inkwell`);
  await expect(page.getByText('Featured Post', { exact: true })).toBeVisible();
  await expect(page.getByText(post.summary).first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Why read here' })).toBeVisible();
  await expect(page.locator('.post-prose strong')).toHaveText('reviewed');
  await expect(page.getByRole('button', { name: 'Share' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveAttribute('title', 'Feature under development');
  await expect(page.getByRole('heading', { level: 2, name: 'Comments (0)' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/blog/${post.slug}$`));
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as Record<string, unknown>;
  expect(jsonLd).toMatchObject({ '@type': 'Article', headline: post.title });
  expect(jsonLd.datePublished).toEqual(expect.any(String));
  expect(jsonLd.dateModified).toEqual(expect.any(String));

  await page.getByRole('link', { name: tag.name, exact: true }).first().click();
  await expect(page).toHaveURL(`/blog/tag/${tag.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `Posts tagged: Reading ${unique.charAt(0).toUpperCase()}${unique.slice(1)}`,
  );
  await expect(page.getByText(`Explore 1 post about ${tag.name}`)).toBeVisible();
  await expect(page.getByRole('link', { name: post.title, exact: true })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Explore Other Tags' })).toBeVisible();
});

test('the blog list shows the post and the tag with its count', async ({ page }) => {
  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Latest Blog Posts');
  // Newest first: other suites publish in parallel and can push this post onto a later page ('Load More Posts' links ?page=N).
  const postLink = page.getByRole('link', { name: post.title, exact: true });
  for (let pageNumber = 2; pageNumber <= 5 && !(await postLink.isVisible()); pageNumber++) await page.goto(`/blog?page=${pageNumber}`);
  await expect(postLink).toBeVisible();
  const tags = page.getByRole('complementary', { name: 'Explore Tags' });
  await expect(tags.getByRole('link', { name: `${tag.name} 1` })).toHaveAttribute('href', `/blog/tag/${tag.slug}`);
  await expect(tags.getByText(/Total: \d+ tags?/)).toBeVisible();
});

test('error pages answer with their statuses and the spec texts', async ({ page }) => {
  let response = await page.goto(`/blog/no-such-post-${unique}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Post Not Found');
  await expect(page.getByText('The post you are looking for does not exist or has been deleted.')).toBeVisible();

  response = await page.goto('/blog/Not_A_Slug');
  expect(response?.status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Invalid post URL');

  response = await page.goto(`/blog/tag/no-such-tag-${unique}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tag Not Found');

  response = await page.goto(`/tag/no-such-tag-${unique}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText(`Tag "no-such-tag-${unique}" not found`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();

  response = await page.goto(`/tag/${tag.slug}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('link', { name: post.title, exact: true })).toBeVisible();

  await page.goto(`/posts/${post.slug}`);
  await expect(page).toHaveURL(`/blog/${post.slug}`);
  await page.goto(`/tags/${tag.slug}`);
  await expect(page).toHaveURL(`/blog/tag/${tag.slug}`);
});

test('RSS, sitemap and HTTP caching of public pages', async ({ request }) => {
  const rss = await request.get('/rss.xml');
  expect(rss.status()).toBe(200);
  expect(rss.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
  const feed = await rss.text();
  expect(feed).toContain('<rss version="2.0"');
  expect(feed).toMatch(new RegExp(`<link>https?://[^<]+/blog/${post.slug}</link>`));
  expect(feed).toContain(`<title>${post.title}</title>`);

  const sitemap = await wholeSitemap(request);
  expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+/blog/${post.slug}</loc><lastmod>`));
  expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+/blog/tag/${tag.slug}</loc>`));
  expect(sitemap).toMatch(/<loc>https?:\/\/[^<]+\/authors<\/loc>/);

  const first = await request.get(`/blog/${post.slug}`);
  expect(first.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  const etag = first.headers()['etag'];
  expect(etag).toMatch(/^"[\w-]+"$/);
  const again = await request.get(`/blog/${post.slug}`, { headers: { 'If-None-Match': etag } });
  expect(again.status()).toBe(304);
});

test('Load More Posts appends the next page in place, and is a plain link to it without JavaScript', async ({
  page,
  browser,
  hydrated,
}) => {
  await page.goto(`/blog/tag/${pagedTag.slug}`);
  await expect(page.getByText(`Explore ${PAGED_POSTS} posts about ${pagedTag.name}`)).toBeVisible();
  const titles = page.locator('[data-post-card] h3 a');
  await expect(titles).toHaveCount(12);
  const more = page.getByRole('link', { name: 'Load More Posts' });
  await expect(more).toHaveAttribute('href', `/blog/tag/${pagedTag.slug}?page=2`);
  await hydrated(more);
  await more.click();
  await expect(titles).toHaveCount(13);
  await expect(page).toHaveURL(`/blog/tag/${pagedTag.slug}`);
  await expect(page.getByRole('link', { name: `Paged story 1 ${unique}`, exact: true })).toBeFocused();
  await expect(more).toHaveCount(0);

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(`/blog/tag/${pagedTag.slug}`);
  await plain.getByRole('link', { name: 'Load More Posts' }).click();
  await expect(plain).toHaveURL(`/blog/tag/${pagedTag.slug}?page=2`);
  await expect(plain.getByRole('link', { name: `Paged story 1 ${unique}`, exact: true })).toBeVisible();
  await expect(plain.getByRole('link', { name: 'Load More Posts' })).toHaveCount(0);
  await noScript.close();
});

test('?page counts from 1 on the public lists; any other spelling is a 301 to the convention', async ({ page, request }) => {
  // Page 2 of the paged tag is its 13th post, under the same address the Load More link gives.
  await page.goto(`/blog/tag/${pagedTag.slug}?page=2`);
  await expect(page.locator('[data-post-card]')).toHaveCount(1);
  await expect(page.getByRole('link', { name: `Paged story 1 ${unique}`, exact: true })).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/blog/tag/${pagedTag.slug}\\?page=2$`));
  await expect(page).toHaveTitle(new RegExp(`\\(page 2\\)`));

  const moved: [string, string][] = [
    ['/blog?page=1', '/blog'],
    ['/blog?page=0', '/blog'],
    ['/blog?page=abc', '/blog'],
    ['/blog?page=02', '/blog?page=2'],
    [`/blog/tag/${pagedTag.slug}?page=1`, `/blog/tag/${pagedTag.slug}`],
    [`/tag/${pagedTag.slug}?page=0`, `/tag/${pagedTag.slug}`],
  ];
  for (const [from, to] of moved) {
    const response = await request.get(from, { maxRedirects: 0 });
    expect(response.status(), from).toBe(301);
    expect(response.headers()['location'], from).toBe(to);
  }
  const kept = await request.get('/blog?page=2', { maxRedirects: 0 });
  expect(kept.status()).toBe(200);
  // The first page has no ?page: its 'Load More Posts' goes to page 2.
  await page.goto('/blog');
  await expect(page.locator('[data-load-more]')).toHaveAttribute('href', '/blog?page=2');
});

test('a change to a post shows on the next request of a cached page', async ({ page, playwright, baseURL }) => {
  const api = await adminApi(baseURL!, playwright);
  const ownTag = { name: `Changing ${unique}`, slug: `changing-${unique}` };
  expect((await api.post('/api/v1/blog/tags', { data: ownTag })).status()).toBe(201);
  const created = await api.post('/api/v1/blog/posts', {
    data: {
      title: `Before the change ${unique}`,
      slug: `changing-post-${unique}`,
      summary: 'A post whose title changes.',
      content: 'Text.',
      status: 'PUBLISHED',
      tagSlugs: [ownTag.slug],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()).data as { id: number };

  const path = `/blog/tag/${ownTag.slug}`;
  await page.goto(path);
  const cached = await page.request.get(path);
  expect(await cached.text()).toContain(`Before the change ${unique}`);
  const updated = await api.put(`/api/v1/blog/posts/${id}`, { data: { title: `After the change ${unique}` } });
  expect(updated.status(), await updated.text()).toBe(200);
  await api.dispose();
  await page.goto(path);
  await expect(page.getByRole('link', { name: `After the change ${unique}`, exact: true })).toBeVisible();
});

test('a post approved in review appears at once on home, /blog, its tag pages, RSS and sitemap; before that it never shows', async ({
  request,
  playwright,
  baseURL,
}) => {
  const api = await adminApi(baseURL!, playwright);
  const reviewTag = { name: `Review ${unique}`, slug: `review-${unique}` };
  expect((await api.post('/api/v1/blog/tags', { data: reviewTag })).status()).toBe(201);
  const title = `Through review ${unique}`;
  const slug = `through-review-${unique}`;
  // The author endpoints (an admin holds the author's rights too): a draft, then submitted.
  const created = await api.post('/api/v1/blog/posts/author/create', {
    data: { title, slug, summary: 'Written, reviewed, published.', content: 'Reviewed text.', tagSlugs: [reviewTag.slug] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()).data as { id: number };

  const publicPages = ['/', '/blog', `/blog/tag/${reviewTag.slug}`, `/tag/${reviewTag.slug}`, '/rss.xml'];
  const expectHidden = async () => {
    for (const path of publicPages) expect(await (await request.get(path)).text(), path).not.toContain(slug);
    expect(await wholeSitemap(request), 'sitemap').not.toContain(slug);
    expect((await request.get(`/blog/${slug}`)).status()).toBe(404);
  };
  await expectHidden();
  const submitted = await api.post(`/api/v1/blog/posts/author/${id}/submit-for-review`);
  expect(submitted.status(), await submitted.text()).toBe(200);
  await expectHidden();

  const approved = await api.put(`/api/v1/blog/posts/admin/${id}/review`, { data: { status: 'APPROVED' } });
  expect(approved.status(), await approved.text()).toBe(200);
  await api.dispose();
  for (const path of publicPages) expect(await (await request.get(path)).text(), path).toContain(slug);
  expect(await wholeSitemap(request), 'sitemap').toContain(slug);
  const postPage = await request.get(`/blog/${slug}`);
  expect(postPage.status()).toBe(200);
  expect(await postPage.text()).toContain(title);
});

import type { Browser } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';
import { socialImageOfThumbnail } from '../../isomorphic/thumbnail-srcset';
import { wholeSitemap } from './sitemap';

/**
 * Shareable previews through the real pages: the author makes a link in the edit
 * page's panel, a signed-out visitor opens it (Preview banner, noindex, never cached), the author
 * revokes it and the address becomes the 404 page with the API's text. axe on the preview page
 * and the edit page with the panel, at 320 px and desktop.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Previews-Passw0rd!';
const author = { fullName: `Preview Author ${unique}`, email: `preview-author-${unique}@inkwell.test` };
const draft = {
  title: `Not yet public ${unique}`,
  slug: `preview-draft-${unique}`,
  summary: 'A draft shared before publishing.',
  content: '# Opening\n\nThe draft text as saved now.',
};
let draftId = 0;

test.beforeAll(async ({ playwright, baseURL }) => {
  const admin = await adminApi(baseURL!, playwright);
  const created = await admin.post('/api/v1/admin/users', {
    data: { ...author, password: PASSWORD, confirmPassword: PASSWORD, roles: ['AUTHOR'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();
  const api = await apiAs(baseURL!, playwright, author.email, PASSWORD);
  const post = await api.post('/api/v1/blog/posts/author/create', { data: draft });
  expect(post.status(), await post.text()).toBe(201);
  draftId = ((await post.json()).data as { id: number }).id;
  await api.dispose();
});

async function openSignedOut(browser: Browser, path: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const response = await page.goto(path);
  return { context, page, response };
}

test('a preview link made in the editor works signed out, and stops working once revoked', async ({ page, browser, signIn }) => {
  await signIn({ email: author.email, password: PASSWORD });
  await page.goto(`/author/posts/${draftId}/edit`);
  const panel = page.getByRole('region', { name: 'Preview links' });
  await expect(panel.getByText('No live preview links.')).toBeVisible();
  await panel.getByRole('button', { name: 'Create preview link' }).click();
  await expect(panel.getByRole('status')).toHaveText('Preview link created.');
  const address = await panel.getByRole('textbox', { name: 'Preview link 1', exact: true }).inputValue();
  expect(address).toMatch(/\/preview\/[^/]+$/);
  await expect(panel.getByText(/^Expires /)).toBeVisible();
  const path = new URL(address).pathname;

  const visitor = await openSignedOut(browser, path);
  expect(visitor.response?.status()).toBe(200);
  expect(visitor.response?.headers()['cache-control']).toBe('private, no-store');
  await expect(visitor.page.getByRole('region', { name: /^Preview — not published yet\./ })).toContainText('This link expires on');
  await expect(visitor.page.getByRole('heading', { level: 1 })).toHaveText(draft.title);
  await expect(visitor.page.locator('.post-prose')).toContainText('The draft text as saved now.');
  await expect(visitor.page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  // No likes, comments or related posts on a preview.
  await expect(visitor.page.locator('[data-post-actions], #comments')).toHaveCount(0);

  await panel.getByRole('button', { name: 'Revoke preview link 1' }).click();
  await expect(panel.getByRole('status')).toHaveText('Preview link revoked.');
  await expect(panel.getByText('No live preview links.')).toBeVisible();

  const again = await visitor.page.goto(path);
  expect(again?.status()).toBe(404);
  await expect(visitor.page.getByText('This preview link is invalid or has expired.')).toBeVisible();
  await expect(visitor.page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await visitor.context.close();
});

for (const viewport of [
  { width: 320, height: 800 },
  { width: 1280, height: 900 },
]) {
  test(`axe at ${viewport.width} px: the preview page, its 404, and the edit page with the panel`, async ({
    page,
    browser,
    baseURL,
    playwright,
    signIn,
  }) => {
    const api = await apiAs(baseURL!, playwright, author.email, PASSWORD);
    const made = await api.post(`/api/v1/blog/posts/${draftId}/preview-links`);
    expect(made.status(), await made.text()).toBe(201);
    const path = new URL(((await made.json()).data as { url: string }).url).pathname;
    await api.dispose();

    const visitor = await openSignedOut(browser, path, viewport);
    expect(visitor.response?.status()).toBe(200);
    await expectNoSeriousViolations(visitor.page, `${path} (${viewport.width} px)`);
    expect((await visitor.page.goto(`/preview/not-a-token-${unique}`))?.status()).toBe(404);
    await expectNoSeriousViolations(visitor.page, `/preview/not-a-token (${viewport.width} px)`);
    await visitor.context.close();

    await page.setViewportSize(viewport);
    await signIn({ email: author.email, password: PASSWORD });
    await page.goto(`/author/posts/${draftId}/edit`);
    const panel = page.getByRole('region', { name: 'Preview links' });
    await expect(panel.getByRole('button', { name: 'Create preview link' })).toBeEnabled();
    await expect(panel.getByRole('textbox', { name: 'Preview link 1', exact: true })).toBeVisible();
    await expectNoSeriousViolations(page, `/author/posts/{id}/edit with the preview links panel (${viewport.width} px)`);
  });
}

test.describe('SEO output', () => {
  const seoPost = {
    title: `Seen by search engines ${unique}`,
    slug: `seo-fields-${unique}`,
    summary: 'The summary, which the meta description replaces.',
    content: 'Body text.',
    metaTitle: `A title for search results ${unique}`,
    metaDescription: 'What search results show under the title.',
    canonicalUrl: `https://elsewhere.example/first-printed-${unique}`,
    noindex: true,
    socialImage: '/images/social-card.png',
  };

  const plainPost = {
    title: `Plain head ${unique}`,
    slug: `seo-plain-${unique}`,
    summary: 'A post with no SEO fields.',
    content: 'Body text.',
  };

  test.beforeAll(async ({ playwright, baseURL }) => {
    const admin = await adminApi(baseURL!, playwright);
    for (const data of [seoPost, plainPost]) {
      const created = await admin.post('/api/v1/blog/posts', { data: { ...data, status: 'PUBLISHED' } });
      expect(created.status(), await created.text()).toBe(201);
    }
    await admin.dispose();
  });

  test("the post's SEO fields reach its <head>, JSON-LD, the feed and the sitemap", async ({ page, request }) => {
    expect((await page.goto(`/blog/${seoPost.slug}`))?.status()).toBe(200);
    const image = new URL(seoPost.socialImage, page.url()).toString();
    await expect(page).toHaveTitle(seoPost.metaTitle);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', seoPost.metaDescription);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', seoPost.canonicalUrl);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', image);
    await expect(page.locator('meta[name="twitter:image"]')).toHaveAttribute('content', image);
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', seoPost.canonicalUrl);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as Record<string, unknown>;
    expect(jsonLd).toMatchObject({
      headline: seoPost.metaTitle,
      description: seoPost.metaDescription,
      image: [image],
      mainEntityOfPage: seoPost.canonicalUrl,
    });
    // The page itself still reads as the post.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(seoPost.title);

    const feed = await (await request.get('/rss.xml')).text();
    expect(feed).toContain(`<link>${seoPost.canonicalUrl}</link>`);
    expect(feed).toContain(`<guid isPermaLink="true">${seoPost.canonicalUrl}</guid>`);
    const sitemap = await wholeSitemap(request);
    expect(sitemap).not.toContain(`/blog/${seoPost.slug}<`);
  });

  test("a post without SEO fields keeps today's head: its title with the site's name, its own canonical URL, indexable, in the sitemap", async ({
    page,
    request,
  }) => {
    expect((await page.goto(`/blog/${plainPost.slug}`))?.status()).toBe(200);
    const own = new URL(`/blog/${plainPost.slug}`, page.url()).toString();
    await expect(page).toHaveTitle(`${plainPost.title} · Inkwell`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', plainPost.summary);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', own);
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as Record<string, unknown>;
    expect(jsonLd).toMatchObject({ headline: plainPost.title, description: plainPost.summary, mainEntityOfPage: own });
    expect(await wholeSitemap(request)).toContain(`<loc>${own}</loc>`);
  });

  test('the social image of a stored thumbnail is its narrowest variant at least 1200 px wide, else the image itself', () => {
    const key = 'a'.repeat(32);
    expect(socialImageOfThumbnail(`/images/thumbnails/${key}-2048x1024.webp`)).toBe(`/images/thumbnails/${key}-1600w.webp`);
    expect(socialImageOfThumbnail(`https://cdn.example/images/thumbnails/${key}-1700x900.webp`)).toBe(
      `https://cdn.example/images/thumbnails/${key}-1600w.webp`,
    );
    expect(socialImageOfThumbnail(`/images/thumbnails/${key}-1600x800.webp`)).toBe(`/images/thumbnails/${key}-1600x800.webp`);
    expect(socialImageOfThumbnail(`/images/thumbnails/${key}-1000x500.webp`)).toBe(`/images/thumbnails/${key}-1000x500.webp`);
    expect(socialImageOfThumbnail('https://example.com/photo.jpg')).toBe('https://example.com/photo.jpg');
  });
});

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import sharp from 'sharp';
import { adminApi } from './admin-api';

/**
 * Responsive thumbnails: a 2048x1024 upload is stored with 400/800/1600 px variants;
 * a card of a three-column grid loads the 400 px one, the post page the 800 px one, and neither
 * page ever downloads the full-size file. Data is made through the API as the seeded admin.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const tag = { name: `Thumbs ${unique}`, slug: `thumbs-${unique}` };
const slugs = [1, 2, 3, 4].map((i) => `thumb-story-${i}-${unique}`);
let thumbnail: { url: string; filename: string };

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await adminApi(baseURL!, playwright);
  const photo = await sharp({
    create: { width: 2048, height: 1024, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg()
    .toBuffer();
  const uploaded = await api.post('/images/thumbnail/upload', {
    multipart: { image: { name: 'wide.jpg', mimeType: 'image/jpeg', buffer: photo } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  thumbnail = (await uploaded.json()).data;
  expect((await api.post('/api/v1/blog/tags', { data: tag })).status()).toBe(201);
  for (const [i, slug] of slugs.entries()) {
    const created = await api.post('/api/v1/blog/posts', {
      data: {
        title: `Thumbnail story ${i + 1} ${unique}`,
        slug,
        summary: 'A story with a wide thumbnail.',
        content: 'Body.',
        status: 'PUBLISHED',
        thumbnail: thumbnail.url,
        tagSlugs: [tag.slug],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  await api.dispose();
});

/** Every image URL the page requested. */
function imageRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'image') urls.push(new URL(request.url()).pathname);
  });
  return urls;
}

async function loadedSource(page: Page, selector: string): Promise<string> {
  const image = page.locator(selector).first();
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return new URL(await image.evaluate((img: HTMLImageElement) => img.currentSrc)).pathname;
}

test.use({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });

test('a card in a three-column grid loads the 400 px variant, lazily, with its size reserved', async ({ page }) => {
  const requested = imageRequests(page);
  await page.goto(`/blog/tag/${tag.slug}`);
  const card = page.locator('[data-post-card] img').first();
  await expect(card).toHaveAttribute('loading', 'lazy');
  await expect(card).toHaveAttribute('decoding', 'async');
  await expect(card).toHaveAttribute('width', '2048');
  await expect(card).toHaveAttribute('height', '1024');
  await expect(card).toHaveAttribute('sizes', /360px/);
  const key = thumbnail.filename.slice(0, 32);
  await expect(card).toHaveAttribute(
    'srcset',
    `/images/thumbnails/${key}-400w.webp 400w, /images/thumbnails/${key}-800w.webp 800w, /images/thumbnails/${key}-1600w.webp 1600w, ${thumbnail.url} 2048w`,
  );
  expect(await loadedSource(page, '[data-post-card] img')).toBe(`/images/thumbnails/${key}-400w.webp`);
  expect(requested).not.toContain(thumbnail.url);
});

test('the post page loads the 800 px variant at once', async ({ page }) => {
  const requested = imageRequests(page);
  await page.goto(`/blog/${slugs[0]}`);
  const figure = page.locator('article figure img');
  await expect(figure).toHaveAttribute('loading', 'eager');
  await expect(figure).toHaveAttribute('fetchpriority', 'high');
  const key = thumbnail.filename.slice(0, 32);
  expect(await loadedSource(page, 'article figure img')).toBe(`/images/thumbnails/${key}-800w.webp`);
  expect(requested).not.toContain(thumbnail.url);
});

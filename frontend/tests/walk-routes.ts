import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { ADMIN, expect, type BrowserFixtures, type Credentials } from './fixtures';
import { adminApi, apiAs } from './admin-api';

/**
 * Every route of frontend/src/pages × the roles that open it, with the ordinary data a new user
 * sees (names with diacritics, a photo thumbnail, square avatars, a comment thread, a report): the
 * list the layout walk (layout-walk.spec.ts) checks and `npm run screenshots`
 * (screenshots.capture.ts) photographs. Aliases that redirect (/posts/{slug}, /tags/{slug},
 * /auth/login) or render the very same page as another route (/home, /user-dashboard,
 * /tag/{slug}) are left out: they add time, not layouts.
 */

export type Role = 'anonymous' | 'reader' | 'author' | 'admin';
export const ROLES: readonly Role[] = ['anonymous', 'reader', 'author', 'admin'];

/** The widths every route is looked at: a laptop, a common phone, the narrowest supported phone. */
export const WIDTHS = [1280, 390, 320] as const;

export interface WalkData {
  unique: string;
  reader: Credentials;
  author: Credentials;
  postSlug: string;
  postId: number;
  draftId: number;
  pendingId: number;
  tagSlug: string;
  tagId: number;
  readerId: number;
  authorSlug: string;
  previewToken: string;
}

/** Path templates by role; `{name}` is filled from WalkData by `routePath`. */
export const ROUTES: Record<Role, readonly string[]> = {
  anonymous: [
    '/',
    '/about',
    '/authors',
    '/authors/{authorSlug}',
    '/blog',
    '/blog/{postSlug}',
    '/blog/tag/{tagSlug}',
    '/tag',
    '/search',
    '/search?q=garden',
    '/login',
    '/register',
    '/register?verify=lan.tran@inkwell.test',
    '/forgot-password',
    '/reset-password?token=0000000000000000000000000000000000000000000000000000000000000000',
    '/account',
    '/service-unavailable',
    '/no-such-page-{unique}',
    '/privacy',
    '/unsubscribe',
    '/newsletter/preferences',
    '/preview/{previewToken}',
  ],
  reader: [
    '/',
    '/blog/{postSlug}',
    '/search?q=garden',
    '/dashboard',
    '/liked-posts',
    '/my-comments',
    '/account',
    '/notifications',
    '/author',
  ],
  author: [
    '/',
    '/author',
    '/author/drafts',
    '/author/posts',
    '/author/posts/new',
    '/author/posts/{draftId}/edit',
    '/author/posts/{draftId}/preview',
    '/blog/{postSlug}',
    '/account',
    '/notifications',
    '/admin',
  ],
  admin: [
    '/',
    '/admin',
    '/admin/posts',
    '/admin/posts/new',
    '/admin/posts/{postId}/edit',
    '/admin/posts/{pendingId}/preview',
    '/admin/tags',
    '/admin/tags/new',
    '/admin/tags/{tagId}/edit',
    '/admin/tags/{tagId}/posts',
    '/admin/comments?filter=all',
    '/admin/users',
    '/admin/users/{readerId}',
    '/admin/settings',
    '/admin/subscribers',
    '/dashboard',
    '/blog/{postSlug}',
    '/account',
    '/notifications',
  ],
};

/** A route template with the walk's ids and slugs in place. */
export function routePath(template: string, data: WalkData): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = (data as unknown as Record<string, unknown>)[name];
    if (value === undefined) throw new Error(`route ${template}: no value for ${whole}`);
    return encodeURIComponent(String(value));
  });
}

/** Whom a role signs in as (anonymous: nobody). */
export function credentialsOf(role: Role, data: WalkData): Credentials | undefined {
  return { anonymous: undefined, reader: data.reader, author: data.author, admin: ADMIN }[role];
}

/** Lets lazy images load (they count as soon as they are in the layout) and waits for them, briefly. */
export async function loadImages(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const images = [...document.querySelectorAll('img')];
    for (const image of images) if (image.loading === 'lazy') image.loading = 'eager';
    const loaded = (image: HTMLImageElement) =>
      new Promise((done) => {
        image.addEventListener('load', done, { once: true });
        image.addEventListener('error', done, { once: true });
      });
    const settled = Promise.all(images.filter((image) => !image.complete).map(loaded));
    await Promise.race([settled, new Promise((done) => setTimeout(done, 3_000))]);
  });
}

/** Two frames after a resize or a theme change: media-query listeners and resize observers (islands) have re-rendered. */
export const settle = (page: Page) =>
  page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

/** Waits for each client:visible island (comments, like button, chart) in turn: `hydrated` scrolls to it. */
export async function showVisibleIslands(page: Page, hydrated: BrowserFixtures['hydrated']): Promise<void> {
  for (let uid = await firstWaitingIsland(page); uid; uid = await firstWaitingIsland(page))
    await hydrated(page.locator(`astro-island[uid="${uid}"]`));
}
// An island this width does not display (the header's search box below 1024 px) never hydrates: client:visible.
const firstWaitingIsland = (page: Page) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('astro-island[ssr]')]
        .find((island) => island.getClientRects().length > 0 || [...island.children].some((child) => child.getClientRects().length > 0))
        ?.getAttribute('uid') ?? '',
  );

const PASSWORD = 'Layout-walk-Passw0rd!';

async function photo(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 90, g: 130, b: 110 } } });
  return format === 'jpeg' ? image.jpeg().toBuffer() : image.png().toBuffer();
}

async function createAccount(admin: APIRequestContext, fullName: string, email: string, role: 'AUTHOR' | 'USER'): Promise<number> {
  const created = await admin.post('/api/v1/admin/users', {
    data: { fullName, email, password: PASSWORD, confirmPassword: PASSWORD, roles: [role], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()).data as { id: number }).id;
}

async function uploadAvatar(api: APIRequestContext): Promise<void> {
  const uploaded = await api.post('/api/v1/users/avatar', {
    multipart: { file: { name: 'avatar.png', mimeType: 'image/png', buffer: await photo(256, 256, 'png') } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
}

/** Makes the walk's data through the API: a tag, a reader and an author with avatars, a published post with a thumbnail, a draft, a post waiting for review, a comment thread and a report. */
export async function seedWalkData(baseURL: string, playwright: Parameters<typeof adminApi>[1]): Promise<WalkData> {
  const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const reader = { email: `lan.tran-${unique}@inkwell.test`, password: PASSWORD };
  const author = { email: `minh.nguyen-${unique}@inkwell.test`, password: PASSWORD };
  const admin = await adminApi(baseURL, playwright);
  const tagSlug = `garden-notes-${unique}`;
  const tag = await admin.post('/api/v1/blog/tags', {
    data: { name: `Garden notes ${unique}`, slug: tagSlug, description: 'Seasons, soil and what grew on the balcony this year.' },
  });
  expect(tag.status(), await tag.text()).toBe(201);
  const tagId = ((await tag.json()).data as { id: number }).id;
  const readerId = await createAccount(admin, 'Trần Thị Lan Phương', reader.email, 'USER');
  await createAccount(admin, 'Nguyễn Minh Anh', author.email, 'AUTHOR');

  const authorApi = await apiAs(baseURL, playwright, author.email, PASSWORD);
  await uploadAvatar(authorApi);
  const thumbnail = await authorApi.post('/images/thumbnail/upload', {
    multipart: { image: { name: 'garden.jpg', mimeType: 'image/jpeg', buffer: await photo(1600, 900, 'jpeg') } },
  });
  expect(thumbnail.status(), await thumbnail.text()).toBe(201);
  const thumbnailUrl = ((await thumbnail.json()).data as { url: string }).url;
  const content =
    'Spring came late to the balcony garden this year.\n\n## What grew\n\nTomatoes, basil and a stubborn lemon tree.\n\n| Plant | Sown | Harvested |\n|---|---|---|\n| Tomato | March | July |\n| Basil | April | June |\n';
  const create = async (title: string, slug: string) => {
    const created = await authorApi.post('/api/v1/blog/posts/author/create', {
      data: {
        title,
        slug,
        summary: 'What a small balcony garden taught me about patience, light and watering.',
        content,
        thumbnail: thumbnailUrl,
        tagSlugs: [tagSlug],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    return ((await created.json()).data as { id: number }).id;
  };
  const postSlug = `balcony-garden-${unique}`;
  const postId = await create('A year in the balcony garden', postSlug);
  const draftId = await create('Notes on watering, still unfinished', `watering-notes-${unique}`);
  const pendingId = await create('Growing lemons in pots', `lemons-in-pots-${unique}`);
  for (const id of [postId, pendingId]) {
    const submitted = await authorApi.post(`/api/v1/blog/posts/author/${id}/submit-for-review`);
    expect(submitted.status(), await submitted.text()).toBe(200);
  }
  const approved = await admin.put(`/api/v1/blog/posts/admin/${postId}/review`, { data: { status: 'APPROVED' } });
  expect(approved.status(), await approved.text()).toBe(200);
  const preview = await authorApi.post(`/api/v1/blog/posts/${draftId}/preview-links`);
  expect(preview.status(), await preview.text()).toBe(201);
  const previewToken = ((await preview.json()).data as { url: string }).url.split('/').pop() ?? '';
  const published = await authorApi.get(`/api/v1/blog/posts/public/${postSlug}`);
  const authorSlug = ((await published.json()).data as { author: { slug: string } }).author.slug;

  const readerApi = await apiAs(baseURL, playwright, reader.email, PASSWORD);
  await uploadAvatar(readerApi);
  expect((await readerApi.post(`/api/v1/likes/post/${postId}`)).status()).toBe(200);
  const comment = await readerApi.post('/api/v1/comments', {
    data: { postId, content: 'The lemon tree part made me smile. Did it survive the winter indoors?', parentId: null },
  });
  expect(comment.status(), await comment.text()).toBe(201);
  const commentId = ((await comment.json()).data as { id: number }).id;
  const reply = await authorApi.post('/api/v1/comments', {
    data: { postId, content: 'It did, barely: a south window and very little water.', parentId: commentId },
  });
  expect(reply.status(), await reply.text()).toBe(201);
  const report = await authorApi.post(`/api/v1/comments/${commentId}/reports`, {
    data: { reason: 'OTHER', details: 'Testing the moderation queue.' },
  });
  expect(report.status(), await report.text()).toBe(201);
  await Promise.all([readerApi.dispose(), authorApi.dispose(), admin.dispose()]);
  return { unique, reader, author, postSlug, postId, draftId, pendingId, tagSlug, tagId, readerId, authorSlug, previewToken };
}

import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { ADMIN, expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi } from './admin-api';

/**
 * The post page's comments as the server renders them: the first page is in the
 * HTML (no JavaScript needed, and right after a comment changes although the page is cached,
 * the same for everyone, with nothing of a signed-in reader's in it); 'View in article' (`#comment-{id}`) reaches
 * a comment on a later page, in view and focused; a level-3 comment offers no Reply, since a
 * reply there would land beside it. The seeded administrator writes everything (any signed-in
 * user may comment).
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

let admin: APIRequestContext;
test.beforeEach(async ({ playwright, baseURL }) => {
  admin = await adminApi(baseURL!, playwright);
});
test.afterEach(async () => {
  await admin.dispose();
});

async function newPost(name: string): Promise<{ id: number; slug: string }> {
  const slug = `links-${name}-${unique}`;
  const created = await admin.post('/api/v1/blog/posts', {
    data: { title: `Comment links ${name} ${unique}`, slug, content: `Body of ${name}.`, status: 'PUBLISHED' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { id: ((await created.json()).data as { id: number }).id, slug };
}

async function addComment(postId: number, content: string, parentId?: number): Promise<number> {
  const created = await admin.post('/api/v1/comments', { data: { postId, content, parentId: parentId ?? null } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()).data as { id: number }).id;
}

/** A page in a browser context without JavaScript: what search engines and script-less readers get. */
async function withoutScripts<T>(browser: Browser, baseURL: string, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

const commentItem = (page: Page, id: number) => page.locator(`#comment-${id}`);
const topLevel = (page: Page) => page.getByRole('list', { name: 'Comments' }).locator(':scope > li');

test("'View in article' on /my-comments reaches a reply on the third page of comments: in view, focused, highlighted", async ({
  page,
  signIn,
}) => {
  // 27 comments written one by one (their order decides the pages), then four page loads.
  test.setTimeout(90_000);
  const post = await newPost('later-page');
  const roots: number[] = [];
  for (let index = 0; index < 25; index++) roots.push(await addComment(post.id, `Root ${index} ${unique}`));
  // Newest first, 10 a page: roots 0–4 are on the third page.
  const level1 = await addComment(post.id, `Level one ${unique}`, roots[2]);
  const target = await addComment(post.id, `The linked reply ${unique}`, level1);

  await signIn(ADMIN);
  await page.goto('/my-comments');
  const link = page.getByRole('link', { name: 'View in article' }).and(page.locator(`[href="/blog/${post.slug}#comment-${target}"]`));
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/blog/${post.slug}#comment-${target}$`));
  const item = commentItem(page, target);
  await expect(item).toBeInViewport();
  await expect(item).toBeFocused();
  await expect(item).toHaveAttribute('aria-current', 'location');
  await expect(item.getByRole('article').first()).toContainText(`The linked reply ${unique}`);
  // The list stays whole: the pages before it were read too, and Load More goes on from there.
  await expect(topLevel(page)).toHaveCount(25);
  await expect(page.getByRole('button', { name: 'Load More Comments' })).toHaveCount(0);
  await expectNoSeriousViolations(page);

  // A link to a comment on the first page, followed within the page.
  await page.evaluate((id) => (window.location.hash = `#comment-${id}`), roots[24]);
  await expect(commentItem(page, roots[24])).toBeFocused();
  await expect(commentItem(page, roots[24])).toBeInViewport();

  // A visitor opening the address directly gets there too (the anonymous, cacheable page).
  await page.context().clearCookies();
  await page.goto('about:blank'); // else the same address with another fragment would not load anew
  await page.goto(`/blog/${post.slug}#comment-${roots[7]}`);
  await expect(commentItem(page, roots[7])).toBeFocused();
  await expect(commentItem(page, roots[7])).toBeInViewport();
  await expect(topLevel(page)).toHaveCount(20);
  await expect(page.getByRole('button', { name: 'Load More Comments' })).toBeVisible();
  // A link to a comment that is gone says so (followed within the page).
  await page.goto(`/blog/${post.slug}#comment-2000000000`);
  await expect(page.locator('#comments').getByRole('alert')).toContainText('Comment not found.');
});

test('without JavaScript the first page of comments is in the HTML, fresh after each change and without anything of a signed-in reader', async ({
  browser,
  baseURL,
  page,
  signIn,
}) => {
  const post = await newPost('no-script');
  for (let index = 1; index <= 11; index++) await addComment(post.id, `Plain ${index} ${unique}`);
  // A signed-in reader gets the same cached page, filled in for them: their buttons and the form...
  await signIn(ADMIN);
  await page.goto(`/blog/${post.slug}`);
  await expect(page.getByLabel('Write a comment')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Edit/ }).first()).toBeVisible();

  await withoutScripts(browser, baseURL!, async (visitor) => {
    // ...a visitor's page has the ten newest comments and nothing of theirs.
    await visitor.goto(`/blog/${post.slug}`);
    await expect(topLevel(visitor)).toHaveCount(10);
    await expect(visitor.getByText(`Plain 11 ${unique}`)).toBeVisible();
    await expect(visitor.getByText(`Plain 1 ${unique}`, { exact: true })).toHaveCount(0);
    await expect(visitor.locator('#comments').getByText('You need to log in to comment.')).toBeVisible();
    // (the form's stand-in is in everyone's HTML, shown only under the signed-in hint)
    await expect(visitor.locator('#comments textarea')).toBeHidden();
    await expect(visitor.locator('#comments').getByRole('button', { name: /^(Edit|Delete|Reply)/ })).toHaveCount(0);
    // Times are whole dates in the site zone (relative times need the clock of the hydrated page).
    await expect(visitor.locator('#comments time').first()).toHaveText(/^\d{2}:\d{2} \d{2}\/\d{2}\/\d{4} GMT\+7$/);

    // The cached page follows every change at once: an edit, a new comment, a delete.
    const newest = Number(await topLevel(visitor).first().getAttribute('data-comment-id'));
    const edited = await admin.put(`/api/v1/comments/${newest}`, { data: { content: `Edited ${unique}` } });
    expect(edited.status(), await edited.text()).toBe(200);
    await visitor.reload();
    await expect(visitor.getByText(`Edited ${unique}`)).toBeVisible();
    const added = await addComment(post.id, `Added later ${unique}`);
    await visitor.reload();
    await expect(visitor.getByText(`Added later ${unique}`)).toBeVisible();
    expect((await admin.delete(`/api/v1/comments/${added}`)).status()).toBe(204);
    await visitor.reload();
    await expect(visitor.getByText(`Added later ${unique}`)).toHaveCount(0);
    await expect(topLevel(visitor)).toHaveCount(10);
  });
});

test('a level-3 comment offers no Reply (a reply there would sit beside it); its parent takes the reply at level 3', async ({
  asAdmin: page,
  hydrated,
}) => {
  const post = await newPost('depth');
  const root = await addComment(post.id, `Depth zero ${unique}`);
  const level1 = await addComment(post.id, `Depth one ${unique}`, root);
  const level2 = await addComment(post.id, `Depth two ${unique}`, level1);
  const level3 = await addComment(post.id, `Depth three ${unique}`, level2);

  await page.goto(`/blog/${post.slug}`);
  await hydrated('CommentSection');
  const article = (id: number) => commentItem(page, id).getByRole('article').first();
  await expect(article(level3).getByRole('button', { name: /^Edit/ })).toBeVisible();
  await expect(article(level3).getByRole('button', { name: /^Reply/ })).toHaveCount(0);
  await expect(commentItem(page, level3)).toHaveAttribute('data-level', '3');
  await expect(article(level2).getByRole('button', { name: /^Reply/ })).toBeVisible();

  await article(level2)
    .getByRole('button', { name: /^Reply/ })
    .click();
  await page.getByRole('textbox', { name: /^Reply to/ }).fill(`Answer at depth three ${unique}`);
  await page.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(page.getByText('Reply has been added.')).toBeVisible();
  const answer = page.locator(`[data-replies-of="${level2}"] > ul > li`).filter({ hasText: `Answer at depth three ${unique}` });
  await expect(answer).toHaveAttribute('data-level', '3');
  await expect(answer.getByRole('button', { name: /^Reply/ })).toHaveCount(0);
  await page.reload();
  await hydrated('CommentSection');
  await expect(page.locator(`[data-replies-of="${level2}"] > ul > li`)).toHaveCount(2);
  await expectNoSeriousViolations(page);
});

import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi } from './admin-api';

/**
 * Following by e-mail in the browser (docs/newsletter.md): a visitor follows a tag from its page,
 * confirms through the captured e-mail's link (a page with a button: mail scanners open links),
 * manages the preferences reached from there; a signed-in reader follows with one click on a post
 * page and sees it at once and on /account; the administrator's /admin/subscribers. axe on every
 * new page and state.
 */
const MAIL_CAPTURE_URL = process.env.MAIL_CAPTURE_URL;
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const tag = { name: `Letters ${unique}`, slug: `letters-${unique}` };
const post = { title: `A post to follow ${unique}`, slug: `follow-post-${unique}`, summary: 'Followed by e-mail.', content: 'Text.' };

// A busy machine makes a journey of a dozen pages take longer than the default 30 s.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await adminApi(baseURL!, playwright);
  expect((await api.post('/api/v1/blog/tags', { data: tag })).status()).toBe(201);
  const created = await api.post('/api/v1/blog/posts', { data: { ...post, status: 'PUBLISHED', tagSlugs: [tag.slug] } });
  expect(created.status(), await created.text()).toBe(201);
  await api.dispose();
});

async function confirmLink(email: string): Promise<string> {
  if (!MAIL_CAPTURE_URL) throw new Error('MAIL_CAPTURE_URL is not set: run the browser tests with npm run test:browser');
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(`${MAIL_CAPTURE_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as {
          subject: string;
          text: string;
        }[];
        const last = mails.filter((mail) => /confirm your e-mail/i.test(mail.subject)).at(-1);
        link = last ? /(https?:\/\/\S+\/newsletter\/confirm\?token=\S+)/.exec(last.text)?.[1] : undefined;
        return link;
      },
      { message: `confirmation e-mail for ${email}`, timeout: 15_000 },
    )
    .toContain('/newsletter/confirm?token=');
  return new URL(link!).pathname + new URL(link!).search;
}

test('a visitor follows a tag by e-mail, confirms, and manages the preferences', async ({ page, hydrated }) => {
  const email = `follower-${unique}@inkwell.test`;
  await page.goto(`/blog/tag/${tag.slug}`);
  const box = page.locator('[data-follow-by-email]');
  await expect(box).toHaveAttribute('data-ready', 'visitor');
  await expect(box.getByText(`Get new posts tagged ${tag.name} in your inbox.`)).toBeVisible();
  await box.getByLabel('Your e-mail address').fill(email);
  await box.getByRole('button', { name: 'Follow' }).click();
  await expect(box.getByRole('status')).toContainText('Check your inbox');
  await expectNoSeriousViolations(page, 'tag page, follow box sent');

  await page.goto(await confirmLink(email));
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your subscription' })).toBeVisible();
  await expect(page.locator('[data-confirm-what]')).toHaveText(`Send new posts tagged ${tag.name} to ${email}.`);
  await expectNoSeriousViolations(page, '/newsletter/confirm');
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are subscribed' })).toBeVisible();
  await expectNoSeriousViolations(page, '/newsletter/confirm, confirmed');

  await page.getByRole('link', { name: 'Manage your e-mail preferences' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your e-mail preferences' })).toBeVisible();
  await hydrated(page.getByRole('button', { name: 'Save' }));
  await expect(page.locator('[data-follow-list]')).toContainText(tag.name);
  await page.getByLabel('One weekly digest').check();
  await page.getByLabel('Digest day').selectOption('Friday');
  await expectNoSeriousViolations(page, '/newsletter/preferences');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved.');
  await page.reload();
  await expect(page.getByLabel('One weekly digest')).toBeChecked();
  await page.getByRole('button', { name: `Stop e-mails for ${tag.name}` }).click();
  await expect(page.getByText('You follow nothing')).toBeVisible();

  // Links without a token, or tampered: a page that says so (400), never an error page.
  for (const path of [
    '/newsletter/preferences',
    '/newsletter/unsubscribe?token=u.1.not-a-signature',
    '/newsletter/confirm?token=nothing',
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(400);
    await expectNoSeriousViolations(page, path);
  }
});

test('a signed-in reader follows with one click on a post page; /account lists it; the admin sees /admin/subscribers', async ({
  asAdmin: page,
  hydrated,
}) => {
  await page.goto(`/blog/${post.slug}`);
  const box = page.locator('[data-follow-by-email]');
  // The page is the cached one: the box learns from the personal fragment that a reader is signed in.
  await expect(box).toHaveAttribute('data-ready', 'reader', { timeout: 20_000 });
  const everything = box.getByRole('button', { name: 'Follow every new post' });
  await expect(everything).toBeEnabled();
  await everything.click();
  await expect(box.getByRole('button', { name: 'Following every new post' })).toHaveAttribute('aria-pressed', 'true');
  await expectNoSeriousViolations(page, 'post page, following');

  await page.goto('/account');
  const section = page.locator('[data-account-newsletter]');
  await hydrated(section.locator('[data-my-follows]'));
  await expect(section.getByText('Every new post')).toBeVisible();
  await section.getByRole('button', { name: 'Stop e-mails for Every new post' }).click();
  await expect(section.getByText('You do not follow anything by e-mail yet.')).toBeVisible();

  await page.goto('/admin/subscribers');
  await expect(page.getByRole('heading', { level: 1, name: 'Subscribers' })).toBeVisible();
  await hydrated(page.getByRole('main').getByRole('button', { name: 'Search' }).first());
  await page.getByLabel('E-mail or name').fill(`follower-${unique}`);
  await page.getByRole('main').getByRole('button', { name: 'Search' }).first().click();
  await expect(page.locator('[data-subscriber-table]')).toContainText(`follower-${unique}@inkwell.test`);
  await expectNoSeriousViolations(page, '/admin/subscribers');
});

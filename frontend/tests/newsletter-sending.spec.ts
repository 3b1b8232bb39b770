import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * A post reaches a follower's inbox (docs/newsletter.md#sending): a visitor follows an author by
 * e-mail on the author page, confirms through the captured e-mail's link, the author's next post is
 * approved, its newsletter e-mail arrives in the capture, and the visitor unsubscribes in one click
 * (the e-mail's link: a page with a button, which POSTs 'List-Unsubscribe=One-Click'). Then the
 * admin's panel on the edit page (preview frame, test to oneself) and axe on the e-mail's own HTML
 * (lang, alt text, contrast).
 */
const MAIL_CAPTURE_URL = process.env.MAIL_CAPTURE_URL;
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = 'Letters-Passw0rd!';
const writer = { fullName: `Quill Writer ${unique}`, email: `quill-${unique}@inkwell.test` };

test.describe.configure({ mode: 'serial', timeout: 120_000 });

interface Captured {
  subject: string;
  text: string;
}

async function mailsTo(email: string): Promise<Captured[]> {
  if (!MAIL_CAPTURE_URL) throw new Error('MAIL_CAPTURE_URL is not set: run the browser tests with npm run test:browser');
  return (await (await fetch(`${MAIL_CAPTURE_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as Captured[];
}

/** The first link in the newest captured e-mail to `email` whose subject matches, as a site path. */
async function linkIn(email: string, subject: RegExp, link: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const mail = (await mailsTo(email)).filter((m) => subject.test(m.subject)).at(-1);
        found = mail ? link.exec(mail.text)?.[1] : undefined;
        return found;
      },
      { message: `an e-mail to ${email} matching ${subject}`, timeout: 30_000 },
    )
    .toBeTruthy();
  const url = new URL(found!);
  return url.pathname + url.search;
}

let authorSlug = '';
let writerApi: Awaited<ReturnType<typeof apiAs>>;

test.beforeAll(async ({ playwright, baseURL }) => {
  const admin = await adminApi(baseURL!, playwright);
  const created = await admin.post('/api/v1/admin/users', {
    data: { ...writer, password: PASSWORD, confirmPassword: PASSWORD, roles: ['AUTHOR'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  writerApi = await apiAs(baseURL!, playwright, writer.email, PASSWORD);
  await admin.dispose();
});

/** The writer's post, submitted and approved by the admin (published now); answers its id and title. */
async function publish(baseURL: string, playwright: Parameters<typeof adminApi>[1], title: string): Promise<{ id: number; slug: string }> {
  const created = await writerApi.post('/api/v1/blog/posts/author/create', {
    data: { title, content: `## ${title}\n\nWords for the followers.\n\n> A quote.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id, slug } = (await created.json()).data as { id: number; slug: string };
  expect((await writerApi.post(`/api/v1/blog/posts/author/${id}/submit-for-review`)).status()).toBe(200);
  const admin = await adminApi(baseURL, playwright);
  const approved = await admin.put(`/api/v1/blog/posts/admin/${id}/review`, { data: { status: 'APPROVED' } });
  expect(approved.status(), await approved.text()).toBe(200);
  await admin.dispose();
  return { id, slug };
}

test('a visitor follows an author by e-mail, confirms, receives the new post, and unsubscribes in one click', async ({
  page,
  baseURL,
  playwright,
}) => {
  // The author page exists once the writer has a published post.
  const first = await publish(baseURL!, playwright, `First words ${unique}`);
  authorSlug = ((await (await writerApi.get(`/api/v1/blog/posts/public/${first.slug}`)).json()).data as { author: { slug: string } }).author
    .slug;
  const email = `reader-${unique}@inkwell.test`;
  await page.goto(`/authors/${authorSlug}`);
  const box = page.locator('[data-follow-by-email]');
  await expect(box).toHaveAttribute('data-ready', 'visitor');
  await box.getByLabel('Your e-mail address').fill(email);
  await box.getByRole('button', { name: 'Follow' }).click();
  await expect(box.getByRole('status')).toContainText('Check your inbox');

  await page.goto(await linkIn(email, /confirm your e-mail/i, /(https?:\/\/\S+\/newsletter\/confirm\?token=\S+)/));
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are subscribed' })).toBeVisible();

  const title = `News for followers ${unique}`;
  await publish(baseURL!, playwright, title);
  const unsubscribe = await linkIn(
    email,
    new RegExp(title),
    /Unsubscribe from this[\s\S]*?(https?:\/\/\S+\/newsletter\/unsubscribe\?token=u\.\S+)/,
  );
  const mail = (await mailsTo(email)).filter((m) => m.subject === title);
  expect(mail).toHaveLength(1);
  expect(mail[0].text).toContain(`/blog/`);
  expect(mail[0].text).toContain('?ref=newsletter');
  expect(mail[0].text).toContain(`You receive this because you follow ${writer.fullName}`);

  // The e-mail's link: a page that says what it stops; its button is the one-click POST.
  await page.goto(unsubscribe);
  await expect(page.locator('[data-unsubscribe-what]')).toContainText(writer.fullName);
  await expectNoSeriousViolations(page, '/newsletter/unsubscribe from the e-mail');
  await page.getByRole('button', { name: /unsubscribe/i }).click();
  await expect(page.getByRole('status')).toContainText(writer.fullName);

  // Nothing more for that follow.
  const later = `After unsubscribing ${unique}`;
  await publish(baseURL!, playwright, later);
  await page.waitForTimeout(3_000);
  expect((await mailsTo(email)).filter((m) => m.subject === later)).toHaveLength(0);
});

test("the admin's newsletter panel previews the e-mail in a sandboxed frame and sends a test; the e-mail passes axe", async ({
  asAdmin: page,
  hydrated,
  baseURL,
  playwright,
}) => {
  const created = await writerApi.post('/api/v1/blog/posts/author/create', {
    data: {
      title: `Draft letter ${unique}`,
      content: '![A lighthouse at dusk](https://example.com/lighthouse-1200x800.jpg)\n\nSome words.',
    },
  });
  const id = ((await created.json()).data as { id: number }).id;
  await page.goto(`/admin/posts/${id}/edit`);
  const panel = page.locator('[data-newsletter-send]');
  await hydrated(panel);
  await expect(panel.getByRole('checkbox', { name: /E-mail this post to its followers/ })).toBeChecked();
  await panel.getByRole('checkbox', { name: /E-mail this post to its followers/ }).uncheck();
  await expect(panel.locator('[aria-live]')).toContainText('published without e-mail');
  await panel.getByRole('button', { name: 'Preview the e-mail' }).click();
  const frame = page.frameLocator('[data-newsletter-preview]');
  await expect(frame.getByRole('heading', { level: 1, name: `Draft letter ${unique}` })).toBeVisible();
  await panel.getByRole('button', { name: 'Send a test to me' }).click();
  await expect(panel.locator('[aria-live]')).toContainText('Test e-mail sent to');
  await expectNoSeriousViolations(page, '/admin/posts/{id}/edit with the newsletter panel');

  // The e-mail's HTML itself (what subscribers get, with the test footer), on a page of its own.
  const admin = await adminApi(baseURL!, playwright);
  const preview = await admin.get(`/api/v1/newsletter/posts/${id}/preview`);
  const { html } = (await preview.json()).data as { html: string };
  await admin.dispose();
  expect(html).toContain('lang="en"');
  expect(html).toContain('alt="A lighthouse at dusk"');
  // On a blank page: setContent on the edit page would keep that page's Content-Security-Policy.
  await page.goto('about:blank');
  await page.setContent(html);
  await expectNoSeriousViolations(page, 'the newsletter e-mail');
});

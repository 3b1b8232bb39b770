import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';

/**
 * /admin/import and /admin/export: an admin uploads a small WordPress export (asking
 * for the new authors' invitations), watches the progress bar and reads the report (imported,
 * skipped with why, renamed, invitations); the imported post's
 * old WordPress address answers 301 to its page; axe at 320 px and on the desktop. One page for
 * the whole journey (the suite's time budget).
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const site = `http://old-${unique}.example.com`;

/** A WordPress export with four posts (one in the trash, one with a Greek slug), a page at an undated nested address, a nested thread and a shortcode. */
function wxr(): string {
  const item = (
    n: number,
    status: string,
    comments = '',
    type = 'post',
    link = `/2015/03/07/post-${unique}-${n}/`,
    name = `post-${unique}-${n}`,
  ) => `<item>
<title>Bài viết ${n} ${unique} 🎉</title>
<link>${site}${link}</link>
<dc:creator><![CDATA[linh]]></dc:creator>
<content:encoded><![CDATA[Xin chào &amp; hello ${n}.

[caption id="a" width="300"]<img src="${site}/wp-content/uploads/a.jpg" alt="Ảnh" /> Chú thích[/caption]]]></content:encoded>
<wp:post_id>${n}</wp:post_id>
<wp:post_date><![CDATA[2015-03-07 10:00:00]]></wp:post_date>
<wp:post_date_gmt><![CDATA[2015-03-07 03:00:00]]></wp:post_date_gmt>
<wp:post_name><![CDATA[${name}]]></wp:post_name>
<wp:status><![CDATA[${status}]]></wp:status>
<wp:post_type><![CDATA[${type}]]></wp:post_type>
<category domain="post_tag" nicename="tag-${unique}"><![CDATA[Tag ${unique}]]></category>
${comments}</item>`;
  const comment = (id: number, parent: number) =>
    `<wp:comment><wp:comment_id>${id}</wp:comment_id><wp:comment_author><![CDATA[Bạn đọc]]></wp:comment_author><wp:comment_author_email><![CDATA[reader-${unique}@example.com]]></wp:comment_author_email><wp:comment_date_gmt><![CDATA[2015-03-0${7 + id} 03:00:00]]></wp:comment_date_gmt><wp:comment_content><![CDATA[Comment ${id}]]></wp:comment_content><wp:comment_approved><![CDATA[1]]></wp:comment_approved><wp:comment_parent>${parent}</wp:comment_parent></wp:comment>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old</title><link>${site}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${site}</wp:base_site_url>
<wp:author><wp:author_login><![CDATA[linh]]></wp:author_login><wp:author_email><![CDATA[linh-${unique}@example.com]]></wp:author_email><wp:author_display_name><![CDATA[Nguyễn Linh]]></wp:author_display_name></wp:author>
${item(1, 'publish', comment(1, 0) + comment(2, 1))}
${item(2, 'draft')}
${item(3, 'trash')}
${item(4, 'publish', '', 'page', `/about-${unique}/team-${unique}/`)}
${item(5, 'publish', '', 'post', undefined, encodeURIComponent(`δοκιμή-${unique}`).toLowerCase())}
</channel></rss>`;
}

test('an admin imports a WordPress export, follows its progress and reads the report', async ({ asAdmin: page, hydrated }) => {
  await page.goto('/admin/import');
  await hydrated('ImportScreen');
  await expect(page.getByRole('heading', { name: 'Import', exact: true, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Import & Export' })).toBeVisible();
  await expectNoSeriousViolations(page, '/admin/import');

  await page.getByLabel('Export file').setInputFiles({ name: `old-${unique}.xml`, mimeType: 'text/xml', buffer: Buffer.from(wxr()) });
  // The new author (not the commenter) is e-mailed an invitation: the report counts it.
  const invite = page.getByRole('checkbox', { name: 'E-mail an invitation to the authors this import creates' });
  await expect(invite).not.toBeChecked();
  await invite.check();
  await page.getByRole('button', { name: 'Start import' }).click();
  const progress = page.getByRole('progressbar', { name: 'Import progress' });
  await expect(progress).toBeVisible();
  const report = page.getByRole('region', { name: `old-${unique}.xml: Finished` });
  await expect(report).toBeVisible({ timeout: 15_000 });
  await expect(report.getByRole('status')).toHaveText('5 of 5 posts');
  await expect(report.getByRole('definition').first()).toBeVisible();
  const counts = Object.fromEntries(
    await report
      .locator('dl > div')
      .evaluateAll((rows) => rows.map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent])),
  );
  expect(counts).toMatchObject({ Posts: '4', Comments: '2', Tags: '1', 'Old addresses redirected': '9', 'Invitations sent': '1' });
  await report.getByText('Skipped (1)').click();
  await expect(report.getByRole('row', { name: /Its status 'trash' has no equivalent here\./ })).toBeVisible();

  await page.setViewportSize({ width: 320, height: 800 });
  await expectNoSeriousViolations(page, '/admin/import at 320 px (report)');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('link', { name: 'Export this site' }).click();
  await expect(page.getByRole('link', { name: 'Download export (.zip)' })).toHaveAttribute('href', '/api/v1/admin/export');
  await expectNoSeriousViolations(page, '/admin/export');

  // The post's old WordPress address leads to its page here.
  const response = await page.request.get(`/2015/03/07/post-${unique}-1/`, { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe(`/blog/post-${unique}-1`);
  // A page's undated, nested address too; a page of this site is never shadowed by one.
  const nested = await page.request.get(`/about-${unique}/team-${unique}/`, { maxRedirects: 0 });
  expect(nested.status()).toBe(301);
  expect(nested.headers().location).toBe(`/blog/post-${unique}-4`);
  expect((await page.request.get('/about', { maxRedirects: 0 })).status()).toBe(200);
  // A Greek slug is written in Latin letters; /blog/{the Greek slug} leads there.
  const greek = await page.request.get(`/blog/${encodeURIComponent(`δοκιμή-${unique}`)}`, { maxRedirects: 0 });
  expect(greek.status()).toBe(301);
  expect(greek.headers().location).toBe(`/blog/dokimi-${unique}`);
});

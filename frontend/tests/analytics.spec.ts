import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi, apiAs } from './admin-api';

/**
 * The author's Stats page (docs/analytics.md): views counted on the server when the post page is
 * served, then the page: totals, the chart with its table (the same figures), the 7/30/90-day
 * ranges, a post's own view; axe in the light and the dark theme.
 */
const PASSWORD = 'Stats-Pass-1!';
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const author = { fullName: `Stella ${unique}`, email: `stella-${unique}@inkwell.test`, password: PASSWORD };
const title = `Counted story ${unique}`;
const slug = `counted-story-${unique}`;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const VIEWS = 5;

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(60_000);
  const admin = await adminApi(baseURL!, playwright);
  const created = await admin.post('/api/v1/admin/users', {
    data: { ...author, confirmPassword: PASSWORD, roles: ['AUTHOR'], status: 'ACTIVE', markEmailAsVerified: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const api = await apiAs(baseURL!, playwright, author.email, PASSWORD);
  const post = await api.post('/api/v1/blog/posts/author/create', {
    data: { title, slug, summary: 'About counting.', content: 'Counted words.', tagSlugs: [] },
  });
  expect(post.status(), await post.text()).toBe(201);
  const id = ((await post.json()).data as { id: number }).id;
  const published = await admin.put(`/api/v1/blog/posts/${id}`, { data: { status: 'PUBLISHED' } });
  expect(published.status(), await published.text()).toBe(200);
  // Readers: a browser's user agent, some from a search engine; the server counts as it serves the page.
  const reader = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'User-Agent': BROWSER } });
  for (let i = 0; i < VIEWS; i++) {
    const page = await reader.get(`/blog/${slug}`, { headers: i % 2 ? { Referer: 'https://www.google.com/' } : {} });
    expect(page.status()).toBe(200);
  }
  // A crawler is not counted.
  await reader.get(`/blog/${slug}`, { headers: { 'User-Agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } });
  await reader.dispose();
  // Views are written once a second; an answer is held up to 30 s per author and range.
  await expect
    .poll(async () => ((await (await api.get('/api/v1/analytics/me?days=7')).json()).data as { totals: { views: number } }).totals.views, {
      timeout: 45_000,
    })
    .toBe(VIEWS);
});

test('an author opens Stats, switches the range, opens a post; the table holds the chart’s figures; axe passes in both themes', async ({
  page,
  signIn,
  hydrated,
}) => {
  await signIn(author);
  await page.goto('/author');
  await page.getByRole('link', { name: 'Stats' }).first().click();
  await expect(page).toHaveURL(/\/author\/stats$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Stats' })).toBeVisible();
  await expect(page.locator('[data-stat="views"] [data-value]')).toHaveText(String(VIEWS));
  await hydrated('StatsChart');
  await expect(page.getByTestId('stats-chart')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('stats-series-table').locator('tbody tr')).toHaveCount(30);
  await expect(page.getByTestId('stats-sources')).toContainText('google.com');
  await expectNoSeriousViolations(page, '/author/stats (light)');

  await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: '7 days' }).click();
  await expect(page).toHaveURL(/days=7/);
  await hydrated('StatsChart');
  await expect(page.getByTestId('stats-series-table').locator('tbody tr')).toHaveCount(7);

  await page.getByTestId('stats-top-posts').getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Stats: ${title}` })).toBeVisible();
  await hydrated('StatsChart');
  const chart = page.getByTestId('stats-chart');
  await expect(chart).toHaveAttribute('data-ready', 'true');
  await page.getByRole('button', { name: 'Show as table' }).click();
  const table = page.getByTestId('stats-series-table');
  await expect(table).toBeVisible();
  // The table is the chart's data, row for row.
  const points = JSON.parse((await chart.getAttribute('data-points'))!) as [string, number, number][];
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-day'), ...[...tr.querySelectorAll('td')].map((td) => Number(td.textContent))]),
    );
  expect(rows).toEqual(points);
  expect(points.reduce((sum, [, views]) => sum + views, 0)).toBe(VIEWS);
  await expect(page.getByRole('link', { name: 'Download CSV' }).first()).toHaveAttribute('href', /^data:text\/csv/);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await hydrated('StatsChart');
  await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
  await expectNoSeriousViolations(page, '/author/stats?post (dark)');
});

import { expect, test } from './fixtures';
import { adminApi } from './admin-api';

/**
 * What Lighthouse's SEO category checks, without Lighthouse (not installed here), on the
 * public pages: robots.txt valid by its rules (a relative Sitemap URL made every page score 92)
 * and not shutting out a public page; each page answers 200 in English with a title, a meta
 * description, one absolute canonical URL, no noindex, crawlable links with descriptive text,
 * images with alt text and one h1.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const tag = { name: `Findable ${unique}`, slug: `findable-${unique}` };
const post = {
  title: `Found by search engines ${unique}`,
  slug: `seo-post-${unique}`,
  summary: 'A post whose page is checked the way Lighthouse SEO does.',
  content: '# First things\n\nText.',
};

test.beforeAll(async ({ playwright, baseURL }) => {
  const api = await adminApi(baseURL!, playwright);
  expect((await api.post('/api/v1/blog/tags', { data: tag })).status()).toBe(201);
  const created = await api.post('/api/v1/blog/posts', { data: { ...post, status: 'PUBLISHED', tagSlugs: [tag.slug] } });
  expect(created.status(), await created.text()).toBe(201);
  await api.dispose();
});

const publicPaths = () => ['/', '/blog', `/blog/${post.slug}`, `/blog/tag/${tag.slug}`, `/tag/${tag.slug}`, '/authors', '/about'];

/** Lighthouse's robots-txt audit, line by line: the errors it would list. */
function robotsTxtErrors(content: string): string[] {
  const known = new Set([
    'user-agent',
    'disallow',
    'allow',
    'sitemap',
    'crawl-delay',
    'clean-param',
    'host',
    'request-rate',
    'visit-time',
    'noindex',
  ]);
  const errors: string[] = [];
  let inGroup = false;
  content.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const colon = line.indexOf(':');
    const fail = (message: string) => errors.push(`line ${index + 1} "${raw}": ${message}`);
    if (colon === -1) return fail('syntax not understood');
    const directive = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (!known.has(directive)) return fail('unknown directive');
    if (directive === 'sitemap') {
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        return fail('invalid sitemap URL');
      }
      if (!['http:', 'https:', 'ftp:'].includes(url.protocol)) return fail('invalid sitemap URL protocol');
    }
    if (directive === 'user-agent') {
      if (!value) return fail('no user-agent specified');
      inGroup = true;
    }
    if (directive === 'allow' || directive === 'disallow') {
      if (value && !value.startsWith('/') && !value.startsWith('*')) return fail('pattern should be empty or start with "/" or "*"');
      if (value.includes('$') && value.indexOf('$') !== value.length - 1) return fail('"$" only at the end');
      if (!inGroup) return fail('no user-agent before it');
    }
  });
  return errors;
}

/** Whether a Disallow pattern (prefix, `*` wildcard, `$` end) covers the path. */
function disallows(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`).test(path);
}

test('robots.txt is valid, names the sitemap by its absolute URL and lets crawlers reach every public page', async ({
  request,
  baseURL,
}) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/plain/);
  const content = await response.text();
  expect(robotsTxtErrors(content)).toEqual([]);
  const sitemap = /^sitemap:\s*(\S+)/im.exec(content)?.[1];
  expect(sitemap).toBe(new URL('/sitemap.xml', baseURL).toString());
  // The sitemap index (its files are checked in reading.spec.ts and backend/test/sitemap.e2e-spec.ts).
  const index = await request.get(sitemap!);
  expect(index.status()).toBe(200);
  expect(await index.text()).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');

  const disallowed = [...content.matchAll(/^disallow:\s*(\S*)/gim)].map((match) => match[1]).filter(Boolean);
  for (const path of publicPaths())
    expect(
      disallowed.filter((pattern) => disallows(pattern, path)),
      path,
    ).toEqual([]);
  for (const path of ['/account', '/admin', '/admin/users', '/author', '/author/drafts', '/api/v1/health']) {
    expect(
      disallowed.some((pattern) => disallows(pattern, path)),
      path,
    ).toBe(true);
  }
});

test('public pages pass the checks of Lighthouse SEO', async ({ page }) => {
  const generic = new Set([
    'click here',
    'click this',
    'go',
    'here',
    'information',
    'learn more',
    'more',
    'more info',
    'more information',
    'right here',
    'read more',
    'see more',
    'start',
    'this',
  ]);
  for (const path of publicPaths()) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    expect(response?.headers()['x-robots-tag'], path).toBeUndefined();
    const facts = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      title: document.title.trim(),
      description: document.querySelector('meta[name="description"]')?.getAttribute('content')?.trim() ?? '',
      canonicals: [...document.querySelectorAll('link[rel="canonical"]')].map((link) => link.getAttribute('href') ?? ''),
      robots: [...document.querySelectorAll('meta[name="robots"], meta[name="googlebot"]')].map(
        (meta) => meta.getAttribute('content') ?? '',
      ),
      h1: document.querySelectorAll('h1').length,
      imagesWithoutAlt: [...document.querySelectorAll('img:not([alt])')].map((image) => image.outerHTML),
      links: [...document.querySelectorAll('a')].map((link) => ({
        html: link.outerHTML.slice(0, 120),
        href: link.getAttribute('href'),
        role: link.getAttribute('role'),
        text: link.innerText.trim().toLowerCase(),
      })),
    }));
    expect(facts.lang, path).toBe('en');
    expect(facts.title, path).not.toBe('');
    expect(facts.description, path).not.toBe('');
    expect(facts.canonicals, path).toHaveLength(1);
    expect(facts.canonicals[0], path).toMatch(/^https?:\/\//);
    expect(
      facts.robots.filter((content) => /noindex|none/i.test(content)),
      path,
    ).toEqual([]);
    expect(facts.h1, path).toBe(1);
    expect(facts.imagesWithoutAlt, path).toEqual([]);
    // crawlable-anchors: an href that is a real URL (not empty, not javascript:); link-text: no generic text.
    const uncrawlable = facts.links.filter((link) => !link.role && (!link.href?.trim() || /^javascript:/i.test(link.href.trim())));
    expect(
      uncrawlable.map((link) => link.html),
      path,
    ).toEqual([]);
    expect(
      facts.links.filter((link) => link.href && generic.has(link.text)).map((link) => link.html),
      path,
    ).toEqual([]);
  }
});

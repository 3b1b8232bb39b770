import { expect, type APIRequestContext } from '@playwright/test';

/**
 * The whole sitemap as a crawler reads it: /sitemap.xml is an index (isomorphic/sitemap.ts), so its
 * files are fetched in turn; answers their <urlset> documents joined. Each must be a 200 XML file.
 */
export async function wholeSitemap(request: APIRequestContext): Promise<string> {
  const index = await request.get('/sitemap.xml');
  expect(index.status()).toBe(200);
  const text = await index.text();
  expect(text).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
  const files = [...text.matchAll(/<sitemap><loc>([^<]+)<\/loc><lastmod>[^<]+<\/lastmod><\/sitemap>/g)].map(
    (match) => new URL(match[1]).pathname,
  );
  expect(files[0]).toBe('/sitemap-pages.xml');
  const documents: string[] = [];
  for (const path of files) {
    const file = await request.get(path);
    expect([path, file.status(), file.headers()['content-type']]).toEqual([path, 200, 'application/xml; charset=utf-8']);
    documents.push(await file.text());
  }
  return documents.join('\n');
}

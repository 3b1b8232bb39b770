import type { APIRoute } from 'astro';
import { SITEMAP_INDEX_PATH } from '../../../isomorphic/sitemap';

/**
 * robots.txt: the back office and the account are off limits; the sitemap index (which names
 * its files: isomorphic/sitemap.ts) is named by its absolute URL (PUBLIC_URL), since the Sitemap directive takes only absolute URLs (a relative
 * one makes the file invalid for crawlers and for Lighthouse). `/author/` and `/author$` rather
 * than `/author`, which as a prefix would also shut out the public /authors page.
 */
export const GET: APIRoute = ({ locals, url }) => {
  const site = locals.publicUrl ?? url.origin;
  const lines = [
    'User-agent: *',
    'Disallow: /admin',
    'Disallow: /author$',
    'Disallow: /author/',
    'Disallow: /account',
    'Disallow: /api/',
    '',
    `Sitemap: ${new URL(SITEMAP_INDEX_PATH, site).toString()}`,
  ];
  return new Response(`${lines.join('\n')}\n`, {
    status: 200,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
};

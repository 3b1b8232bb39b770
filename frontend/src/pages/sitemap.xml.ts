import type { APIRoute } from 'astro';
import { load } from '../lib/settle';
import { sitemapIndexResponse, sitemapUnavailable } from '../lib/sitemap';

/**
 * sitemap.xml: the sitemap index (isomorphic/sitemap.ts). Its files: /sitemap-pages.xml (home, /blog,
 * /authors), then the numbered files of published posts, tags and author pages
 * (sitemap-[file].xml.ts), at most 10,000 addresses each, each with its last change.
 */
export const GET: APIRoute = async ({ locals, url }) => {
  const index = await load(locals.api.GET('/api/v1/blog/posts/public/sitemap'));
  if (!index.ok) return sitemapUnavailable();
  return sitemapIndexResponse(locals.publicUrl ?? url.origin, index.data.files);
};

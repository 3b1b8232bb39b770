import type { APIRoute } from 'astro';
import { parseSitemapFileName, type SitemapEntryKind } from '../../../isomorphic/sitemap';
import { authorHref } from '../features/authors/texts';
import { load } from '../lib/settle';
import { sitemapFileResponse, sitemapNotFound, sitemapUnavailable } from '../lib/sitemap';

/** The page each kind's slugs name. */
const PAGE_OF: Record<SitemapEntryKind, (slug: string) => string> = {
  posts: (slug) => `/blog/${slug}`,
  tags: (slug) => `/blog/tag/${slug}`,
  authors: authorHref,
};
/** The pages every sitemap lists; they change whenever anything they show does. */
const STATIC_PAGES = ['/', '/blog', '/authors'];

/**
 * /sitemap-pages.xml and the numbered files /sitemap-{posts|tags|authors}-{n}.xml of the index
 * (sitemap.xml.ts): one file's rows read from the API (at most 10,000), never the whole table;
 * 404 for a name or number the index does not list.
 */
export const GET: APIRoute = async ({ locals, url, params }) => {
  const file = parseSitemapFileName(params.file);
  if (!file) return sitemapNotFound();
  const site = locals.publicUrl ?? url.origin;
  if (file.kind === 'pages') {
    const index = await load(locals.api.GET('/api/v1/blog/posts/public/sitemap'));
    if (!index.ok) return sitemapUnavailable();
    const lastmod = index.data.files.find((entry) => entry.kind === 'pages')?.lastmod;
    return sitemapFileResponse(
      site,
      STATIC_PAGES.map((path) => ({ path, lastmod })),
    );
  }
  const { kind, number } = file;
  const rows = await load(locals.api.GET('/api/v1/blog/posts/public/sitemap/{kind}/{number}', { params: { path: { kind, number } } }));
  if (!rows.ok) return rows.error.status === 404 || rows.error.status === 400 ? sitemapNotFound() : sitemapUnavailable();
  return sitemapFileResponse(
    site,
    rows.data.entries.map((entry) => ({ path: PAGE_OF[kind](entry.slug), lastmod: entry.updatedAt })),
  );
};

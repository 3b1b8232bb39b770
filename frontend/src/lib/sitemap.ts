import { sitemapFilePath, type SitemapFile } from '../../../isomorphic/sitemap';
import { xmlEscape } from './xml';

/**
 * The sitemap's XML (sitemaps.org 0.9): the index at /sitemap.xml and its files (isomorphic/sitemap.ts
 * names them), every address absolute (PUBLIC_URL), every date W3C (ISO 8601 in UTC).
 */
const XML_HEADERS = { 'Content-Type': 'application/xml; charset=utf-8' };
const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8' };
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const lastmodTag = (lastmod: string | null | undefined) => (lastmod ? `<lastmod>${new Date(lastmod).toISOString()}</lastmod>` : '');

/** The index: one <sitemap> per file, with its last change. */
export function sitemapIndexResponse(site: string, files: (SitemapFile & { lastmod: string | null })[]): Response {
  const items = files.map(
    (file) => `  <sitemap><loc>${xmlEscape(new URL(sitemapFilePath(file), site).toString())}</loc>${lastmodTag(file.lastmod)}</sitemap>`,
  );
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NAMESPACE}">\n${items.join('\n')}\n</sitemapindex>\n`,
    { status: 200, headers: XML_HEADERS },
  );
}

/** A file: one <url> per address (a site path), with its last change. */
export function sitemapFileResponse(site: string, urls: { path: string; lastmod: string | null | undefined }[]): Response {
  const items = urls.map((url) => `  <url><loc>${xmlEscape(new URL(url.path, site).toString())}</loc>${lastmodTag(url.lastmod)}</url>`);
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NAMESPACE}">\n${items.join('\n')}\n</urlset>\n`, {
    status: 200,
    headers: XML_HEADERS,
  });
}

/** The API could not answer: 503, plain text (crawlers come back). */
export function sitemapUnavailable(): Response {
  return new Response('The sitemap is unavailable right now. Please try again later.\n', { status: 503, headers: TEXT_HEADERS });
}

/** No such file (an unknown name, or a number the index does not list). */
export function sitemapNotFound(): Response {
  return new Response('This sitemap file does not exist. The list of files is at /sitemap.xml.\n', { status: 404, headers: TEXT_HEADERS });
}

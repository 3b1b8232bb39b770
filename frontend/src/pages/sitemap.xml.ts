import type { APIRoute } from 'astro';
import { load } from '../lib/settle';
import { xmlEscape } from '../lib/xml';
import { authorHref } from '../features/authors/texts';

/** sitemap.xml: home, /blog, /authors, every published post, every tag page and every author page, with lastmod. */
export const GET: APIRoute = async ({ locals, url }) => {
  const site = locals.publicUrl ?? url.origin;
  const sitemap = await load(locals.api.GET('/api/v1/blog/posts/public/sitemap'));
  if (!sitemap.ok) {
    return new Response('The sitemap is unavailable right now. Please try again later.\n', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const { posts, tags, authors } = sitemap.data;
  const newest = [...posts, ...tags].reduce<string | undefined>((max, entry) => (!max || entry.updatedAt > max ? entry.updatedAt : max), undefined);
  const entry = (path: string, lastmod?: string) =>
    `  <url><loc>${xmlEscape(new URL(path, site).toString())}</loc>${lastmod ? `<lastmod>${new Date(lastmod).toISOString()}</lastmod>` : ''}</url>`;
  const urls = [
    entry('/', newest),
    entry('/blog', newest),
    entry('/authors', newest),
    ...posts.map((post) => entry(`/blog/${post.slug}`, post.updatedAt)),
    ...tags.map((tag) => entry(`/blog/tag/${tag.slug}`, tag.updatedAt)),
    ...authors.map((author) => entry(authorHref(author.slug), author.updatedAt)),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};

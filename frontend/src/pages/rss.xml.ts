import type { APIRoute } from 'astro';
import { load } from '../lib/settle';
import { xmlEscape } from '../lib/xml';

/** RSS 2.0 feed of the 20 latest published posts, with absolute links from PUBLIC_URL. */
export const GET: APIRoute = async ({ locals, url }) => {
  const site = locals.publicUrl ?? url.origin;
  const posts = await load(locals.api.GET('/api/v1/blog/posts/public', { params: { query: { page: 0, size: 20 } } }));
  if (!posts.ok) {
    return new Response('The feed is unavailable right now. Please try again later.\n', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const items = posts.data.content.map((post) => {
    const link = new URL(`/blog/${post.slug}`, site).toString();
    const lines = [
      `<title>${xmlEscape(post.title)}</title>`,
      `<link>${xmlEscape(link)}</link>`,
      `<guid isPermaLink="true">${xmlEscape(link)}</guid>`,
      post.publishedAt ? `<pubDate>${new Date(post.publishedAt).toUTCString()}</pubDate>` : '',
      post.summary ? `<description>${xmlEscape(post.summary)}</description>` : '',
      `<dc:creator>${xmlEscape(post.authorName)}</dc:creator>`,
      ...post.tags.map((tag) => `<category>${xmlEscape(tag.name)}</category>`),
    ].filter(Boolean);
    return `    <item>\n      ${lines.join('\n      ')}\n    </item>`;
  });
  const latest = posts.data.content[0]?.publishedAt;
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Inkwell</title>
    <link>${xmlEscape(new URL('/', site).toString())}</link>
    <description>The latest stories from the authors of Inkwell.</description>
    <language>en</language>
    <atom:link href="${xmlEscape(new URL('/rss.xml', site).toString())}" rel="self" type="application/rss+xml" />
${latest ? `    <lastBuildDate>${new Date(latest).toUTCString()}</lastBuildDate>\n` : ''}${items.join('\n')}
  </channel>
</rss>
`;
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
};

import { xmlEscape } from './xml';
import type { PostCardData } from './api/schema';

/** How many of the newest posts a feed carries (the site feed, an author's, a tag's). */
export const FEED_SIZE = 20;

export interface FeedChannel {
  /** The site's origin (PUBLIC_URL), for absolute links. */
  site: string;
  title: string;
  description: string;
  /** The HTML page the feed follows (`/`, `/authors/{slug}`, `/blog/tag/{slug}`). */
  pagePath: string;
  /** The feed's own address. */
  feedPath: string;
}

const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8' };

/** An RSS 2.0 feed of post cards (newest first), with absolute links: the site feed, an author's, a tag's. */
export function rssResponse(channel: FeedChannel, posts: PostCardData[]): Response {
  const { site } = channel;
  const items = posts.map((post) => {
    // A canonical override (the post first appeared elsewhere) is where readers and aggregators go.
    const link = post.canonicalUrl ?? new URL(`/blog/${post.slug}`, site).toString();
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
  const latest = posts[0]?.publishedAt;
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${xmlEscape(channel.title)}</title>
    <link>${xmlEscape(new URL(channel.pagePath, site).toString())}</link>
    <description>${xmlEscape(channel.description)}</description>
    <language>en</language>
    <atom:link href="${xmlEscape(new URL(channel.feedPath, site).toString())}" rel="self" type="application/rss+xml" />
${latest ? `    <lastBuildDate>${new Date(latest).toUTCString()}</lastBuildDate>\n` : ''}${items.join('\n')}
  </channel>
</rss>
`;
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
}

/** The feed could not be read (the API is down): 503, plain text. */
export function feedUnavailable(): Response {
  return new Response('The feed is unavailable right now. Please try again later.\n', { status: 503, headers: TEXT_HEADERS });
}

/** No such author or tag: 404, plain text (`what`: 'Author "x"', 'Tag "x"'). */
export function feedNotFound(what: string): Response {
  return new Response(`${what} not found.\n`, { status: 404, headers: TEXT_HEADERS });
}

import type { APIRoute } from 'astro';
import { FEED_SIZE, feedUnavailable, rssResponse } from '../lib/rss';
import { load } from '../lib/settle';

/** RSS 2.0 feed of the 20 latest published posts, with absolute links from PUBLIC_URL. */
export const GET: APIRoute = async ({ locals, url }) => {
  const posts = await load(locals.api.GET('/api/v1/blog/posts/public', { params: { query: { page: 0, size: FEED_SIZE } } }));
  if (!posts.ok) return feedUnavailable();
  const channel = {
    site: locals.publicUrl ?? url.origin,
    title: 'Inkwell',
    description: 'The latest stories from the authors of Inkwell.',
    pagePath: '/',
    feedPath: '/rss.xml',
  };
  return rssResponse(channel, posts.data.content);
};

import type { APIRoute } from 'astro';
import { isValidSlug } from '../../../../lib/format';
import { FEED_SIZE, feedNotFound, feedUnavailable, rssResponse } from '../../../../lib/rss';
import { load } from '../../../../lib/settle';

/** /blog/tag/{slug}/rss.xml: a tag's 20 latest published posts; 404 for an unknown or inactive tag. */
export const GET: APIRoute = async ({ locals, url, params }) => {
  const slug = params.tagSlug;
  if (!isValidSlug(slug)) return feedNotFound(`Tag "${slug ?? ''}"`);
  const [posts, tags] = await Promise.all([
    load(locals.api.GET('/api/v1/blog/posts/public/tag/{slug}', { params: { path: { slug }, query: { page: 0, size: FEED_SIZE } } })),
    load(locals.api.GET('/api/v1/blog/tags/publish')),
  ]);
  if (!posts.ok) return posts.error.status === 404 ? feedNotFound(`Tag "${slug}"`) : feedUnavailable();
  const name = (tags.ok ? tags.data.find((tag) => tag.slug === slug)?.name : undefined) ?? slug;
  const channel = {
    site: locals.publicUrl ?? url.origin,
    title: `${name} · Inkwell`,
    description: `The latest stories tagged ${name} on Inkwell.`,
    pagePath: `/blog/tag/${slug}`,
    feedPath: `/blog/tag/${slug}/rss.xml`,
  };
  return rssResponse(channel, posts.data.content);
};

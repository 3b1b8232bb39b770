import type { APIRoute } from 'astro';
import { isValidSlug } from '../../../lib/format';
import { FEED_SIZE, feedNotFound, feedUnavailable, rssResponse } from '../../../lib/rss';
import { load } from '../../../lib/settle';

/** /authors/{slug}/rss.xml: an author's 20 latest published posts; 404 where the author page is 404. */
export const GET: APIRoute = async ({ locals, url, params }) => {
  const slug = params.slug;
  if (!isValidSlug(slug)) return feedNotFound(`Author "${slug ?? ''}"`);
  const [author, posts] = await Promise.all([
    load(locals.api.GET('/api/v1/blog/authors/{slug}', { params: { path: { slug } } })),
    load(locals.api.GET('/api/v1/blog/authors/{slug}/posts', { params: { path: { slug }, query: { page: 0, size: FEED_SIZE } } })),
  ]);
  if (!author.ok) return author.error.status === 404 ? feedNotFound(`Author "${slug}"`) : feedUnavailable();
  if (!posts.ok) return posts.error.status === 404 ? feedNotFound(`Author "${slug}"`) : feedUnavailable();
  const channel = {
    site: locals.publicUrl ?? url.origin,
    title: `${author.data.fullName} · Inkwell`,
    description: `The latest stories by ${author.data.fullName} on Inkwell.`,
    pagePath: `/authors/${slug}`,
    feedPath: `/authors/${slug}/rss.xml`,
  };
  return rssResponse(channel, posts.data.content);
};

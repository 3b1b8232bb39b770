/**
 * A tag's posts page, shared by its two routes (docs/requirements.md#screen-tag-lookup): /blog/tag/{tagSlug} asks for the
 * tag's posts directly; /tag/{slug} first looks the slug up among up to 1000 active tags. Both:
 * 12 posts a page, the `?page=` convention, a slug the tag had before a change answers 301 to its
 * current address (same query), an unknown tag 404, the API unreachable 503.
 */
import type { ApiClient } from '../../lib/api/client';
import { isValidSlug } from '../../lib/format';
import { pagedRequest } from '../../lib/paging';
import { load, retryHref, type Loaded } from '../../lib/settle';

const PAGE_SIZE = 12;

interface TagPageContext {
  url: URL;
  request: Request;
  locals: { api: ApiClient };
  response: { status?: number };
  redirect: (path: string, status?: 301 | 302 | 303 | 307 | 308) => Response;
}

/** Which route: under /tag the slug must be one of the active tags'. */
type TagRoute = { basePath: '/blog/tag' | '/tag' };

/** TagPostsView's props for `slug`, or the redirect to return. */
export async function tagPage(Astro: TagPageContext, slug: string, { basePath }: TagRoute) {
  const page = pagedRequest(Astro);
  if (page instanceof Response) return page;
  const { api } = Astro.locals;
  const readPosts = () =>
    load(api.GET('/api/v1/blog/posts/public/tag/{slug}', { params: { path: { slug }, query: { page, size: PAGE_SIZE } } }));
  const readTags = () => load(api.GET('/api/v1/blog/tags/publish'));
  let posts: Awaited<ReturnType<typeof readPosts>> | undefined;
  let tags: Awaited<ReturnType<typeof readTags>>;
  let mayHaveMoved: boolean;
  if (basePath === '/tag') {
    // The three calls run together (no waterfall); the posts are shown only when the lookup knows the tag.
    const [lookup, tagList, tagPosts] = await Promise.all([
      load(api.GET('/api/v1/blog/tags', { params: { query: { activeOnly: true, page: 0, size: 1000 } } })),
      readTags(),
      readPosts(),
    ]);
    const known = lookup.ok ? lookup.data.content.some((tag) => tag.slug === slug) : true;
    posts = known ? tagPosts : undefined;
    tags = tagList;
    mayHaveMoved = slug !== '';
  } else {
    [posts, tags] = await Promise.all([isValidSlug(slug) ? readPosts() : undefined, readTags()]);
    mayHaveMoved = posts !== undefined;
  }
  const shown = await settleTagPosts(Astro, slug, posts, mayHaveMoved, basePath);
  if (shown instanceof Response) return shown;
  return { slug, posts: shown, tags, page, basePath: `${basePath}/${slug}`, retryHref: retryHref(Astro.url) };
}

/** The posts to show (undefined: 'Tag Not Found', 404), or the 301 to a former slug's current address. */
async function settleTagPosts<T>(
  Astro: TagPageContext,
  slug: string,
  posts: Loaded<T> | undefined,
  mayHaveMoved: boolean,
  basePath: string,
): Promise<Loaded<T> | undefined | Response> {
  const missing = posts === undefined || (!posts.ok && posts.error.status === 404);
  const moved =
    missing && mayHaveMoved
      ? await load(Astro.locals.api.GET('/api/v1/blog/tags/moved/{slug}', { params: { path: { slug } } }))
      : undefined;
  if (moved?.ok) return Astro.redirect(`${basePath}/${moved.data.slug}${Astro.url.search}`, 301);
  if (missing) Astro.response.status = 404;
  else if (!posts.ok) Astro.response.status = 503;
  return missing ? undefined : posts;
}

import { ApiError } from './api/errors';
import { CommonTexts } from './texts/common';
import type { paths } from './api/schema';
import type { Loaded } from './settle';

/** The envelope `data` of a public GET endpoint's 200 answer, from the OpenAPI types. */
type DataOf<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data: infer T } } } } } } ? T : never;

/** What the server hands over: the API's data, or the status and message the API would have answered. */
type ContentResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

/**
 * The public reads, answered in process by the Nest server (backend/src/frontend/public-content.ts,
 * PublicContentService): each method returns what the named endpoint's envelope carries, without
 * an HTTP round trip per render. Reads that need the visitor's session use `Astro.locals.api`.
 */
export interface PublicContentSource {
  latestStories(): Promise<ContentResult<DataOf<'/api/v1/blog/posts/public/latest-stories'>>>;
  publishedPosts(page: number, size: number): Promise<ContentResult<DataOf<'/api/v1/blog/posts/public'>>>;
  /** Counts a view, like GET /api/v1/blog/posts/public/{slug}. */
  postBySlug(slug: string): Promise<ContentResult<DataOf<'/api/v1/blog/posts/public/{slug}'>>>;
  postsByTag(tagSlug: string, page: number, size: number): Promise<ContentResult<DataOf<'/api/v1/blog/posts/public/tag/{slug}'>>>;
  publishedTags(): Promise<ContentResult<DataOf<'/api/v1/blog/tags/publish'>>>;
  /** Active tags as an anonymous reader lists them (GET /api/v1/blog/tags?activeOnly=true). */
  activeTags(page: number, size: number): Promise<ContentResult<DataOf<'/api/v1/blog/tags'>>>;
  authors(): Promise<ContentResult<DataOf<'/api/v1/blog/authors'>>>;
  sitemap(): Promise<ContentResult<DataOf<'/api/v1/blog/posts/public/sitemap'>>>;
}

/** The same reads as the pages use them: each settles to Loaded (data, or an ApiError for the error state). */
export type PublicContent = {
  [K in keyof PublicContentSource]: (
    ...args: Parameters<PublicContentSource[K]>
  ) => Promise<Loaded<Awaited<ReturnType<PublicContentSource[K]>> extends ContentResult<infer T> ? T : never>>;
};

/** One wrapper per source: the server hands every request the same one. */
const wrappers = new WeakMap<PublicContentSource, PublicContent>();

/** Wraps the server's source so that every read settles to Loaded, never throws. */
export function publicContent(source: PublicContentSource): PublicContent {
  let content = wrappers.get(source);
  if (!content) {
    content = wrap(source);
    wrappers.set(source, content);
  }
  return content;
}

function wrap(source: PublicContentSource): PublicContent {
  const settle = async <T>(read: () => Promise<ContentResult<T>>): Promise<Loaded<T>> => {
    try {
      const result = await read();
      return result.ok ? result : { ok: false, error: new ApiError(result.message, result.status) };
    } catch {
      return { ok: false, error: new ApiError(CommonTexts.UNEXPECTED_ERROR, 500) };
    }
  };
  return {
    latestStories: () => settle(() => source.latestStories()),
    publishedPosts: (page, size) => settle(() => source.publishedPosts(page, size)),
    postBySlug: (slug) => settle(() => source.postBySlug(slug)),
    postsByTag: (tagSlug, page, size) => settle(() => source.postsByTag(tagSlug, page, size)),
    publishedTags: () => settle(() => source.publishedTags()),
    activeTags: (page, size) => settle(() => source.activeTags(page, size)),
    authors: () => settle(() => source.authors()),
    sitemap: () => settle(() => source.sitemap()),
  };
}

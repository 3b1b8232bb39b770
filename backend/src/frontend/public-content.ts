import { Injectable, Logger } from '@nestjs/common';
import { describeException } from '../common/filters/all-exceptions.filter';
import { clampSize, DEFAULT_PAGE_SIZE, MAX_LOOKUP_PAGE_SIZE, MAX_PAGE_SIZE, Page } from '../common/pagination/page';
import { WellFormedTextPipe } from '../common/validation/well-formed-text.pipe';
import { AuthorSummaryDto, PostCardResponseDto, PostResponseDto, SitemapResponseDto } from '../posts/dto/post-response.dto';
import { PostsPublicService } from '../posts/posts-public.service';
import { TagPageDto, TagResponseDto } from '../tags/dto/tag-response.dto';
import { TagsService } from '../tags/tags.service';

/** An in-process answer: the API's `data`, or the status and message the API would have answered. */
export type ContentResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

/** `?page&size` as the API's PageQueryDto reads them: a whole page from 0, the size clamped into [1, max]. */
function paging(page: number, size: number, max = MAX_PAGE_SIZE): { page: number; size: number } {
  return { page: Number.isSafeInteger(page) && page > 0 ? page : 0, size: clampSize(size, DEFAULT_PAGE_SIZE, max) };
}

/** The API's global text rule (WellFormedTextPipe) for the values pages take from the URL: NUL or a lone surrogate is 400. */
const wellFormedText = new WellFormedTextPipe();
function wellFormed(value: string, field: string): string {
  return wellFormedText.transform(value, { type: 'param', data: field }) as string;
}

/**
 * The public reads of the Astro pages, answered in process. Each method is the same service call as
 * a public API endpoint (named beside it), with the same data and error texts, minus the loopback
 * HTTP round trip a server render used to make (request, helmet, JSON both ways): the post page
 * renders about twice as fast without it. Anything that needs the visitor's session still goes
 * through the typed API client (`Astro.locals.api`).
 *
 * The pages see this as `Astro.locals.content` (frontend/src/lib/public-content.ts declares the same
 * methods with the OpenAPI types); a test checks every answer against the HTTP API's.
 */
@Injectable()
export class PublicContentService {
  private readonly logger = new Logger('PublicContent');

  constructor(
    private readonly posts: PostsPublicService,
    private readonly tags: TagsService,
  ) {}

  /** GET /api/v1/blog/posts/public/latest-stories */
  latestStories(): Promise<ContentResult<PostCardResponseDto[]>> {
    return this.settle(() => this.posts.latest());
  }

  /** GET /api/v1/blog/posts/public?page&size */
  publishedPosts(page: number, size: number): Promise<ContentResult<Page<PostCardResponseDto>>> {
    const query = paging(page, size);
    return this.settle(() => this.posts.list(query.page, query.size));
  }

  /** GET /api/v1/blog/posts/public/{slug} (counts a view, like the endpoint) */
  postBySlug(slug: string): Promise<ContentResult<PostResponseDto>> {
    return this.settle(() => this.posts.bySlug(wellFormed(slug, 'slug')));
  }

  /** GET /api/v1/blog/posts/public/tag/{slug}?page&size (newest first) */
  postsByTag(tagSlug: string, page: number, size: number): Promise<ContentResult<Page<PostCardResponseDto>>> {
    return this.settle(() => this.posts.byTag(wellFormed(tagSlug, 'slug'), paging(page, size)));
  }

  /** GET /api/v1/blog/tags/publish */
  publishedTags(): Promise<ContentResult<TagResponseDto[]>> {
    return this.settle(() => this.tags.published());
  }

  /** GET /api/v1/blog/tags?activeOnly=true&page&size, as an anonymous reader sees it */
  activeTags(page: number, size: number): Promise<ContentResult<TagPageDto>> {
    return this.settle(() => this.tags.list({ ...paging(page, size, MAX_LOOKUP_PAGE_SIZE), activeOnly: true }, false));
  }

  /** GET /api/v1/blog/authors */
  authors(): Promise<ContentResult<AuthorSummaryDto[]>> {
    return this.settle(() => this.posts.authors());
  }

  /** GET /api/v1/blog/posts/public/sitemap */
  sitemap(): Promise<ContentResult<SitemapResponseDto>> {
    return this.settle(() => this.posts.sitemap());
  }

  /** Runs a read; failures become the API's status and text (unexpected ones are logged, as the API does). */
  private async settle<T>(read: () => Promise<T>): Promise<ContentResult<T>> {
    try {
      return { ok: true, data: await read() };
    } catch (error) {
      const { status, message } = describeException(error);
      if (status >= 500) this.logger.error({ err: error }, error instanceof Error ? error.stack : String(error));
      return { ok: false, status, message };
    }
  }
}

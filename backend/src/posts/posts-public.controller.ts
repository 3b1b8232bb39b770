import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiPagedEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Page, PageQueryDto } from '../common/pagination/page';
import { PostMovedPathQueryDto, PostTagQueryDto } from './dto/post-input.dto';
import {
  AuthorProfileDto,
  AuthorSummaryDto,
  PostCardResponseDto,
  PostMovedDto,
  PostResponseDto,
  SitemapFileDto,
  SitemapIndexDto,
} from './dto/post-response.dto';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { SITEMAP_ENTRY_KINDS, SITEMAP_FILE_SIZE } from '../../../isomorphic/sitemap';
import { PostsMessages } from './posts.messages';
import { PostsPublicService } from './posts-public.service';

const FILE_SIZE = SITEMAP_FILE_SIZE.toLocaleString('en');

/** What anyone may read: published posts only, never an e-mail address. */
@ApiTags('Public posts')
@Controller('blog')
export class PostsPublicController {
  constructor(private readonly posts: PostsPublicService) {}

  @Get('posts/public')
  @ApiOperation({ summary: 'Published posts, newest first (published_at DESC, id DESC); size defaults to 10, clamped to 1–100' })
  @ApiPagedEnvelope(PostCardResponseDto)
  @ApiErrors(400)
  listPublicPosts(@Query() query: PageQueryDto): Promise<Page<PostCardResponseDto>> {
    return this.posts.list(query.page, query.size);
  }

  @Get('posts/public/latest-stories')
  @ApiOperation({ summary: 'The 6 latest published posts' })
  @ApiEnvelope(PostCardResponseDto, { isArray: true })
  listLatestStories(): Promise<PostCardResponseDto[]> {
    return this.posts.latest();
  }

  @Get('posts/public/sitemap')
  @ApiOperation({
    summary: `The sitemap index (sitemap.xml): the static pages, then the numbered files of published posts, active tags with published posts and author pages, at most ${FILE_SIZE} addresses each, with their last change; noindex posts and posts whose canonical URL points elsewhere are left out`,
  })
  @ApiEnvelope(SitemapIndexDto)
  getPublicSitemap(): Promise<SitemapIndexDto> {
    return this.posts.sitemapIndex();
  }

  @Get('posts/public/sitemap/:kind/:number')
  @ApiOperation({
    summary: `One numbered sitemap file: the slugs and last changes of a kind's listed rows in the file's id range, at most ${FILE_SIZE}; 404 when it lists nothing`,
  })
  @ApiParam({ name: 'kind', enum: SITEMAP_ENTRY_KINDS })
  @ApiParam({ name: 'number', description: 'The file number (1, 2, …) the index names', type: Number })
  @ApiEnvelope(SitemapFileDto)
  @ApiErrors(400, 404)
  getPublicSitemapFile(
    @Param('kind') kind: string,
    @Param('number', new ParseIdPipe(PostsMessages.SITEMAP_FILE_NUMBER_INVALID)) number: number,
  ): Promise<SitemapFileDto> {
    return this.posts.sitemapFile(kind, number);
  }

  @Get('posts/public/tag/:slug')
  @ApiOperation({ summary: 'Published posts of an active tag; sort "field,direction" (default publishedAt,desc)' })
  @ApiParam({ name: 'slug', description: 'Tag slug' })
  @ApiPagedEnvelope(PostCardResponseDto)
  @ApiErrors(400, 404)
  listPublicPostsByTag(@Param('slug') slug: string, @Query() query: PostTagQueryDto): Promise<Page<PostCardResponseDto>> {
    return this.posts.byTag(slug, query);
  }

  @Get('posts/public/moved/:slug')
  @ApiOperation({
    summary:
      "Where a post's old slug leads now (public): the current slug of the published post that had it before a change; 404 otherwise. /blog/{old} answers 301 there; GET posts/public/{slug} stays 404 for old slugs",
  })
  @ApiParam({ name: 'slug', description: 'A slug the post had before' })
  @ApiEnvelope(PostMovedDto)
  @ApiErrors(404)
  getMovedPostSlug(@Param('slug') slug: string): Promise<PostMovedDto> {
    return this.posts.movedSlug(slug);
  }

  @Get('posts/public/moved-path')
  @ApiOperation({
    summary:
      "Where a former site's path leads now (public): the current slug of the published post an import gave that path (a WordPress post's /YYYY/MM/DD/slug/ or /YYYY/MM/slug/, a page's /about/team/); 404 otherwise. The page at that path answers 301 there",
  })
  @ApiEnvelope(PostMovedDto)
  @ApiErrors(400, 404)
  getMovedPostPath(@Query() query: PostMovedPathQueryDto): Promise<PostMovedDto> {
    return this.posts.movedPath(query.path);
  }

  @Get('posts/public/:slug')
  @ApiOperation({ summary: 'A published post by slug (counts a view); 404 for unknown or unpublished slugs' })
  @ApiEnvelope(PostResponseDto)
  @ApiErrors(404)
  getPublicPostBySlug(@Param('slug') slug: string): Promise<PostResponseDto> {
    return this.posts.bySlug(slug);
  }

  @Get('authors')
  @ApiOperation({ summary: 'Authors (AUTHOR role, active) with at least one published post, with their published count and likes' })
  @ApiEnvelope(AuthorSummaryDto, { isArray: true })
  listAuthors(): Promise<AuthorSummaryDto[]> {
    return this.posts.authors();
  }

  @Get('authors/:slug')
  @ApiOperation({
    summary: "An author's public profile (/authors/{slug}); 404 unless an active AUTHOR (or ADMIN) with at least one published post",
  })
  @ApiParam({ name: 'slug', description: 'Author slug (users.slug)' })
  @ApiEnvelope(AuthorProfileDto)
  @ApiErrors(404)
  getAuthor(@Param('slug') slug: string): Promise<AuthorProfileDto> {
    return this.posts.author(slug);
  }

  @Get('authors/:slug/posts')
  @ApiOperation({
    summary:
      "An author's published posts, newest first (published_at DESC, id DESC); size defaults to 10, clamped to 1–100; 404 like GET authors/{slug}",
  })
  @ApiParam({ name: 'slug', description: 'Author slug (users.slug)' })
  @ApiPagedEnvelope(PostCardResponseDto)
  @ApiErrors(400, 404)
  listAuthorPosts(@Param('slug') slug: string, @Query() query: PageQueryDto): Promise<Page<PostCardResponseDto>> {
    return this.posts.authorPosts(slug, query.page, query.size);
  }
}

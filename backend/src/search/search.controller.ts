import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { PostCardResponseDto } from '../posts/dto/post-response.dto';
import { SearchPageDto, SearchQueryDto } from './dto/search.dto';
import { SearchService } from './search.service';

/** Search and related posts: published posts only, the same answer for every reader. */
@ApiTags('Search')
@Controller('blog')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get('search')
  @ApiOperation({
    summary:
      'Full-text search over published posts (title, summary, tags, body; accents optional), best first; "quoted phrase", -word, or. ' +
      'When nothing matches, a query with misspelt words corrected (didYouMean) and its hits. totalElements is the exact number of matches, and paging reaches every one. size defaults to 10, clamped to 1–100',
  })
  @ApiEnvelope(SearchPageDto)
  @ApiErrors(400)
  searchPosts(@Query() query: SearchQueryDto): Promise<SearchPageDto> {
    return this.search.search(query);
  }

  @Get('posts/public/:slug/related')
  @ApiOperation({
    summary: 'Up to 4 published posts sharing tags with a published post, most similar titles first; 404 for unknown or unpublished slugs',
  })
  @ApiParam({ name: 'slug', description: 'Post slug' })
  @ApiEnvelope(PostCardResponseDto, { isArray: true })
  @ApiErrors(404)
  listRelatedPosts(@Param('slug') slug: string): Promise<PostCardResponseDto[]> {
    return this.search.related(slug);
  }
}

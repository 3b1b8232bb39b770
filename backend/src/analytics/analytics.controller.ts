import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import { AnalyticsMessages } from './analytics.messages';
import { AnalyticsQueryService } from './analytics-query.service';
import { StatsDto, StatsQueryDto } from './dto/analytics.dto';

const AUTHOR = Auth({ role: RoleName.AUTHOR, unauthenticated: AnalyticsMessages.AUTH_REQUIRED, forbidden: AnalyticsMessages.FORBIDDEN });
const ADMIN = Auth({ role: RoleName.ADMIN, unauthenticated: AnalyticsMessages.AUTH_REQUIRED, forbidden: AnalyticsMessages.FORBIDDEN_SITE });
const FIGURES =
  'views and unique visitors per UTC day (every day of the range, oldest first), their totals, the 10 most viewed posts, ' +
  'views per source group (direct, search, social, fediverse, newsletter, internal, other), the 10 most frequent sources with their hosts, ' +
  'and views per device class; over the last ?days UTC days (1–365, default 30; today included). Counted on the server, without cookies (docs/analytics.md)';

/** Page-view figures (docs/analytics.md): an author's own posts with the `read` scope, the site's with `admin`. */
@ApiTags('Analytics')
@Controller()
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsQueryService) {}

  @Get('analytics/me')
  @AUTHOR
  @ApiOperation({ summary: `The caller's own posts (AUTHOR or ADMIN): ${FIGURES}` })
  @ApiEnvelope(StatsDto)
  @ApiErrors(400)
  getMyAnalytics(@CurrentUser() user: AuthUser, @Query() query: StatsQueryDto): Promise<StatsDto> {
    return this.analytics.mine(user, query.days);
  }

  @Get('analytics/posts/:id')
  @AUTHOR
  @ApiOperation({ summary: `One post, its author's or any for an admin (403 for another author's post): ${FIGURES}; topPosts is empty` })
  @ApiEnvelope(StatsDto)
  @ApiErrors(400, 404)
  getPostAnalytics(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: number, @Query() query: StatsQueryDto): Promise<StatsDto> {
    return this.analytics.post(user, id, query.days);
  }

  @Get('admin/analytics')
  @ADMIN
  @ApiOperation({ summary: `The whole site, every public page (admin): ${FIGURES}; with the 10 most viewed authors` })
  @ApiEnvelope(StatsDto)
  @ApiErrors(400)
  getSiteAnalytics(@Query() query: StatsQueryDto): Promise<StatsDto> {
    return this.analytics.site(query.days);
  }

  @Get('admin/analytics/authors/:id')
  @ADMIN
  @ApiOperation({ summary: `One author's posts (admin): ${FIGURES}` })
  @ApiEnvelope(StatsDto)
  @ApiErrors(400, 404)
  getAuthorAnalytics(@Param('id', ParseIdPipe) id: number, @Query() query: StatsQueryDto): Promise<StatsDto> {
    return this.analytics.author(id, query.days);
  }
}

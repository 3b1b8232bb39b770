import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { RoleName } from '../users/roles';
import { DashboardsMessages } from './dashboards.messages';
import { DashboardsService } from './dashboards.service';
import { AdminActivityQueryDto } from './dto/dashboard-input.dto';
import { AdminActivityDto, AuthorDashboardStatsDto, QuickStatsDto, ReaderDashboardStatsDto } from './dto/dashboard.dto';

const READER = Auth({ unauthenticated: DashboardsMessages.AUTH_REQUIRED, forbidden: DashboardsMessages.FORBIDDEN });
const READER_SUMMARY =
  "The caller's reader dashboard (any signed-in role): join date and name; likes, comments, posts liked and commented, weekly averages (one decimal); " +
  'likes and comments of the last 7 days (newest first, at most 5)';

@ApiTags('Dashboards')
@Controller('dashboard')
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  @Get('stats')
  @READER
  @ApiOperation({ summary: READER_SUMMARY })
  @ApiEnvelope(ReaderDashboardStatsDto)
  getDashboardStats(@CurrentUser() user: AuthUser): Promise<ReaderDashboardStatsDto> {
    return this.dashboards.readerStats(user);
  }

  @Get('user/stats')
  @READER
  @ApiOperation({ summary: `${READER_SUMMARY}; the same as GET /dashboard/stats` })
  @ApiEnvelope(ReaderDashboardStatsDto)
  getUserDashboardStats(@CurrentUser() user: AuthUser): Promise<ReaderDashboardStatsDto> {
    return this.dashboards.readerStats(user);
  }

  @Get('author/stats')
  @Auth({ role: RoleName.AUTHOR, unauthenticated: DashboardsMessages.AUTH_REQUIRED, forbidden: DashboardsMessages.FORBIDDEN })
  @ApiOperation({
    summary:
      "The author dashboard (AUTHOR or ADMIN): every post in the system, the caller's posts, published posts and drafts, active tags, " +
      "and the newest 10 events on the caller's posts (created, waiting for review, published, rejected with the reason) with links",
  })
  @ApiEnvelope(AuthorDashboardStatsDto)
  getAuthorDashboardStats(@CurrentUser() user: AuthUser): Promise<AuthorDashboardStatsDto> {
    return this.dashboards.authorStats(user);
  }

  @Get('admin/activity')
  @Auth({ role: RoleName.ADMIN, unauthenticated: DashboardsMessages.ADMIN_AUTH_REQUIRED, forbidden: DashboardsMessages.FORBIDDEN_ADMIN })
  @ApiOperation({
    summary:
      'New users, posts, comments (not deleted) and likes per UTC day over the last ?days days (1–365, default 30; today included), ' +
      'oldest first, every day present (admin)',
  })
  @ApiEnvelope(AdminActivityDto)
  @ApiErrors(400)
  getAdminActivity(@Query() query: AdminActivityQueryDto): Promise<AdminActivityDto> {
    return this.dashboards.adminActivity(query.days);
  }

  @Get('quick-stats')
  @ApiOperation({
    summary: "Site totals and today's (since 00:00 UTC) new users, published posts, comments and likes (public; at most 5 s old)",
  })
  @ApiEnvelope(QuickStatsDto)
  getQuickStats(): Promise<QuickStatsDto> {
    return this.dashboards.quickStats();
  }
}

import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth-user';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { Auth, CurrentUser } from '../common/decorators/auth.decorator';
import { DashboardsMessages } from './dashboards.messages';
import { DashboardsService } from './dashboards.service';
import { QuickStatsDto, ReaderDashboardStatsDto } from './dto/dashboard.dto';

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

  @Get('quick-stats')
  @ApiOperation({ summary: "Site totals and today's (since 00:00 UTC) new users, published posts, comments and likes (public; at most 5 s old)" })
  @ApiEnvelope(QuickStatsDto)
  getQuickStats(): Promise<QuickStatsDto> {
    return this.dashboards.quickStats();
  }
}

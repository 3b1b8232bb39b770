import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { RoleName } from '../users/roles';
import { AdminMessages } from './admin.messages';
import { AdminStatsService } from './admin-stats.service';
import { AdminStatsDto } from './dto/admin-user-response.dto';

/** GET /dashboard/admin/stats: the path the spec's admin dashboard calls (docs/requirements.md#api-dashboards Dashboards). */
@ApiTags('Dashboards')
@Controller('dashboard/admin')
export class AdminDashboardController {
  constructor(private readonly stats: AdminStatsService) {}

  @Get('stats')
  @Auth({ role: RoleName.ADMIN, forbidden: AdminMessages.DASHBOARD_FORBIDDEN, unauthenticated: AdminMessages.DASHBOARD_AUTH_REQUIRED })
  @ApiOperation({
    summary:
      "Admin dashboard (admin): users by status, posts, tags, views, likes, comments, the caller's posts and drafts, the latest 10 activities of the audit log, lastUpdated",
  })
  @ApiEnvelope(AdminStatsDto)
  getAdminDashboardStats(@CurrentUser() actor: AuthUser): Promise<AdminStatsDto> {
    return this.stats.stats(actor);
  }
}

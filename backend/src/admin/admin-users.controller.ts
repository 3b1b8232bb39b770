import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuditEntryPageDto } from '../audit/dto/audit-entry-response.dto';
import type { AuthUser } from '../auth/auth-user';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { PageQueryDto } from '../common/pagination/page';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import { UserStatus } from '../users/entities/user.entity';
import { AdminMessages } from './admin.messages';
import { parseFlag, UpperEnumPipe } from './admin-params.pipe';
import { AdminStatsService } from './admin-stats.service';
import { AdminUsersService } from './admin-users.service';
import {
  AdminUserBanDto,
  AdminUserCreateDto,
  AdminUserQueryDto,
  AdminUserSearchQueryDto,
  AdminUserUpdateDto,
} from './dto/admin-user-input.dto';
import { AdminBanStatusDto, AdminGeneratedPasswordDto, AdminStatsDto, AdminUserDto, AdminUserPageDto } from './dto/admin-user-response.dto';

const ADMIN = Auth({ role: RoleName.ADMIN, forbidden: AdminMessages.FORBIDDEN, unauthenticated: AdminMessages.AUTH_REQUIRED });
const FILTERS =
  'Filters: status, isVerified, role (the role that counts: the highest held, none = USER). Default sort createdAt desc, size 10.';

@ApiTags('Admin users')
@Controller('admin')
export class AdminUsersController {
  constructor(
    private readonly users: AdminUsersService,
    private readonly stats: AdminStatsService,
  ) {}

  @Get('users')
  @ADMIN
  @ApiOperation({ summary: `Users, paged (admin). search: part of the full name or e-mail. ${FILTERS}` })
  @ApiEnvelope(AdminUserPageDto)
  @ApiErrors(400)
  listAdminUsers(@Query() query: AdminUserQueryDto): Promise<AdminUserPageDto> {
    return this.users.list({ search: query.search, status: query.status, isVerified: query.isVerified, role: query.role }, query);
  }

  @Get('users/search')
  @ADMIN
  @ApiOperation({ summary: `Users whose full name or e-mail contains query (admin); the same answer as GET /admin/users. ${FILTERS}` })
  @ApiEnvelope(AdminUserPageDto)
  @ApiErrors(400)
  searchAdminUsers(@Query() query: AdminUserSearchQueryDto): Promise<AdminUserPageDto> {
    return this.users.list({ search: query.query, status: query.status, isVerified: query.isVerified, role: query.role }, query);
  }

  @Get('users/status/:status')
  @ADMIN
  @ApiOperation({ summary: 'Users of one status, newest first (admin)' })
  @ApiParam({ name: 'status', enum: UserStatus, enumName: 'UserStatus' })
  @ApiEnvelope(AdminUserPageDto)
  @ApiErrors(400)
  listAdminUsersByStatus(
    @Param('status', new UpperEnumPipe(Object.values(UserStatus), AdminMessages.INVALID_STATUS)) status: UserStatus,
    @Query() query: PageQueryDto,
  ): Promise<AdminUserPageDto> {
    return this.users.list({ status }, query);
  }

  @Get('users/verified/:flag')
  @ADMIN
  @ApiOperation({ summary: 'Verified (true) or unverified (false) users, newest first (admin)' })
  @ApiParam({ name: 'flag', enum: ['true', 'false'] })
  @ApiEnvelope(AdminUserPageDto)
  @ApiErrors(400)
  listAdminUsersByVerification(@Param('flag') flag: string, @Query() query: PageQueryDto): Promise<AdminUserPageDto> {
    return this.users.list({ isVerified: parseFlag(flag, AdminMessages.INVALID_FLAG) }, query);
  }

  @Get('users/role/:role')
  @ADMIN
  @ApiOperation({ summary: 'Users whose role that counts (the highest held; none = USER) is this one, newest first (admin)' })
  @ApiParam({ name: 'role', enum: RoleName, enumName: 'RoleName' })
  @ApiEnvelope(AdminUserPageDto)
  @ApiErrors(400)
  listAdminUsersByRole(
    @Param('role', new UpperEnumPipe(Object.values(RoleName), AdminMessages.INVALID_ROLE)) role: RoleName,
    @Query() query: PageQueryDto,
  ): Promise<AdminUserPageDto> {
    return this.users.list({ role }, query);
  }

  @Get('users/:id')
  @ADMIN
  @ApiOperation({ summary: 'One user with roles, post and comment totals (admin)' })
  @ApiEnvelope(AdminUserDto)
  @ApiErrors(400, 404)
  getAdminUser(@Param('id', ParseIdPipe) id: number): Promise<AdminUserDto> {
    return this.users.get(id);
  }

  @Get('users/:id/ban-status')
  @ADMIN
  @ApiOperation({ summary: "The user's open ban: reason, time, banning admin, admin note (all null when not banned) (admin)" })
  @ApiEnvelope(AdminBanStatusDto)
  @ApiErrors(400, 404)
  getAdminUserBanStatus(@Param('id', ParseIdPipe) id: number): Promise<AdminBanStatusDto> {
    return this.users.banStatus(id);
  }

  @Get('users/:id/audit-log')
  @ADMIN
  @ApiOperation({ summary: 'Audit entries about the user or by the user, newest first (admin)' })
  @ApiEnvelope(AuditEntryPageDto)
  @ApiErrors(400, 404)
  getAdminUserAuditLog(@Param('id', ParseIdPipe) id: number, @Query() query: PageQueryDto): Promise<AuditEntryPageDto> {
    return this.users.auditLog(id, query.page, query.size);
  }

  @Post('users')
  @ADMIN
  @ApiOperation({ summary: 'Create a user (admin): roles, status, optionally verified; 409 when the e-mail is registered' })
  @ApiEnvelope(AdminUserDto, { status: 201 })
  @ApiErrors(400, 409)
  async createAdminUser(@Body() dto: AdminUserCreateDto, @CurrentUser() actor: AuthUser): Promise<WithMessage<AdminUserDto>> {
    return withMessage(await this.users.create(dto, actor), AdminMessages.USER_CREATED);
  }

  @Put('users/:id')
  @ADMIN
  @ApiOperation({
    summary:
      'Edit a user, partially (admin): fullName, bio, roles (replace), status, isVerified. BANNED is refused (400: use ban); a banned user changes status only by unban (409). ' +
      "Nobody deactivates or demotes their own account, and the last active admin keeps ADMIN (409). Losing access ends the user's sessions.",
  })
  @ApiEnvelope(AdminUserDto)
  @ApiErrors(400, 404, 409)
  async updateAdminUser(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: AdminUserUpdateDto,
    @CurrentUser() actor: AuthUser,
  ): Promise<WithMessage<AdminUserDto>> {
    return withMessage(await this.users.update(id, dto, actor), AdminMessages.USER_UPDATED);
  }

  @Post('users/:id/generate-password')
  @HttpCode(200)
  @ADMIN
  @ApiOperation({
    summary:
      "Set a strong random password (admin), e-mail it to the user and end all the user's sessions; the answer shows it once. Not for oneself (409)",
  })
  @ApiEnvelope(AdminGeneratedPasswordDto)
  @ApiErrors(400, 404, 409)
  async generateAdminUserPassword(
    @Param('id', ParseIdPipe) id: number,
    @CurrentUser() actor: AuthUser,
  ): Promise<WithMessage<AdminGeneratedPasswordDto>> {
    const result = await this.users.generatePassword(id, actor);
    return withMessage(result, result.emailed ? AdminMessages.PASSWORD_GENERATED : AdminMessages.PASSWORD_GENERATED_NOT_MAILED);
  }

  @Post('users/:id/ban')
  @HttpCode(200)
  @ADMIN
  @ApiOperation({
    summary:
      'Ban a user with a reason (admin): status BANNED, every session ends at once. Not oneself, not the last active admin (409); already banned: 409',
  })
  @ApiEnvelope(AdminUserDto)
  @ApiErrors(400, 404, 409)
  async banAdminUser(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: AdminUserBanDto,
    @CurrentUser() actor: AuthUser,
  ): Promise<WithMessage<AdminUserDto>> {
    return withMessage(await this.users.ban(id, dto, actor), AdminMessages.USER_BANNED);
  }

  @Post('users/:id/unban')
  @HttpCode(200)
  @ADMIN
  @ApiOperation({ summary: 'Unban a user with a reason (admin): status ACTIVE; the ban stays in the history. Not banned: 409' })
  @ApiEnvelope(AdminUserDto)
  @ApiErrors(400, 404, 409)
  async unbanAdminUser(
    @Param('id', ParseIdPipe) id: number,
    @Body() dto: AdminUserBanDto,
    @CurrentUser() actor: AuthUser,
  ): Promise<WithMessage<AdminUserDto>> {
    return withMessage(await this.users.unban(id, dto, actor), AdminMessages.USER_UNBANNED);
  }

  @Get('stats')
  @Auth({ role: RoleName.ADMIN, forbidden: AdminMessages.DASHBOARD_FORBIDDEN, unauthenticated: AdminMessages.DASHBOARD_AUTH_REQUIRED })
  @ApiOperation({ summary: 'The admin dashboard numbers and the latest 10 activities (admin); the same as GET /dashboard/admin/stats' })
  @ApiEnvelope(AdminStatsDto)
  getAdminStats(@CurrentUser() actor: AuthUser): Promise<AdminStatsDto> {
    return this.stats.stats(actor);
  }
}

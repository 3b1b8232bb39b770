import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Response } from 'express';
import { clearSessionCookies } from '../auth/auth.cookies';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import type { AuthUser } from '../auth/auth-user';
import { RoleName } from '../users/roles';
import { AdminMessages } from '../admin/admin.messages';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { APP_CONFIG, AppConfig } from '../config/env';
import { AccountDataMessages } from './account-data.messages';
import { AccountDeletionService } from './account-deletion.service';
import { AccountExportService } from './account-export.service';
import {
  AccountDeletionCancelDto,
  AccountDeletionPolicyDto,
  AccountDeletionRequestDto,
  AccountDeletionScheduledDto,
  AccountExportDto,
} from './dto/account-data.dto';

/** 'Your data' on /account: the data export and account deletion. */
@ApiTags('Your data')
@Controller('account')
export class AccountDataController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deletion: AccountDeletionService,
    private readonly exports: AccountExportService,
  ) {}

  @Get('deletion')
  @Auth()
  @ApiOperation({ summary: "What 'Delete my account' will do: the grace period before the erasure, in days" })
  @ApiEnvelope(AccountDeletionPolicyDto)
  getAccountDeletionPolicy(): AccountDeletionPolicyDto {
    return { graceDays: this.config.accountDeletionGraceDays };
  }

  @Post('deletion')
  @HttpCode(200)
  @Auth()
  @ApiOperation({
    summary: 'Delete my account: with the password, the typed word DELETE and the two-factor code when it is on',
    description:
      'The account is disabled at once (every session ends, the session cookies are cleared) and erased after ACCOUNT_DELETION_GRACE_DAYS (default 7). ' +
      "Signing in meanwhile answers 403 'Your account is scheduled for deletion on …' and POST /account/deletion/cancel gives it back. " +
      'Wrong password: 400 on password; the last active administrator: 409.',
  })
  @ApiEnvelope(AccountDeletionScheduledDto)
  @ApiErrors(400, 409)
  async requestAccountDeletion(
    @CurrentUser() user: AuthUser,
    @Body() dto: AccountDeletionRequestDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WithMessage<AccountDeletionScheduledDto>> {
    const scheduled = await this.deletion.requestOwn(user, dto);
    clearSessionCookies(res, this.config);
    return withMessage(scheduled, AccountDataMessages.DELETION_SCHEDULED);
  }

  @Post('deletion/cancel')
  @HttpCode(200)
  @Throttle({ default: { limit: 10, ttl: 60_000 } })
  @ApiOperation({
    summary: 'Cancel the pending deletion of my account (from the login page: the account has no session while it waits)',
    description:
      "Proved by the sign-in data (and the two-factor code when it is on), with sign-in's limits and answers: each try counts against the account's sign-in limit (429 past it); " +
      "wrong e-mail or password: 401 'Incorrect email or password.'; missing or wrong code: 401 on twoFactorCode (the code is used up only by a cancellation); nothing pending: 409. " +
      'Also 10 a minute per address.',
  })
  @ApiEnvelope('null')
  @ApiErrors(400, 401, 409, 429)
  async cancelAccountDeletion(@Body() dto: AccountDeletionCancelDto): Promise<WithMessage<null>> {
    await this.deletion.cancel(dto);
    return withMessage(null, AccountDataMessages.DELETION_CANCELLED);
  }

  @Post('export')
  @HttpCode(202)
  @Auth()
  @ApiOperation({ summary: 'Download my data: starts an export job (poll GET /account/export); one running already: 409' })
  @ApiEnvelope(AccountExportDto, { status: 202 })
  @ApiErrors(409)
  async requestDataExport(@CurrentUser() user: AuthUser): Promise<WithMessage<AccountExportDto>> {
    return withMessage(await this.exports.request(user), AccountDataMessages.EXPORT_STARTED);
  }

  @Get('export')
  @Auth()
  @ApiOperation({ summary: 'My latest data export: its progress, then its download link (24 h); none yet: 404' })
  @ApiEnvelope(AccountExportDto)
  @ApiErrors(404)
  getDataExport(@CurrentUser() user: AuthUser): Promise<AccountExportDto> {
    return this.exports.latest(user);
  }

  @Get('export/download/:token')
  @Auth()
  @ApiOperation({ summary: "The export's zip archive, for its owner's session only; anyone else's, an unknown or an expired link: 404" })
  @ApiParam({ name: 'token', description: 'The random part of the download link' })
  @ApiProduces('application/zip')
  @ApiOkResponse({ description: 'The zip archive', schema: { type: 'string', format: 'binary' } })
  @ApiErrors(404)
  async downloadDataExport(@CurrentUser() user: AuthUser, @Param('token') token: string, @Res() res: Response): Promise<void> {
    const archive = await this.exports.open(user, token);
    res.status(200);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Length', String(archive.size));
    res.setHeader('Content-Disposition', `attachment; filename="${archive.fileName}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    archive.stream.on('error', () => res.destroy());
    archive.stream.pipe(res);
  }
}

/** The back office's 'Delete user'. */
@ApiTags('Admin users')
@Controller('admin')
export class AdminUserDeletionController {
  constructor(private readonly deletion: AccountDeletionService) {}

  @Delete('users/:id')
  @HttpCode(202)
  @Auth({ role: RoleName.ADMIN, forbidden: AdminMessages.FORBIDDEN, unauthenticated: AdminMessages.AUTH_REQUIRED })
  @ApiOperation({
    summary: 'Delete a user (admin): disabled at once (sessions end), erased by the next run of the job queue, no grace period',
    description:
      'Audit-logged without personal data. Oneself: 409 (use Delete my account); the last active administrator, a placeholder account or one already pending: 409.',
  })
  @ApiEnvelope(AccountDeletionScheduledDto, { status: 202 })
  @ApiErrors(400, 404, 409)
  async deleteAdminUser(
    @Param('id', ParseIdPipe) id: number,
    @CurrentUser() actor: AuthUser,
  ): Promise<WithMessage<AccountDeletionScheduledDto>> {
    return withMessage(await this.deletion.deleteByAdmin(id, actor), AccountDataMessages.USER_DELETED);
  }
}

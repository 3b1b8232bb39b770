import { BadRequestException, Body, Controller, Delete, Get, HttpCode, Inject, Param, ParseUUIDPipe, Put, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { APP_CONFIG, AppConfig } from '../config/env';
import { AccountSessionsMessages } from './account-sessions.messages';
import { AccountSessionsService } from './account-sessions.service';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import type { AuthUser } from '../auth/auth-user';
import { clearSessionCookies } from '../auth/auth.cookies';
import { AccountSessionDto, SessionsSignedOutDto, SignInAlertSettingsDto, SignInAlertSettingsUpdateDto } from './dto/account-session.dto';

const SESSION_ID = new ParseUUIDPipe({ exceptionFactory: () => new BadRequestException(AccountSessionsMessages.INVALID_ID) });

/** 'Where you're signed in': the caller's own sessions only. */
@ApiTags('Account sessions')
@Controller('account/sessions')
export class AccountSessionsController {
  constructor(
    private readonly sessions: AccountSessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Auth()
  @ApiOperation({
    summary: "The caller's live sessions (device, approximate place, created, last used), the current one marked; most recently used first",
  })
  @ApiEnvelope(AccountSessionDto, { isArray: true })
  async listAccountSessions(@CurrentUser() user: AuthUser): Promise<WithMessage<AccountSessionDto[]>> {
    return withMessage(await this.sessions.list(user), AccountSessionsMessages.LIST);
  }

  @Delete()
  @Auth()
  @ApiOperation({
    summary: "Signs out every other session of the caller at once (their access tokens are refused from now on); the caller's own stays",
  })
  @ApiEnvelope(SessionsSignedOutDto)
  async signOutOtherAccountSessions(@CurrentUser() user: AuthUser): Promise<WithMessage<SessionsSignedOutDto>> {
    return withMessage(await this.sessions.signOutOthers(user), AccountSessionsMessages.OTHERS_SIGNED_OUT);
  }

  @Get('alerts')
  @Auth()
  @ApiOperation({ summary: "Whether the caller gets the 'New sign-in to your account' e-mail" })
  @ApiEnvelope(SignInAlertSettingsDto)
  async getSignInAlertSettings(@CurrentUser() user: AuthUser): Promise<WithMessage<SignInAlertSettingsDto>> {
    return withMessage(await this.sessions.alertSettings(user), AccountSessionsMessages.ALERTS);
  }

  @Put('alerts')
  @Auth()
  @ApiOperation({ summary: "Turns the 'New sign-in to your account' e-mail on or off" })
  @ApiEnvelope(SignInAlertSettingsDto)
  @ApiErrors(400)
  async updateSignInAlertSettings(
    @Body() body: SignInAlertSettingsUpdateDto,
    @CurrentUser() user: AuthUser,
  ): Promise<WithMessage<SignInAlertSettingsDto>> {
    return withMessage(await this.sessions.updateAlertSettings(user, body.newDeviceEmail), AccountSessionsMessages.ALERTS_SAVED);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth()
  @ApiParam({ name: 'id', description: 'Session id (a UUID, from the list)', schema: { type: 'string', format: 'uuid' } })
  @ApiOperation({
    summary:
      "Signs one of the caller's sessions out at once: its access and refresh tokens are refused from now on. The caller's own session ends too (its cookies are cleared). " +
      "Another user's, an ended or an unknown session is 404",
  })
  @ApiNoContentResponse({ description: 'Signed out (no body)' })
  @ApiErrors(400, 404)
  async signOutAccountSession(
    @Param('id', SESSION_ID) id: string,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const sessionId = id.toLowerCase();
    await this.sessions.signOut(user, sessionId);
    if (sessionId === user.sessionId?.toLowerCase()) clearSessionCookies(res, this.config);
  }
}

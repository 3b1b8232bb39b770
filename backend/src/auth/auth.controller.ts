import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { withMessage } from '../common/envelope';
import { APP_CONFIG, AppConfig } from '../config/env';
import { UserResponseDto } from '../users/dto/user-response.dto';
import { AuthMessages } from './auth.messages';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth-user';
import { bearerOf, clearSessionCookies, cookieOf, setSessionCookies } from './auth.cookies';
import { AuthService, TokenSet } from './auth.service';
import {
  AuthEmailDto,
  AuthForgotPasswordDto,
  AuthLoginDto,
  AuthRefreshDto,
  AuthRegisterDto,
  AuthResetPasswordDto,
  AuthResetTokenQueryDto,
  AuthVerifyEmailDto,
  ResetTokenValidityResponseDto,
  TokenSetResponseDto,
} from './dto/auth.dto';
import type { ClientInfo } from '../sessions/sessions.service';
import { TwoFactorChallengeResponseDto, TwoFactorLoginDto } from '../two-factor/dto/two-factor.dto';
import { TwoFactorMessages } from '../two-factor/two-factor.messages';

const PER_MINUTE = (limit: number) => Throttle({ default: { limit, ttl: 60_000 } });

function clientOf(req: Request): ClientInfo {
  return { userAgent: req.headers['user-agent'], ip: req.ip };
}

function tokenResponse({ refreshExpiresAt: _unused, ...tokens }: TokenSet): TokenSetResponseDto {
  return tokens;
}

@ApiTags('Auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('register')
  @PER_MINUTE(5)
  @ApiOperation({ summary: 'Create an account (PENDING, unverified) and e-mail a 6-digit verification code' })
  @ApiEnvelope(UserResponseDto, { status: 201, description: 'Created; the message says whether the code e-mail went out' })
  @ApiErrors(400, 409, 429)
  async register(@Body() body: AuthRegisterDto) {
    const { user, mailed } = await this.auth.register(body);
    return withMessage(user, mailed ? AuthMessages.REGISTERED : AuthMessages.REGISTERED_MAIL_FAILED);
  }

  @Post('verify-email')
  @HttpCode(200)
  @PER_MINUTE(5)
  @ApiOperation({ summary: "Activate the account with the e-mail's 6-digit code" })
  @ApiEnvelope(UserResponseDto)
  @ApiErrors(400, 429)
  async verifyEmail(@Body() body: AuthVerifyEmailDto) {
    return withMessage(await this.auth.verifyEmail(body), AuthMessages.VERIFIED);
  }

  @Post('resend-verification')
  @HttpCode(200)
  @PER_MINUTE(5)
  @ApiOperation({ summary: 'Send a new verification code (replaces the previous one; then once per 60 s)' })
  @ApiEnvelope('null')
  @ApiErrors(400, 429)
  async resendVerification(@Body() body: AuthEmailDto) {
    await this.auth.resendVerification(body.email);
    return withMessage(null, AuthMessages.RESENT);
  }

  @Post('login')
  @HttpCode(200)
  @PER_MINUTE(10)
  @ApiOperation({
    summary: 'Sign in: the token set, plus httpOnly session cookies for the browser',
    description:
      'Limited per client address (10 a minute) and per account: after LOGIN_ACCOUNT_LIMIT failed sign-ins (default 10 in 15 minutes) ' +
      'every attempt for that e-mail is 429 with Retry-After until the window ends, the right password included; a successful sign-in ' +
      'or a password reset clears the count. After the right password, 403 says why: a banned account gets ' +
      "'Your account has been banned. Reason: …', an unverified one 'Account not verified or locked.' with a field error on email, an inactive one that text alone.",
  })
  @ApiEnvelope(TokenSetResponseDto)
  @ApiEnvelope(TwoFactorChallengeResponseDto, {
    status: 202,
    description:
      'The account has two-factor sign-in: no session and no cookies yet; send challengeToken with a code to POST /auth/login/two-factor',
  })
  @ApiErrors(400, 401, 403, 429)
  async login(@Body() body: AuthLoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const outcome = await this.auth.login(body, clientOf(req));
    if ('challenge' in outcome) {
      res.status(202);
      return withMessage({ twoFactorRequired: true, ...outcome.challenge }, TwoFactorMessages.CODE_REQUIRED_TO_SIGN_IN);
    }
    setSessionCookies(res, this.config, outcome);
    return withMessage(tokenResponse(outcome), AuthMessages.LOGGED_IN);
  }

  @Post('login/two-factor')
  @HttpCode(200)
  @PER_MINUTE(10)
  @ApiOperation({
    summary:
      "Finish a sign-in with two-factor sign-in: the challenge of POST /auth/login and a code (the authenticator's 6 digits, or a recovery code)",
    description:
      'The same answer and cookies as a password-only sign-in. Codes are accepted one 30-second step either side and never twice; a recovery code works once. ' +
      'A wrong code is 401 with a field error on code; after 5 wrong codes, or 5 minutes, the challenge has ended (401: sign in again). ' +
      'Every try counts towards the per-account sign-in limit (429).',
  })
  @ApiEnvelope(TokenSetResponseDto)
  @ApiErrors(400, 401, 403, 429)
  async loginWithTwoFactor(@Body() body: TwoFactorLoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const tokens = await this.auth.loginWithTwoFactor(body, clientOf(req));
    setSessionCookies(res, this.config, tokens);
    return withMessage(tokenResponse(tokens), AuthMessages.LOGGED_IN);
  }

  @Post('refresh-token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange a refresh token (body or the inkwell_refresh cookie) for a new token set' })
  @ApiEnvelope(TokenSetResponseDto)
  @ApiErrors(400, 401)
  async refreshToken(@Body() body: AuthRefreshDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    try {
      const tokens = await this.auth.refresh(body.refreshToken ?? cookieOf(req, REFRESH_COOKIE), clientOf(req));
      setSessionCookies(res, this.config, tokens);
      return withMessage(tokenResponse(tokens), AuthMessages.REFRESHED);
    } catch (error) {
      clearSessionCookies(res, this.config);
      throw error;
    }
  }

  @Post('logout')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the session (cookie, body refreshToken or bearer token); always 200' })
  @ApiEnvelope('null')
  @ApiErrors(400)
  async logout(@Body() body: AuthRefreshDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    await this.auth.logout(body.refreshToken ?? cookieOf(req, REFRESH_COOKIE), bearerOf(req) ?? cookieOf(req, ACCESS_COOKIE));
    clearSessionCookies(res, this.config);
    return withMessage(null, AuthMessages.LOGGED_OUT);
  }

  @Post('forgot-password')
  @HttpCode(200)
  @PER_MINUTE(5)
  @ApiOperation({ summary: 'E-mail a password reset link (same answer whether or not the account exists)' })
  @ApiEnvelope('null')
  @ApiErrors(400, 429)
  async forgotPassword(@Body() body: AuthForgotPasswordDto) {
    await this.auth.forgotPassword(body);
    return withMessage(null, AuthMessages.FORGOT_SENT);
  }

  @Get('validate-reset-token')
  @ApiOperation({ summary: 'Whether a reset link token is still usable' })
  @ApiEnvelope(ResetTokenValidityResponseDto)
  @ApiErrors(400)
  async validateResetToken(@Query() query: AuthResetTokenQueryDto): Promise<ResetTokenValidityResponseDto> {
    return { valid: await this.auth.validateResetToken(query.token) };
  }

  @Post('reset-password')
  @HttpCode(200)
  @PER_MINUTE(5)
  @ApiOperation({ summary: "Set a new password with a reset link's token (single use; ends every session)" })
  @ApiEnvelope('null')
  @ApiErrors(400, 429)
  async resetPassword(@Body() body: AuthResetPasswordDto) {
    await this.auth.resetPassword(body);
    return withMessage(null, AuthMessages.RESET_DONE);
  }
}

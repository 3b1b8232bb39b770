import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import {
  TwoFactorConfirmDto,
  TwoFactorDisableDto,
  TwoFactorEnableDto,
  TwoFactorRecoveryCodesResponseDto,
  TwoFactorSetupResponseDto,
  TwoFactorStatusResponseDto,
} from './dto/two-factor.dto';
import { TwoFactorMessages } from './two-factor.messages';
import { TwoFactorService } from './two-factor.service';

/** Code checks are few per person: 10 a minute per address keeps guessing slow. */
const CODE_CHECKS = Throttle({ default: { limit: 10, ttl: 60_000 } });

/** The signed-in user's own two-factor sign-in, behind /account's 'Two-Factor Authentication Setup'. */
@ApiTags('Account')
@Controller('account/two-factor')
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Get()
  @Auth()
  @ApiOperation({
    summary:
      'Whether two-factor sign-in is on, the recovery codes left, and whether the site requires the caller (an administrator) to set it up',
  })
  @ApiEnvelope(TwoFactorStatusResponseDto)
  getTwoFactorStatus(@CurrentUser() caller: AuthUser): Promise<TwoFactorStatusResponseDto> {
    return this.twoFactor.status(caller);
  }

  @Post('setup')
  @HttpCode(200)
  @Auth()
  @ApiOperation({
    summary:
      'Start the set-up: a new key (in text, as an otpauth:// URI and as a QR code) waiting for its first code; replaces a waiting one. 409 when already on',
    description: 'The key is shown in this answer only; it is stored sealed and never answered again.',
  })
  @ApiEnvelope(TwoFactorSetupResponseDto)
  @ApiErrors(409)
  async startTwoFactorSetup(@CurrentUser() caller: AuthUser): Promise<WithMessage<TwoFactorSetupResponseDto>> {
    return withMessage(await this.twoFactor.startSetup(caller), TwoFactorMessages.SETUP_STARTED);
  }

  @Post('confirm')
  @HttpCode(200)
  @CODE_CHECKS
  @Auth()
  @ApiOperation({
    summary:
      "Finish the set-up with the app's 6-digit code: two-factor sign-in is on, and the answer holds the 10 recovery codes (shown once)",
    description:
      "With signOutOtherSessions (default true) every other session of the account ends with it (refresh tokens included); the caller's own stays signed in.",
  })
  @ApiEnvelope(TwoFactorRecoveryCodesResponseDto)
  @ApiErrors(400, 409, 429)
  async confirmTwoFactorSetup(
    @CurrentUser() caller: AuthUser,
    @Body() body: TwoFactorEnableDto,
  ): Promise<WithMessage<TwoFactorRecoveryCodesResponseDto>> {
    const signOutOthers = body.signOutOtherSessions ?? true;
    return withMessage(
      {
        recoveryCodes: await this.twoFactor.confirmSetup(caller.id, body.code, { signOutOthers, keptSessionId: caller.sessionId ?? null }),
      },
      TwoFactorMessages.ENABLED,
    );
  }

  @Post('disable')
  @HttpCode(200)
  @CODE_CHECKS
  @Auth()
  @ApiOperation({ summary: 'Turn two-factor sign-in off: needs the password and a code (authenticator or recovery)' })
  @ApiEnvelope('null')
  @ApiErrors(400, 429)
  async disableTwoFactor(@CurrentUser() caller: AuthUser, @Body() body: TwoFactorDisableDto): Promise<WithMessage<null>> {
    await this.twoFactor.disable(caller.id, body.password, body.code);
    return withMessage(null, TwoFactorMessages.DISABLED);
  }

  @Post('recovery-codes')
  @HttpCode(200)
  @CODE_CHECKS
  @Auth()
  @ApiOperation({ summary: 'New recovery codes for an authenticator code (the old ones stop working); shown once. 409 when off' })
  @ApiEnvelope(TwoFactorRecoveryCodesResponseDto)
  @ApiErrors(400, 409, 429)
  async regenerateTwoFactorRecoveryCodes(
    @CurrentUser() caller: AuthUser,
    @Body() body: TwoFactorConfirmDto,
  ): Promise<WithMessage<TwoFactorRecoveryCodesResponseDto>> {
    return withMessage(
      { recoveryCodes: await this.twoFactor.regenerateRecoveryCodes(caller.id, body.code) },
      TwoFactorMessages.CODES_REGENERATED,
    );
  }
}

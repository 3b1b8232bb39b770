import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { Check, MaxChars, Required } from '../../common/validation/field.rules';
import { AuthMessages } from '../../auth/auth.messages';
import { readCode } from '../totp';
import { TwoFactorMessages } from '../two-factor.messages';

const Rules = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators) as PropertyDecorator;

/** An authenticator code (6 digits) or a recovery code (`xxxxx-xxxxx`); spaces and case do not matter. */
const AnyCode = () =>
  Rules(
    Required(TwoFactorMessages.CODE_REQUIRED),
    MaxChars(32, TwoFactorMessages.CODE_FORMAT),
    Check('code', (value) => readCode(value) !== null, TwoFactorMessages.CODE_FORMAT),
  );

/** An authenticator code only. */
const TotpCode = () =>
  Rules(
    Required(TwoFactorMessages.TOTP_FORMAT),
    MaxChars(32, TwoFactorMessages.TOTP_FORMAT),
    Check('code', (value) => readCode(value)?.kind === 'totp', TwoFactorMessages.TOTP_FORMAT),
  );

export class TwoFactorStatusResponseDto {
  @ApiProperty({ description: 'Two-factor sign-in is on' }) enabled: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) enabledAt: string | null;
  @ApiProperty({ description: 'Recovery codes not used yet (0 when off)' }) recoveryCodesLeft: number;
  @ApiProperty({
    description:
      'The caller is an administrator, the site requires two-factor sign-in for administrators, and it is off: set it up before /admin',
  })
  setupRequired: boolean;
}

export class TwoFactorSetupResponseDto {
  @ApiProperty({
    description: 'The key in Base32, for typing into an authenticator app (shown during set-up only)',
    example: 'JBSWY3DPEHPK3PXP',
  })
  secret: string;
  @ApiProperty({ description: 'otpauth:// URI with issuer Inkwell (what the QR code holds)' }) otpauthUrl: string;
  @ApiProperty({ description: 'The QR code of otpauthUrl as a PNG data URL' }) qrCode: string;
}

export class TwoFactorRecoveryCodesResponseDto {
  @ApiProperty({ type: [String], description: '10 single-use recovery codes, shown this once', example: ['abcde-fghjk'] })
  recoveryCodes: string[];
}

export class TwoFactorConfirmDto {
  @ApiProperty({ example: '123456', description: 'The 6-digit code the authenticator app shows' })
  @TotpCode()
  code: string;
}

/** The set-up's first code, and whether the account's other sessions end with it. */
export class TwoFactorEnableDto extends TwoFactorConfirmDto {
  @ApiPropertyOptional({
    default: true,
    description: "End all the account's other sessions (every device but this one signs in again, now with a code); default true",
  })
  @IsOptional()
  @IsBoolean({ message: TwoFactorMessages.SIGN_OUT_OTHERS_INVALID })
  signOutOtherSessions?: boolean;
}

export class TwoFactorDisableDto {
  @ApiProperty()
  @Rules(Required(TwoFactorMessages.PASSWORD_REQUIRED), MaxChars(128, AuthMessages.PASSWORD_MAX))
  password: string;

  @ApiProperty({ example: '123456', description: 'An authenticator code or a recovery code' })
  @AnyCode()
  code: string;
}

export class TwoFactorLoginDto {
  @ApiProperty({ description: 'The challengeToken of the sign-in answer that asked for a code' })
  @Rules(Required(TwoFactorMessages.CHALLENGE_REQUIRED), MaxChars(200, TwoFactorMessages.CHALLENGE_ENDED))
  challengeToken: string;

  @ApiProperty({ example: '123456', description: 'An authenticator code or a recovery code' })
  @AnyCode()
  code: string;
}

/** The sign-in answer (HTTP 202) of an account with two-factor sign-in: no session yet. */
export class TwoFactorChallengeResponseDto {
  @ApiProperty({ enum: [true], example: true }) twoFactorRequired: true;
  @ApiProperty({ description: 'Send it with a code to POST /auth/login/two-factor; it is not a session' }) challengeToken: string;
  @ApiProperty({ example: 300, description: 'Seconds the challenge stays usable' }) expiresIn: number;
}

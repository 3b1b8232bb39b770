import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { UserResponseDto } from '../../users/dto/user-response.dto';
import { AuthMessages } from '../auth.messages';
import { Check, EmailField, EqualsProperty, MaxChars, MinChars, Required, StrictPassword, trim } from '../../common/validation/field.rules';

/** Decorators stacked on a property register bottom-up: these lists keep the reading order. */
const Rules = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators) as PropertyDecorator;

export class AuthRegisterDto {
  @ApiProperty({ minLength: 2, maxLength: 100, example: 'Ann Lee' })
  @Rules(
    Transform(trim),
    Required(AuthMessages.FULL_NAME_REQUIRED),
    MinChars(2, AuthMessages.FULL_NAME_MIN),
    MaxChars(100, AuthMessages.FULL_NAME_MAX),
  )
  fullName: string;

  @ApiProperty({ maxLength: 254, example: 'ann@example.com' })
  @EmailField(AuthMessages.REGISTER_EMAIL_REQUIRED, AuthMessages.REGISTER_EMAIL_INVALID, AuthMessages.REGISTER_EMAIL_MIXED_SCRIPTS)
  email: string;

  @ApiProperty({
    minLength: 8,
    maxLength: 128,
    description: 'At least 8 characters with a lower-case letter, an upper-case letter, a digit and a special character',
  })
  @StrictPassword({
    required: AuthMessages.PASSWORD_REQUIRED,
    min: AuthMessages.PASSWORD_MIN_8,
    max: AuthMessages.PASSWORD_MAX,
    lower: AuthMessages.PASSWORD_LOWER,
    upper: AuthMessages.PASSWORD_UPPER,
    digit: AuthMessages.PASSWORD_DIGIT,
    special: AuthMessages.PASSWORD_SPECIAL,
  })
  password: string;

  @ApiProperty()
  @Rules(Required(AuthMessages.CONFIRM_REQUIRED), EqualsProperty('password', { message: AuthMessages.PASSWORDS_DONT_MATCH }))
  confirmPassword: string;
}

export class AuthVerifyEmailDto {
  @ApiProperty({ example: 'ann@example.com' })
  @EmailField(AuthMessages.LOGIN_EMAIL_REQUIRED, AuthMessages.LOGIN_EMAIL_INVALID)
  email: string;

  @ApiProperty({ example: '123456', pattern: '^\\d{6}$' })
  @Rules(Required(AuthMessages.CODE_FORMAT), Check('code', (v) => /^\d{6}$/.test(v), AuthMessages.CODE_FORMAT))
  verificationCode: string;
}

export class AuthEmailDto {
  @ApiProperty({ example: 'ann@example.com' })
  @EmailField(AuthMessages.LOGIN_EMAIL_REQUIRED, AuthMessages.LOGIN_EMAIL_INVALID)
  email: string;
}

export class AuthLoginDto {
  @ApiProperty({ example: 'ann@example.com' })
  @EmailField(AuthMessages.LOGIN_EMAIL_REQUIRED, AuthMessages.LOGIN_EMAIL_INVALID)
  email: string;

  @ApiProperty({ minLength: 6 })
  @Rules(
    Required(AuthMessages.LOGIN_PASSWORD_REQUIRED),
    MinChars(6, AuthMessages.LOGIN_PASSWORD_MIN),
    MaxChars(128, AuthMessages.PASSWORD_MAX),
  )
  password: string;

  @ApiPropertyOptional({ default: false, description: 'Keep the session for 30 days (else 480 minutes)' })
  @IsOptional()
  @IsBoolean({ message: 'rememberMe must be true or false' })
  rememberMe?: boolean;
}

export class AuthRefreshDto {
  @ApiPropertyOptional({ description: 'The refresh token; without it the inkwell_refresh cookie is used' })
  @IsOptional()
  @IsString()
  @MaxChars(200, 'refreshToken must be at most 200 characters')
  refreshToken?: string;
}

export class AuthForgotPasswordDto {
  @ApiProperty({ example: 'ann@example.com' })
  @EmailField(AuthMessages.FORGOT_EMAIL_REQUIRED, AuthMessages.FORGOT_EMAIL_INVALID)
  email: string;

  @ApiPropertyOptional({
    example: 'http://localhost:3000/reset-password',
    description: "The reset page address; only its origin is used, and only when it is this site's own (PUBLIC_URL)",
  })
  @IsOptional()
  @IsString()
  @MaxChars(2000, 'redirectUrl must be at most 2000 characters')
  redirectUrl?: string;
}

export class AuthResetTokenQueryDto {
  @ApiPropertyOptional({ description: 'The token from the reset link' })
  @IsOptional()
  @IsString()
  @MaxChars(200, 'token must be at most 200 characters')
  token?: string;
}

const VI_STRICT = {
  required: AuthMessages.VI_PASSWORD_REQUIRED,
  min: AuthMessages.VI_PASSWORD_MIN_8,
  max: AuthMessages.VI_PASSWORD_MAX,
  lower: AuthMessages.VI_PASSWORD_LOWER,
  upper: AuthMessages.VI_PASSWORD_UPPER,
  digit: AuthMessages.VI_PASSWORD_DIGIT,
  special: AuthMessages.VI_PASSWORD_SPECIAL,
};

export class AuthResetPasswordDto {
  @ApiProperty()
  @Rules(Required(AuthMessages.TOKEN_REQUIRED), MaxChars(200, AuthMessages.RESET_TOKEN_INVALID))
  token: string;

  @ApiProperty({ minLength: 8, maxLength: 128 })
  @StrictPassword(VI_STRICT)
  newPassword: string;

  @ApiProperty()
  @Rules(Required(AuthMessages.VI_CONFIRM_REQUIRED), EqualsProperty('newPassword', { message: AuthMessages.VI_CONFIRM_MISMATCH }))
  confirmPassword: string;
}

export class UserChangePasswordDto {
  @ApiProperty()
  @Rules(Required(AuthMessages.CURRENT_PASSWORD_REQUIRED), MaxChars(128, AuthMessages.CURRENT_PASSWORD_WRONG))
  currentPassword: string;

  @ApiProperty({ minLength: 8, maxLength: 128 })
  @StrictPassword(VI_STRICT)
  newPassword: string;

  @ApiProperty()
  @Rules(Required(AuthMessages.VI_CONFIRM_REQUIRED), EqualsProperty('newPassword', { message: AuthMessages.VI_CONFIRM_MISMATCH }))
  confirmNewPassword: string;
}

export class TokenSetResponseDto {
  @ApiProperty() accessToken: string;
  @ApiProperty() refreshToken: string;
  @ApiProperty({ example: 'Bearer', enum: ['Bearer'] }) tokenType: 'Bearer';
  @ApiProperty({ example: 900, description: 'Access token lifetime in seconds' }) expiresIn: number;
  @ApiProperty({ type: UserResponseDto }) user: UserResponseDto;
  @ApiPropertyOptional({
    enum: [true],
    description:
      'Present (true) only for an administrator the site requires to use two-factor sign-in who has not set it up: admin routes answer 403 until they do',
  })
  twoFactorSetupRequired?: true;
}

export class ResetTokenValidityResponseDto {
  @ApiProperty() valid: boolean;
}

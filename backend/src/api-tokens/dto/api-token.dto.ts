import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, ArrayUnique, IsArray, IsIn } from 'class-validator';
import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_NAME_MAX,
  API_TOKEN_SCOPES,
  type ApiTokenExpiryDays,
  type ApiTokenScope,
} from '../../../../isomorphic/api-tokens';
import { MaxChars, Required, trim } from '../../common/validation/field.rules';
import { ApiTokensMessages } from '../api-tokens.messages';

const Rules = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators) as PropertyDecorator;

/** POST /account/tokens. */
export class ApiTokenCreateDto {
  @ApiProperty({ minLength: 1, maxLength: API_TOKEN_NAME_MAX, example: 'Publishing script' })
  @Rules(Transform(trim), Required(ApiTokensMessages.NAME_REQUIRED), MaxChars(API_TOKEN_NAME_MAX, ApiTokensMessages.NAME_MAX))
  name: string;

  @ApiProperty({
    enum: API_TOKEN_SCOPES,
    isArray: true,
    minItems: 1,
    uniqueItems: true,
    example: ['read', 'posts:write'],
    description: '`admin` only for administrators',
  })
  @Rules(
    IsArray({ message: ApiTokensMessages.SCOPES_REQUIRED }),
    ArrayNotEmpty({ message: ApiTokensMessages.SCOPES_REQUIRED }),
    IsIn(API_TOKEN_SCOPES, { each: true, message: ApiTokensMessages.SCOPES_INVALID }),
    ArrayUnique({ message: ApiTokensMessages.SCOPES_REPEATED }),
  )
  scopes: ApiTokenScope[];

  @ApiProperty({
    type: 'integer',
    enum: [30, 90, 365],
    nullable: true,
    example: 90,
    description: 'Days until the token expires; null: never',
  })
  @IsIn(API_TOKEN_EXPIRY_DAYS, { message: ApiTokensMessages.EXPIRY_INVALID })
  expiresInDays: ApiTokenExpiryDays;
}

/** A token as listed: never the token itself. */
export class ApiTokenDto {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ example: 'Publishing script' })
  name: string;

  @ApiProperty({ enum: API_TOKEN_SCOPES, isArray: true })
  scopes: ApiTokenScope[];

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null: the token does not expire' })
  expiresAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last request made with the token (updated at most once a minute); null: never used',
  })
  lastUsedAt: string | null;
}

/** The answer of POST /account/tokens: the only time the token is shown. */
export class ApiTokenCreatedDto extends ApiTokenDto {
  @ApiProperty({
    example: 'inkw_3q2-7wHcP0v2Xf9yZ1aB4cD5eF6gH7iJ8kL9mN0oP1q',
    description: 'Send as `Authorization: Bearer <token>`. Shown once: only its SHA-256 is stored',
  })
  token: string;
}

import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { Check, EmailField, MaxChars, Required, Text } from '../../common/validation/field.rules';
import type { AccountExportStatus } from '../entities/account-export.entity';
import { AccountDataMessages } from '../account-data.messages';

const Rules = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators) as PropertyDecorator;

/** What 'Delete my account' types: the word that confirms it. */
export const DELETE_CONFIRMATION = 'DELETE';

/** A 6-digit authenticator code or a recovery code (letters, digits and dashes). */
const TWO_FACTOR_CODE = /^(\d{6}|[A-Za-z0-9-]{8,24})$/;

/** 'Delete my account': the password, the typed word, and the two-factor code when the account has two-factor sign-in. */
export class AccountDeletionRequestDto {
  @ApiProperty({ maxLength: 128, description: 'The account password' })
  @Rules(Required(AccountDataMessages.PASSWORD_REQUIRED), MaxChars(128, AccountDataMessages.PASSWORD_WRONG))
  password: string;

  @ApiProperty({ example: DELETE_CONFIRMATION, description: 'The word DELETE, typed' })
  @Rules(
    Required(AccountDataMessages.CONFIRMATION_WRONG),
    Check('deleteConfirmation', (value) => value === DELETE_CONFIRMATION, AccountDataMessages.CONFIRMATION_WRONG),
  )
  confirmation: string;

  @ApiPropertyOptional({ description: 'An authenticator or recovery code, when two-factor sign-in is on for the account' })
  @IsOptional()
  @Rules(
    Text(AccountDataMessages.TWO_FACTOR_FORMAT),
    Check('twoFactorCode', (value) => TWO_FACTOR_CODE.test(value), AccountDataMessages.TWO_FACTOR_FORMAT),
  )
  twoFactorCode?: string;
}

/** 'Cancel deletion' from the login page: the account is named and proved by its sign-in data (it has no session). */
export class AccountDeletionCancelDto {
  @ApiProperty({ example: 'ann@example.com' })
  @EmailField(AccountDataMessages.CANCEL_FAILED, AccountDataMessages.CANCEL_FAILED)
  email: string;

  @ApiProperty({ maxLength: 128 })
  @Rules(Required(AccountDataMessages.PASSWORD_REQUIRED), MaxChars(128, AccountDataMessages.CANCEL_FAILED))
  password: string;

  @ApiPropertyOptional({ description: 'An authenticator or recovery code, when two-factor sign-in is on for the account' })
  @IsOptional()
  @Rules(
    Text(AccountDataMessages.TWO_FACTOR_FORMAT),
    Check('twoFactorCode', (value) => TWO_FACTOR_CODE.test(value), AccountDataMessages.TWO_FACTOR_FORMAT),
  )
  twoFactorCode?: string;
}

export class AccountDeletionScheduledDto {
  @ApiProperty({ description: 'When the account will be erased (ISO 8601)' })
  deletionScheduledFor: string;
}

export class AccountExportDto {
  @ApiProperty()
  id: number;

  @ApiProperty({ enum: ['QUEUED', 'RUNNING', 'READY', 'FAILED', 'EXPIRED'] })
  status: AccountExportStatus;

  @ApiProperty({ minimum: 0, maximum: 100, description: 'Percent done' })
  progress: number;

  @ApiProperty()
  createdAt: string;

  @ApiProperty({ type: String, nullable: true, description: 'When the archive was ready' })
  finishedAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Until when the link works (24 h after it was ready)' })
  expiresAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: "Site-relative download link (READY only; needs the owner's session)" })
  downloadUrl: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The archive's size in bytes (READY only)" })
  sizeBytes: number | null;
}

export class AccountDeletionPolicyDto {
  @ApiProperty({ description: 'Days between the request and the erasure (ACCOUNT_DELETION_GRACE_DAYS); 0: erased at once' })
  graceDays: number;
}

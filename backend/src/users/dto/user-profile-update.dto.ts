import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { isURL, ValidateIf } from 'class-validator';
import { Check, EmailField, MaxChars, MinChars, Required, Text, trim } from '../../common/validation/field.rules';
import { UsersMessages } from '../users.messages';

/** '' and null clear an optional text field. */
const emptyToNull = ({ value }: { value: unknown }) => (typeof value === 'string' ? (value.trim() === '' ? null : value.trim()) : value);
/** Left out = unchanged; present values are validated (null is refused where the field is required). */
const IfPresent = () => ValidateIf((_o, value) => value !== undefined);
/** Left out or null (clear) skip validation. */
const IfValue = () => ValidateIf((_o, value) => value !== undefined && value !== null);
const Rules = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators) as PropertyDecorator;

/** PUT /users/profile: partial, fields left out keep their values. */
export class UserProfileUpdateDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 100, example: 'Ann Lee' })
  @Rules(
    IfPresent(),
    Transform(trim),
    Required(UsersMessages.FULL_NAME_REQUIRED),
    MinChars(2, UsersMessages.FULL_NAME_MIN),
    MaxChars(100, UsersMessages.FULL_NAME_MAX),
  )
  fullName?: string;

  // A new address mixing scripts is refused by UsersService.updateProfile: an account that has one
  // from before the rule can still save its other fields.
  @ApiPropertyOptional({ maxLength: 254, example: 'ann@example.com' })
  @Rules(IfPresent(), EmailField(UsersMessages.EMAIL_REQUIRED, UsersMessages.EMAIL_INVALID))
  email?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @Rules(IfValue(), Transform(emptyToNull), Text(UsersMessages.BIO_MAX), MaxChars(500, UsersMessages.BIO_MAX))
  bio?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'https://ann.example.com' })
  @Rules(
    IfValue(),
    Transform(emptyToNull),
    Text(UsersMessages.WEBSITE_INVALID),
    Check(
      'url',
      (v) => v.length <= 255 && isURL(v, { require_protocol: true, protocols: ['http', 'https'] }),
      UsersMessages.WEBSITE_INVALID,
    ),
  )
  website?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  @Rules(IfValue(), Transform(emptyToNull), Text(UsersMessages.LOCATION_MAX), MaxChars(100, UsersMessages.LOCATION_MAX))
  location?: string | null;
}

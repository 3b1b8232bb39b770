import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, registerDecorator, ValidateIf } from 'class-validator';
import { sortQuery } from '../../common/pagination/sort';
import { Check, EmailField, MaxChars, MinChars, Required, Text, trim, trimOrNull } from '../../common/validation/field.rules';
import { RoleName } from '../../users/roles';
import { UserStatus } from '../../users/entities/user.entity';
import { AdminMessages } from '../admin.messages';

/** Decorators stacked on a property register bottom-up: these lists keep the reading order. */
const Rules = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators) as PropertyDecorator;
/** Left out = unchanged; present values are validated (null is refused where the field is required). */
const IfPresent = () => ValidateIf((_o, value) => value !== undefined);

const ROLES = Object.values(RoleName);
const STATUSES = Object.values(UserStatus);
const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);
const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' || value === true ? true : value === 'false' || value === false ? false : value;
/** An empty query value means no filter. */
const blankToUndefined =
  (transform: (input: { value: unknown }) => unknown) =>
  ({ value }: { value: unknown }) =>
    value === '' ? undefined : transform({ value });

/** Role names: upper-cased, duplicates dropped (non-strings are left for the validators to refuse). */
const toRoles = ({ value }: { value: unknown }) =>
  Array.isArray(value) ? [...new Set(value.map((role) => (typeof role === 'string' ? role.trim().toUpperCase() : role)))] : value;

/** At least one role (`required`), each one of USER, AUTHOR, ADMIN (`invalid`). */
function RolesField(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'rolesRequired',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: AdminMessages.ROLES_REQUIRED },
      validator: { validate: (value: unknown) => Array.isArray(value) && value.length > 0 },
    });
    registerDecorator({
      name: 'rolesValid',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: AdminMessages.ROLES_INVALID },
      validator: { validate: (value: unknown) => !Array.isArray(value) || value.every((role) => ROLES.includes(role as RoleName)) },
    });
  };
}

/** Equal to the sibling `password` (missing counts as not equal once a password is given). */
function SameAsPassword(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'sameAsPassword',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: AdminMessages.PASSWORDS_MISMATCH },
      validator: { validate: (value: unknown, args) => value === (args?.object as { password?: unknown }).password },
    });
  };
}

const FullName = () =>
  Rules(
    Transform(trim),
    Required(AdminMessages.FULL_NAME_REQUIRED),
    MinChars(2, AdminMessages.FULL_NAME_MIN),
    MaxChars(100, AdminMessages.FULL_NAME_MAX),
  );
const Status = () =>
  Rules(
    Transform(upper),
    Required(AdminMessages.STATUS_REQUIRED),
    Check('status', (v) => STATUSES.includes(v as UserStatus), AdminMessages.STATUS_INVALID),
  );

/** POST /admin/users (docs/requirements.md#validation-add-user; messages in this order). */
export class AdminUserCreateDto {
  @ApiProperty({ minLength: 2, maxLength: 100, example: 'Ann Lee' })
  @FullName()
  fullName: string;

  @ApiProperty({ maxLength: 254, example: 'ann@example.com', description: 'Trimmed and lower-cased' })
  @EmailField(AdminMessages.EMAIL_REQUIRED, AdminMessages.EMAIL_INVALID, AdminMessages.EMAIL_MIXED_SCRIPTS)
  email: string;

  @ApiProperty({ minLength: 6, maxLength: 128 })
  @Rules(Required(AdminMessages.PASSWORD_REQUIRED), MinChars(6, AdminMessages.PASSWORD_MIN), MaxChars(128, AdminMessages.PASSWORD_MAX))
  password: string;

  @ApiProperty({ description: 'Must equal password' })
  @SameAsPassword()
  confirmPassword: string;

  @ApiProperty({ enum: RoleName, enumName: 'RoleName', isArray: true, minItems: 1, example: [RoleName.USER] })
  @Rules(Transform(toRoles), RolesField())
  roles: RoleName[];

  @ApiProperty({ enum: UserStatus, enumName: 'UserStatus', example: UserStatus.ACTIVE })
  @Status()
  status: UserStatus;

  @ApiPropertyOptional({ default: false, description: 'true: the account is created verified (it can sign in at once when ACTIVE)' })
  @IsOptional()
  @IsBoolean({ message: AdminMessages.VERIFIED_INVALID })
  markEmailAsVerified?: boolean;
}

/** PUT /admin/users/{id}: partial; fields left out keep their values. */
export class AdminUserUpdateDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 100 })
  @Rules(IfPresent(), FullName())
  fullName?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, description: "'' or null clears it" })
  @Rules(
    ValidateIf((_o, value) => value !== undefined && value !== null),
    Transform(trimOrNull),
    Text(AdminMessages.BIO_MAX),
    MaxChars(500, AdminMessages.BIO_MAX),
  )
  bio?: string | null;

  @ApiPropertyOptional({ enum: RoleName, enumName: 'RoleName', isArray: true, minItems: 1, description: 'Replaces the held roles' })
  @Rules(IfPresent(), Transform(toRoles), RolesField())
  roles?: RoleName[];

  @ApiPropertyOptional({
    enum: UserStatus,
    enumName: 'UserStatus',
    description:
      'BANNED is refused here (use POST /admin/users/{id}/ban, which needs a reason); a banned user changes status only through unban',
  })
  @Rules(IfPresent(), Status())
  status?: UserStatus;

  @ApiPropertyOptional({ description: 'true marks the e-mail verified now; false withdraws it (the user can no longer sign in)' })
  @IsOptional()
  @IsBoolean({ message: AdminMessages.IS_VERIFIED_INVALID })
  isVerified?: boolean;
}

/** POST /admin/users/{id}/ban and /unban. */
export class AdminUserBanDto {
  @ApiProperty({ maxLength: 500, example: 'Spam in comments' })
  @Rules(Transform(trim), Required(AdminMessages.REASON_REQUIRED), MaxChars(500, AdminMessages.REASON_MAX))
  reason: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000, description: 'Internal, for other admins' })
  @Rules(
    ValidateIf((_o, value) => value !== undefined && value !== null),
    Transform(trimOrNull),
    Text(AdminMessages.ADMIN_NOTE_MAX),
    MaxChars(1000, AdminMessages.ADMIN_NOTE_MAX),
  )
  adminNote?: string | null;
}

export const ADMIN_USER_SORT_FIELDS = ['createdAt', 'updatedAt', 'fullName', 'email', 'lastLoginAt'] as const;
export type AdminUserSortField = (typeof ADMIN_USER_SORT_FIELDS)[number];

/** ?page&size&sortBy&sortDir, then the filters both lists take. */
class AdminUserFilterDto extends sortQuery(ADMIN_USER_SORT_FIELDS, { defaultField: 'createdAt' }) {
  @ApiPropertyOptional({ enum: UserStatus, enumName: 'UserStatus' })
  @IsOptional()
  @Transform(blankToUndefined(upper))
  @IsIn(STATUSES, { message: AdminMessages.INVALID_STATUS })
  status?: UserStatus;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(blankToUndefined(toBoolean))
  @IsBoolean({ message: 'isVerified must be true or false' })
  isVerified?: boolean;

  @ApiPropertyOptional({
    enum: RoleName,
    enumName: 'RoleName',
    description: 'Users whose role that counts (the highest held; none = USER) is this one',
  })
  @IsOptional()
  @Transform(blankToUndefined(upper))
  @IsIn(ROLES, { message: AdminMessages.INVALID_ROLE })
  role?: RoleName;
}

/** GET /admin/users. */
export class AdminUserQueryDto extends AdminUserFilterDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'Part of the full name or e-mail (case-insensitive)' })
  @IsOptional()
  @Transform(blankToUndefined(trim))
  @IsString({ message: 'search must be text' })
  @MaxChars(100, 'search must be at most 100 characters')
  search?: string;
}

/** GET /admin/users/search. */
export class AdminUserSearchQueryDto extends AdminUserFilterDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'Part of the full name or e-mail (case-insensitive); empty lists everyone' })
  @IsOptional()
  @Transform(blankToUndefined(trim))
  @IsString({ message: 'query must be text' })
  @MaxChars(100, 'query must be at most 100 characters')
  query?: string;
}

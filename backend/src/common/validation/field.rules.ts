import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { isEmail, registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { mixesScripts } from '../../../../isomorphic/email-scripts';
import { canonicalEmail, charCount, hasInvisible, trimInvisible } from '../../../../isomorphic/text';

/**
 * Small validation building blocks with one message each, reported in the order listed (the
 * envelope's message is the first): a missing value reports "required" alone, the other rules
 * judge present values only.
 */
const blank = (value: unknown) => value === undefined || value === null || value === '';

/** The fixed set of special characters of the strict password rule. */
export const PASSWORD_SPECIALS = '!@#$%^&*()_+-=[]{};\':"\\|,.<>/?`~';
const SPECIAL = new RegExp(`[${PASSWORD_SPECIALS.replace(/[\\\][\-^]/g, '\\$&')}]`);

/** Present and a non-empty string. */
export function Required(message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'required',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      validator: { validate: (value: unknown) => typeof value === 'string' && value !== '' },
    });
  };
}

/** A rule for present string values (missing values and non-strings are left to Required / Text). */
export function Check(name: string, test: (value: string) => boolean, message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      validator: { validate: (value: unknown) => typeof value !== 'string' || value === '' || test(value) },
    });
  };
}

/** When present, a string (for optional fields without Required). */
export function Text(message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'text',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      validator: { validate: (value: unknown) => blank(value) || typeof value === 'string' },
    });
  };
}

/**
 * Every length rule counts characters as a person sees them and as PostgreSQL's varchar(n) counts
 * them: code points (an emoji is one, not two UTF-16 units), so what passes always fits its column.
 */
export const MinChars = (min: number, message: string) => Check('minChars', (v) => charCount(v) >= min, message);
export const MaxChars = (max: number, message: string) => Check('maxChars', (v) => charCount(v) <= max, message);
/** Between `min` and `max` characters, the empty string included (required-ish optional fields: tag name, slug). */
export function CharLength(min: number, max: number, message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'charLength',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      validator: { validate: (value: unknown) => typeof value !== 'string' || (charCount(value) >= min && charCount(value) <= max) },
    });
  };
}

/** Trimmed of whitespace and invisible characters at both ends (a comment of zero-width spaces is empty). */
export const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? trimInvisible(value) : value);
/** Trimmed; an empty string becomes null (optional fields that can be cleared). */
export const trimOrNull = ({ value }: { value: unknown }) => (typeof value === 'string' ? trimInvisible(value) || null : value);

const EMAIL_MAX = 254;

/**
 * A required e-mail, stored as `canonicalEmail` makes it (NFKC, so a full-width 'ａdmin' is 'admin';
 * lower-cased); one with an invisible character (zero-width space, BOM, ...) is refused. Where an
 * address is set (not where one is only looked up, so older accounts can still sign in), pass
 * `mixedScripts`: a local part or domain label mixing scripts ('duрx' with a Cyrillic 'р') is refused
 * with it (isomorphic/email-scripts.ts).
 */
export function EmailField(required: string, invalid: string, mixedScripts?: string): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? canonicalEmail(value) : value)),
    Required(required),
    Check('email', (v) => !hasInvisible(v) && charCount(v) <= EMAIL_MAX && isEmail(v), invalid),
    // An overlong value is already refused above; the script scan is not run on it.
    ...(mixedScripts ? [Check('emailScripts', (v) => charCount(v) > EMAIL_MAX || !mixesScripts(v), mixedScripts)] : []),
  ) as PropertyDecorator;
}

export interface StrictPasswordMessages {
  required: string;
  min: string;
  max: string;
  lower: string;
  upper: string;
  digit: string;
  special: string;
}

/** 8+ characters with a lower-case letter, an upper-case letter, a digit and a special character. */
export function StrictPassword(messages: StrictPasswordMessages): PropertyDecorator {
  return applyDecorators(
    Required(messages.required),
    MinChars(8, messages.min),
    MaxChars(128, messages.max),
    Check('passwordUpper', (v) => /[A-Z]/.test(v), messages.upper),
    Check('passwordLower', (v) => /[a-z]/.test(v), messages.lower),
    Check('passwordDigit', (v) => /\d/.test(v), messages.digit),
    Check('passwordSpecial', (v) => SPECIAL.test(v), messages.special),
  ) as PropertyDecorator;
}

/** The value must equal the sibling property `property` (password confirmations); blank passes. */
export function EqualsProperty(property: string, options: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'equalsProperty',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [property],
      options,
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          if (blank(value)) return true;
          return value === (args.object as Record<string, unknown>)[args.constraints[0] as string];
        },
      },
    });
  };
}

/** A whole number in [min, max], one message for every failure (not one per broken rule); optional fields add @IsOptional. */
export function WholeNumberInRange(min: number, max: number, message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'wholeNumberInRange',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      validator: { validate: (value: unknown) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max },
    });
  };
}

import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { isEmail, registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

/**
 * Small validation building blocks with one message each, reported in the order listed (the
 * envelope's message is the first): a missing value reports "required" alone, the other rules
 * judge present values only.
 */
const blank = (value: unknown) => value === undefined || value === null || value === '';

/** The fixed set of special characters of the strict password rule. */
export const PASSWORD_SPECIALS = "!@#$%^&*()_+-=[]{};':\"\\|,.<>/?`~";
const SPECIAL = new RegExp(`[${PASSWORD_SPECIALS.replace(/[\\\]\[\-^]/g, '\\$&')}]`);

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

export const MinChars = (min: number, message: string) => Check('minChars', (v) => v.length >= min, message);
export const MaxChars = (max: number, message: string) => Check('maxChars', (v) => v.length <= max, message);

export const trimLower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
export const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Trimmed; an empty string becomes null (optional fields that can be cleared). */
export const trimOrNull = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || null : value);

/** A required e-mail, stored trimmed and lower-cased. */
export function EmailField(required: string, invalid: string): PropertyDecorator {
  return applyDecorators(
    Transform(trimLower),
    Required(required),
    Check('email', (v) => v.length <= 254 && isEmail(v), invalid),
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

import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldErrors } from '../envelope';
import { CommonMessages } from '../messages';

/** Flattens class-validator errors into `{ 'field.child': [messages] }`. */
export function toFieldErrors(errors: ValidationError[], prefix = ''): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    // forbidNonWhitelisted reports unknown fields with this constraint name.
    if (messages.length) result[path] = messages;
    if (error.children?.length) Object.assign(result, toFieldErrors(error.children, path));
  }
  return result;
}

export function firstMessage(errors: FieldErrors): string {
  for (const messages of Object.values(errors)) if (messages.length) return messages[0];
  return CommonMessages.INVALID_REQUEST;
}

/**
 * whitelist + forbidNonWhitelisted: unknown fields are refused (no mass assignment). Failures are
 * 400 with `errors` per field and the first field message as `message`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      const fieldErrors = toFieldErrors(errors);
      return new BadRequestException({ message: firstMessage(fieldErrors), errors: fieldErrors });
    },
  });
}

import { BadRequestException, Injectable, PipeTransform } from '@nestjs/common';

/** A path segment naming one of `values` (case-insensitive, answered upper-cased); anything else is 400 `message`. */
@Injectable()
export class UpperEnumPipe<T extends string> implements PipeTransform<unknown, T> {
  constructor(
    private readonly values: readonly T[],
    private readonly message: string,
  ) {}

  transform(value: unknown): T {
    const text = typeof value === 'string' ? value.trim().toUpperCase() : '';
    if (!this.values.includes(text as T)) throw new BadRequestException(this.message);
    return text as T;
  }
}

/**
 * A path segment `true` or `false` (case-insensitive); anything else is 400 `message`. Not a pipe:
 * the global ValidationPipe turns a parameter typed boolean into one (any text but 'true' becoming
 * false) before a parameter pipe would see it, so the handler takes the text and parses it here.
 */
export function parseFlag(value: string, message: string): boolean {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new BadRequestException(message);
}

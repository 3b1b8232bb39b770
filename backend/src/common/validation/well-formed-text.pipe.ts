import { ArgumentMetadata, BadRequestException, Injectable, PipeTransform } from '@nestjs/common';
import { FieldErrors } from '../envelope';
import { CommonMessages } from '../messages';

type TextProblem = 'nul' | 'lone-surrogate';

// `String.prototype.isWellFormed` (Node 20) is not in the es2023 lib this project compiles with.
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** What is wrong with a string that no field may hold: U+0000 (PostgreSQL refuses it) or a lone UTF-16 surrogate. */
export function textProblem(text: string): TextProblem | null {
  if (text.includes('\u0000')) return 'nul';
  if (!isWellFormed(text)) return 'lone-surrogate';
  return null;
}

/** A key as it can be shown in a field name (escapes for NUL and lone surrogates). */
const printable = (key: string) => (textProblem(key) ? JSON.stringify(key).slice(1, -1) : key);

/**
 * The first string (value or key) with a problem, depth first, as `field.child.0`. Bodies are at
 * most MAX_JSON_DEPTH deep (the JSON parser refuses deeper ones), so recursion is bounded.
 */
export function findMalformedText(value: unknown, path: string): { path: string; problem: TextProblem } | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path, problem } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  const join = (key: string) => (path ? `${path}.${printable(key)}` : printable(key));
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findMalformedText(value[i], join(String(i)));
      if (found) return found;
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    if (keyProblem) return { path: join(key), problem: keyProblem };
    const found = findMalformedText(child, join(key));
    if (found) return found;
  }
  return null;
}

/**
 * One rule for every route, before validation: no path parameter, query parameter or body field
 * may hold U+0000 or a lone surrogate (they reach PostgreSQL, URL encoders and e-mail headers as
 * errors otherwise). 400 with a field error naming the field.
 */
@Injectable()
export class WellFormedTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' && metadata.type !== 'query' && metadata.type !== 'param') return value;
    const found = findMalformedText(value, metadata.data ?? '');
    if (!found) return value;
    const field = found.path || metadata.type;
    const message = found.problem === 'nul' ? CommonMessages.textHasNul(field) : CommonMessages.textNotWellFormed(field);
    const errors: FieldErrors = { [field]: [message] };
    throw new BadRequestException({ message, errors });
  }
}

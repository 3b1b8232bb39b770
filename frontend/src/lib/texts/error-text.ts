/**
 * The one turn of an API failure into the text a screen shows (the spec's catalogue, docs/requirements.md#texts and
 * docs/requirements.md#texts). Every feature words a few cases its own way; those are data (`ErrorTexts`), kept in
 * the feature's texts file beside its other texts, and this function applies them in one order:
 *
 * 1. not an ApiError (a bug, not an answer): `fallback`;
 * 2. no answer (status 0): `network`, else the error's own text (the network text, or an
 *    upload's time limit);
 * 3. a 5xx: `server` when the feature has one;
 * 4. the first field error, for the statuses in `fieldErrors`;
 * 5. the feature's fixed text for the status (`status`);
 * 6. the server's message, for the statuses in `serverMessage` (default all);
 * 7. `withoutMessage` for the status, else `fallback`.
 */
import { ApiError, firstFieldError } from '../api/errors';
import { CommonTexts } from './common';

export interface ErrorTexts {
  /** The text when nothing more specific applies. */
  fallback: string;
  /** No answer (status 0). Default: the failure's own text. */
  network?: string;
  /** Any 5xx. Default: the server's message (rule 6). */
  server?: string;
  /** Fixed texts by status (401 → the sign-in text, ...). */
  status?: Readonly<Partial<Record<number, string>>>;
  /** Statuses whose first field error is shown before anything else (true: every status). */
  fieldErrors?: boolean | readonly number[];
  /** Statuses whose server message is shown (true, the default: every one; false: none). */
  serverMessage?: boolean | readonly number[];
  /** By status: the text when the server sent no message (default `fallback`). */
  withoutMessage?: Readonly<Partial<Record<number, string>>>;
}

const covers = (rule: boolean | readonly number[] | undefined, status: number) =>
  Array.isArray(rule) ? rule.includes(status) : rule === true;

export function errorText(error: unknown, texts: ErrorTexts): string {
  if (!(error instanceof ApiError)) return texts.fallback;
  const { status } = error;
  if (status === 0) return texts.network ?? (error.message || CommonTexts.NETWORK_ERROR);
  if (status >= 500 && texts.server !== undefined) return texts.server;
  if (covers(texts.fieldErrors, status)) {
    const field = firstFieldError(error);
    if (field) return field;
  }
  const fixed = texts.status?.[status];
  if (fixed !== undefined) return fixed;
  if (covers(texts.serverMessage ?? true, status) && error.message) return error.message;
  return texts.withoutMessage?.[status] ?? texts.fallback;
}

/**
 * The editor's autosave rules, pure so the helper tests share them: when it runs,
 * how long a failed one waits before the next try, and which failures are an edit conflict (the
 * dialog) or passing (try again) rather than a refusal to show.
 */
import { ApiError } from '../../lib/api/errors';

/** Autosave waits this long after the last change. */
export const AUTOSAVE_DELAY_MS = 5_000;

/** A failed autosave is tried again after 5 s, then 10, 20, 40, and every 60 s at most. */
export const autosaveRetryDelay = (attempt: number): number => Math.min(AUTOSAVE_DELAY_MS * 2 ** Math.max(0, attempt), 60_000);

/**
 * 409 'This post was changed elsewhere since you opened it.': the answer
 * carries the saved post as `data.current`. A used slug is a 409 too, with `errors.slug` instead.
 */
export const isEditConflict = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 409 && typeof error.data === 'object' && error.data !== null && 'current' in error.data;

/** No answer, too many requests or a server failure: worth trying again; anything else is the server refusing this text. */
export const isTransientFailure = (error: unknown): boolean =>
  !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;

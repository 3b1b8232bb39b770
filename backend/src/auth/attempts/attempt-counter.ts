import { CommonMessages } from '../../common/messages';
import { TooManyRequestsException } from '../../common/too-many-requests';

/** What a counted attempt may do. */
export interface AttemptVerdict {
  /** False once the key has used up its attempts for the current window. */
  allowed: boolean;
  /** Attempts counted in the current window, this one included. */
  count: number;
  /** Seconds until the window ends and the key may try again. */
  retryAfterSeconds: number;
}

/**
 * Counts attempts per key in fixed windows (the per-account sign-in limit). An attempt is
 * counted before it is checked, so parallel guesses cannot slip past the limit together; a
 * success resets the key. The default stores counters in PostgreSQL (shared by every instance
 * on the database); a Redis store can replace it behind this class (REDIS_URL).
 */
export abstract class AttemptCounter {
  /** Counts one attempt under `key`; `allowed` while the window's count is at most `limit`. */
  abstract hit(key: string, limit: number, windowMs: number): Promise<AttemptVerdict>;

  /** Forgets the key's attempts (after a success). */
  abstract reset(key: string): Promise<void>;
}

/** 429 with the spec's text and the window's remaining seconds. */
export class TooManyAttemptsException extends TooManyRequestsException {
  constructor(retryAfterSeconds: number) {
    super(CommonMessages.TOO_MANY_ATTEMPTS, retryAfterSeconds);
  }
}

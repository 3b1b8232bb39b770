/** Shared pieces of the API e2e specs: paths, unique names, and the envelopes answers must equal. */

export const api = (path: string) => `/api/v1${path}`;

let counter = 0;
/** A name no other test (or earlier run on the same database) has used. */
export const uid = () => `${Date.now().toString(36)}${process.pid}${(counter += 1)}`;

/** The error envelope (docs/requirements.md#envelope); every error answer carries a request id. */
export const err = (status: number, message: string, errors: unknown = null) => ({
  success: false,
  data: null,
  message,
  status,
  errors,
  requestId: expect.any(String),
});

/**
 * A 429's envelope: it carries the wait as `retryAfterSeconds`, the same number as the
 * Retry-After header (pass the header, so the two are checked against each other).
 */
export const tooMany = (message: string, retryAfterHeader: string | undefined) => {
  const seconds = Number(retryAfterHeader);
  if (!Number.isInteger(seconds) || seconds < 1) throw new Error(`429 without a usable Retry-After header: ${retryAfterHeader}`);
  return { ...err(429, message), retryAfterSeconds: seconds };
};

/** The success envelope. */
export const ok = (data: unknown, message = 'OK', status = 200) => ({ success: true, data, message, status, errors: null });

export const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);

/**
 * Errors that mean "the database cannot be reached right now" rather than "this request is
 * wrong": the server is down or restarting, a connection broke, or none could be had in time.
 * They become 503 with Retry-After (docs/architecture.md#database-unreachable), never 500.
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres raises these without a code. */
const UNREACHABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/** Seconds a client is asked to wait (the Retry-After header) while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, syscall, message, driverError, cause, errors } = error as {
    code?: unknown;
    syscall?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (UNREACHABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    // A Unix socket that is not there: the embedded server is stopped (its socket file goes with it).
    // Only from connect(): a missing file anywhere else is no database matter.
    if (code === 'ENOENT' && syscall === 'connect') return true;
    // Class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  // TypeORM's, for a query on a connection that broke under it.
  if ((error as Error).name === 'QueryRunnerAlreadyReleasedError') return true;
  if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((text) => message.includes(text))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(driverError, depth + 1) || isDatabaseUnavailable(cause, depth + 1);
}

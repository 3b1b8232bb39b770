import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * 429 that knows when a retry can succeed: the exception filter writes the wait both as the
 * Retry-After header and as `retryAfterSeconds` in the envelope, so clients never read it from
 * the message.
 */
export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

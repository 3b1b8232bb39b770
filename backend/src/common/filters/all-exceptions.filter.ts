import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { Envelope, FieldErrors } from '../envelope';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../database-unavailable';
import { CommonMessages } from '../messages';
import { requestIdOf } from '../request-id';
import { TooManyRequestsException } from '../too-many-requests';

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

const FALLBACK_MESSAGES: Partial<Record<number, string>> = {
  400: CommonMessages.INVALID_REQUEST,
  401: CommonMessages.AUTH_FAILED,
  403: CommonMessages.FORBIDDEN,
  404: CommonMessages.NOT_FOUND,
  413: CommonMessages.PAYLOAD_TOO_LARGE,
  429: CommonMessages.TOO_MANY_ATTEMPTS,
};

export interface ErrorDescription {
  status: number;
  message: string;
  errors: FieldErrors | null;
  /** What a 4xx answer carries besides the message, when its exception gives `{ data }` (a 409's both versions). */
  data?: unknown;
  /** A 429's wait, when the exception knows it (else the filter takes the Retry-After a guard set). */
  retryAfterSeconds?: number;
}

/**
 * What an exception means to a client: the real status, the spec's message and any field errors.
 * Anything unexpected is a 500 with the generic text (its details belong in the log only).
 */
export function describeException(exception: unknown): ErrorDescription {
  if (exception instanceof ThrottlerException) {
    return { status: 429, message: CommonMessages.TOO_MANY_ATTEMPTS, errors: null };
  }
  if (isDatabaseUnavailable(exception)) {
    return { status: HttpStatus.SERVICE_UNAVAILABLE, message: CommonMessages.TEMPORARILY_UNAVAILABLE, errors: null };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Express/body-parser failures (malformed JSON, bad %-encoding, too large) arrive wrapped;
    // their own text is an implementation detail, so answer with ours.
    if (isParserError(exception.cause)) {
      return { status, message: FALLBACK_MESSAGES[status] ?? CommonMessages.INVALID_REQUEST, errors: null };
    }
    const body = exception.getResponse();
    if (status >= 500)
      return {
        status,
        message: status === 503 ? (textOf(body) ?? CommonMessages.SERVICE_UNAVAILABLE) : CommonMessages.UNEXPECTED,
        errors: null,
      };
    const errors = typeof body === 'object' && body && 'errors' in body ? ((body as { errors?: FieldErrors }).errors ?? null) : null;
    const data = typeof body === 'object' && body && 'data' in body ? (body as { data?: unknown }).data : undefined;
    const wait = exception instanceof TooManyRequestsException ? { retryAfterSeconds: exception.retryAfterSeconds } : {};
    return {
      status,
      message: textOf(body) ?? FALLBACK_MESSAGES[status] ?? CommonMessages.INVALID_REQUEST,
      errors,
      ...(data === undefined ? {} : { data }),
      ...wait,
    };
  }
  // Errors raised by Express middleware before a route runs (malformed JSON, body too large).
  const parserError = exception as BodyParserError;
  const parserStatus = parserError?.status ?? parserError?.statusCode;
  if (typeof parserError?.type === 'string' && typeof parserStatus === 'number' && parserStatus >= 400 && parserStatus < 500) {
    return { status: parserStatus, message: FALLBACK_MESSAGES[parserStatus] ?? CommonMessages.INVALID_REQUEST, errors: null };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: CommonMessages.UNEXPECTED, errors: null };
}

function isParserError(cause: unknown): boolean {
  if (cause instanceof SyntaxError || cause instanceof URIError || typeof (cause as BodyParserError | undefined)?.type === 'string')
    return true;
  // Other http-errors of the parsers (a corrupt gzip/deflate/br body has no `type`): their text is Node's.
  const httpError = cause as { statusCode?: unknown; expose?: unknown } | undefined;
  return typeof httpError?.statusCode === 'number' && typeof httpError.expose === 'boolean';
}

/** A Retry-After that a guard set in seconds (the only form this API writes). */
function secondsOf(header: number | string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const seconds = typeof value === 'number' ? value : value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** Nest's own exceptions carry `{ message, error, statusCode }`; ours carry `{ message, errors }`. */
function textOf(body: string | object): string | undefined {
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message) && typeof message[0] === 'string') return message[0];
  return undefined;
}

/**
 * The one place errors become answers: the envelope with the real status, the spec's message,
 * field errors for validation, and for anything unexpected a 500 that shows only the request id
 * (the stack goes to the log).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request & { id?: string }>();
    const response = http.getResponse<Response>();
    // Body-parser failures happen before the request logger gives the request its id.
    const requestId = request?.id !== undefined ? String(request.id) : request ? requestIdOf(request) : undefined;
    if (request?.id === undefined && requestId && !response.headersSent) response.setHeader('X-Request-Id', requestId);
    const { status, message, errors, data, retryAfterSeconds } = describeException(exception);

    if (status >= 500) {
      this.logger.error(
        { err: exception, requestId, method: request?.method, url: request?.originalUrl },
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (response.headersSent) return;
    if (status === HttpStatus.SERVICE_UNAVAILABLE) response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    const body: Envelope<unknown> = { success: false, data: data ?? null, message, status, errors, requestId };
    if (status === HttpStatus.TOO_MANY_REQUESTS) {
      const wait = retryAfterSeconds ?? secondsOf(response.getHeader('Retry-After'));
      if (wait !== undefined) {
        response.setHeader('Retry-After', String(wait));
        body.retryAfterSeconds = wait;
      }
    }
    response.status(status).json(body);
  }
}

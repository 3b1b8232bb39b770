import { CommonTexts } from '../texts/common';

/** The envelope every API answer uses (docs/requirements.md#envelope). */
export interface ApiEnvelope<T> {
  success: boolean;
  data: T;
  message: string;
  status: number;
  errors: Record<string, string[]> | null;
  /** 429 only: seconds until a retry can succeed. */
  retryAfterSeconds?: number;
}

/** What an error answer carries besides its message and field errors. */
export interface ApiErrorDetails {
  /** The envelope's `data` (a 409 edit conflict carries the saved post there). */
  data?: unknown;
  /** A 429's wait in seconds. */
  retryAfterSeconds?: number;
}

const { NETWORK_ERROR, UNEXPECTED_ERROR } = CommonTexts;

/**
 * An API failure: the server's message, status, field errors and details (status 0 = no answer).
 * Code tells failures apart by `status`, `errors` and the details, never by the message's wording.
 */
export class ApiError extends Error {
  readonly data: unknown;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    readonly status: number,
    readonly errors: Record<string, string[]> | null = null,
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.data = details.data ?? null;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }

  /** The first message for a field, for forms. */
  field(name: string): string | undefined {
    return this.errors?.[name]?.[0];
  }
}

export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The envelope `data` an operation's success carries, typed by the operation (from openapi.json). */
export type Unwrapped<R> = R extends { data: infer D } ? (D extends { data: infer T } ? T : never) : never;

function toApiError(error: unknown, response: Response): ApiError {
  const envelope = error as Partial<ApiEnvelope<unknown>> | undefined;
  if (envelope && typeof envelope === 'object' && typeof envelope.message === 'string') {
    const retryAfterSeconds = typeof envelope.retryAfterSeconds === 'number' ? envelope.retryAfterSeconds : undefined;
    return new ApiError(envelope.message, response.status, envelope.errors ?? null, { data: envelope.data, retryAfterSeconds });
  }
  return new ApiError(UNEXPECTED_ERROR, response.status);
}

/**
 * Turns an openapi-fetch call into its envelope's `data`, or throws an ApiError with the
 * server's message. Network failures become status 0 with the spec's network text.
 */
export async function unwrap<R extends FetchResult>(call: Promise<R>): Promise<Unwrapped<R>> {
  return (await unwrapWithMessage(call)).data;
}

/** The same, with the envelope's message, for the few calls whose success notice the screen shows. */
export async function unwrapWithMessage<R extends FetchResult>(
  call: Promise<R>,
): Promise<{ data: Unwrapped<R>; message: string | undefined }> {
  let result: R;
  try {
    result = await call;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(NETWORK_ERROR, 0);
  }
  if (result.error !== undefined || !result.response.ok) throw toApiError(result.error, result.response);
  if (result.response.status === 204) return { data: undefined as never, message: undefined };
  const envelope = result.data as { data: never; message?: unknown };
  return { data: envelope.data, message: typeof envelope.message === 'string' && envelope.message ? envelope.message : undefined };
}

/** The first field error of a failure, if it has any. */
export function firstFieldError(error: ApiError): string | undefined {
  for (const messages of Object.values(error.errors ?? {})) if (messages?.[0]) return messages[0];
  return undefined;
}

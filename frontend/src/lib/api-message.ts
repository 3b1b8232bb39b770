/** For the few calls whose success message the screen shows: the envelope's data and message. */
import { ApiError, type ApiEnvelope } from './api/errors';
import { CommonTexts } from './texts/common';

interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

export async function unwrapWithMessage<T = unknown>(call: Promise<FetchResult>): Promise<{ data: T; message: string | undefined }> {
  let result: FetchResult;
  try {
    result = await call;
  } catch {
    throw new ApiError(CommonTexts.NETWORK_ERROR, 0);
  }
  const envelope = (result.error ?? result.data) as Partial<ApiEnvelope<unknown>> | undefined;
  const message = envelope && typeof envelope.message === 'string' && envelope.message ? envelope.message : undefined;
  if (result.error !== undefined || !result.response.ok) throw new ApiError(message ?? CommonTexts.UNEXPECTED_ERROR, result.response.status, envelope?.errors ?? null);
  return { data: envelope?.data as T, message };
}

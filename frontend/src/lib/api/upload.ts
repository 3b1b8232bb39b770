/**
 * The islands' file uploads (multipart), typed by the OpenAPI path like the client: the form's
 * fields are the operation's multipart fields (files where the schema says binary) and the answer
 * is the operation's envelope data. XMLHttpRequest, because fetch reports no upload progress.
 * Same rules as `browserApi()`: X-Request-Timestamp on every request, and a 401 waits for the
 * shared session refresh and is sent once more (progress starts again from 0).
 */
import { CommonTexts } from '../texts/common';
import { refreshSession, retriesAfterRefresh, TIMESTAMP_HEADER } from './client';
import { ApiError, type ApiEnvelope } from './errors';
import type { paths } from '@inkwell/client/schema';

type PostOf<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;
type MultipartOf<O> = O extends { requestBody: { content: { 'multipart/form-data': infer B } } } ? B : never;
type SuccessOf<O> = O extends { responses: infer R } ? R[Extract<keyof R, 200 | 201 | 202>] : never;

/** The paths whose POST takes a multipart body. */
export type UploadPath = { [P in keyof paths]: [MultipartOf<PostOf<P>>] extends [never] ? never : P }[keyof paths];
/** The form an upload sends: the operation's multipart fields, a file for each binary one. */
export type UploadForm<P extends UploadPath> = { [K in keyof MultipartOf<PostOf<P>>]: Blob };
/** The envelope `data` of the operation's success. */
export type UploadData<P extends UploadPath> =
  SuccessOf<PostOf<P>> extends { content: { 'application/json': { data: infer D } } } ? D : never;

/** A feature's failure texts (the spec words them per screen); the defaults are the common ones. */
export interface UploadTexts {
  /** No answer. Default: the network text. */
  network?: string;
  /** The time limit passed. */
  timeout?: string;
  /** The answer is not JSON. Default: the unexpected-error text. */
  unreadable?: string;
  /** A failure whose answer has no message. Default: the unexpected-error text. */
  failed?: (status: number) => string;
}

export interface UploadOptions {
  /** 0-100 while the body goes up. */
  onProgress?: (percent: number) => void;
  /** Cancels the upload (it rejects with an AbortError). */
  signal?: AbortSignal;
  /** Time limit in ms (none when left out). */
  timeoutMs?: number;
  texts?: UploadTexts;
  /** The operation's query parameters (e.g. an import's `source`). */
  query?: Record<string, string>;
}

interface Answer {
  status: number;
  body: string;
}

function send(path: string, form: FormData, options: UploadOptions): Promise<Answer> {
  const { onProgress, signal, timeoutMs, texts } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', abort);
    xhr.open('POST', path);
    xhr.setRequestHeader(TIMESTAMP_HEADER, String(Date.now()));
    xhr.setRequestHeader('Accept', 'application/json');
    if (timeoutMs) xhr.timeout = timeoutMs;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      settle();
      resolve({ status: xhr.status, body: xhr.responseText });
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError(texts?.network ?? CommonTexts.NETWORK_ERROR, 0));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new ApiError(texts?.timeout ?? CommonTexts.NETWORK_ERROR, 0));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    signal?.addEventListener('abort', abort, { once: true });
    xhr.send(form);
  });
}

/**
 * POST `path` with `fields` as multipart/form-data: the envelope's data (undefined when the answer
 * carries none), or an ApiError with the server's message, status and field errors.
 */
export async function upload<P extends UploadPath>(
  path: P,
  fields: UploadForm<P>,
  options: UploadOptions = {},
): Promise<UploadData<P> | undefined> {
  const form = new FormData();
  for (const [name, value] of Object.entries<Blob>(fields)) form.append(name, value);
  const url = options.query ? `${path}?${new URLSearchParams(options.query)}` : path;
  let answer = await send(url, form, options);
  if (answer.status === 401 && retriesAfterRefresh(path) && (await refreshSession())) {
    options.onProgress?.(0);
    answer = await send(url, form, options);
  }
  let envelope: Partial<ApiEnvelope<UploadData<P>>> | undefined;
  try {
    envelope = answer.body ? JSON.parse(answer.body) : undefined;
  } catch {
    throw new ApiError(options.texts?.unreadable ?? CommonTexts.UNEXPECTED_ERROR, answer.status);
  }
  if (answer.status < 200 || answer.status >= 300) {
    const message =
      typeof envelope?.message === 'string' && envelope.message
        ? envelope.message
        : (options.texts?.failed?.(answer.status) ?? CommonTexts.UNEXPECTED_ERROR);
    throw new ApiError(message, answer.status, envelope?.errors ?? null);
  }
  return envelope?.data;
}

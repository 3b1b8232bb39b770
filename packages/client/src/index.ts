/**
 * @inkwell/client: the Inkwell API, typed from its openapi.json. `createInkwellClient` gives an
 * openapi-fetch client whose paths, parameters, bodies and answers are the API's own; `data()`
 * turns an answer into its envelope's `data` or throws an InkwellApiError with the API's message.
 *
 *   const inkwell = createInkwellClient({ baseUrl: 'https://blog.example.com', token: process.env.INKWELL_TOKEN });
 *   const me = await data(inkwell.GET('/api/v1/users/profile'));
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };
export type InkwellClient = Client<paths>;

export interface InkwellClientOptions {
  /** The site's origin, e.g. https://blog.example.com (the paths carry /api/v1 themselves). */
  baseUrl: string;
  /** A personal API token (`inkw_…`, created on /account), sent as `Authorization: Bearer`. */
  token?: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
  /** Headers added to every request. */
  headers?: Record<string, string>;
}

export function createInkwellClient({ baseUrl, token, fetch, headers = {} }: InkwellClientOptions): InkwellClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    fetch,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

/** An answer that was not a success: the API's status, message and field errors. */
export class InkwellApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: Record<string, string[]> | null,
  ) {
    super(message);
    this.name = 'InkwellApiError';
  }
}

type Envelope = { data?: unknown; message?: string; errors?: Record<string, string[]> | null };
/** The `data` of a success envelope, typed by the operation. */
export type DataOf<R> = R extends { data: infer D } ? (D extends { data: infer T } ? T : never) : never;

/** Awaits an openapi-fetch call and gives its envelope's `data` (undefined for 204), or throws InkwellApiError. */
export async function data<R extends { data?: unknown; error?: unknown; response: Response }>(call: Promise<R>): Promise<DataOf<R>> {
  const result = await call;
  if (!result.response.ok) {
    const envelope = (result.error ?? {}) as Envelope;
    throw new InkwellApiError(envelope.message ?? `HTTP ${result.response.status}`, result.response.status, envelope.errors ?? null);
  }
  return (result.data as Envelope | undefined)?.data as DataOf<R>;
}

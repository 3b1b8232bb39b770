import createClient from 'openapi-fetch';
import type { paths } from './schema';

export type ApiClient = ReturnType<typeof createClient<paths>>;

/**
 * The one way pages and islands call the API: typed from openapi.json. Every call carries
 * X-Request-Timestamp (the spec's client header; the CSRF rule for cookie sessions needs it).
 */
export function createApiClient(options: { baseUrl?: string; cookie?: string; forwardedFor?: string } = {}): ApiClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl ?? '', credentials: 'same-origin' });
  client.use({
    onRequest({ request }) {
      request.headers.set('X-Request-Timestamp', String(Date.now()));
      if (options.cookie) request.headers.set('Cookie', options.cookie);
      if (options.forwardedFor) request.headers.set('X-Forwarded-For', options.forwardedFor);
      return request;
    },
  });
  return client;
}

/** The browser's client (same origin, the session cookie goes along by itself). */
let browserClient: ApiClient | undefined;
export function browserApi(): ApiClient {
  browserClient ??= createApiClient();
  return browserClient;
}

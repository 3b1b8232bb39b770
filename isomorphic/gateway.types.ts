/**
 * The contract between the server and the Astro pages' data path (plain types only: the frontend
 * imports this file, so it must not pull in Nest, TypeORM or Express).
 *
 * A page calls an API operation by its OpenAPI path template and parameters, exactly as the
 * browser's typed client does over HTTP; the server runs the controller method that HTTP would
 * reach, in process (backend/src/gateway/page-gateway.service.ts).
 */

export type GatewayMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface GatewayCall {
  method: GatewayMethod;
  /** The OpenAPI path template, e.g. `/api/v1/blog/posts/public/{slug}`. */
  path: string;
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
}

export interface GatewayAnswer {
  status: number;
  /** The JSON body exactly as an HTTP client would parse it (the envelope); undefined for 204. */
  body: unknown;
  /** Response headers the operation set (Set-Cookie once per cookie). */
  headers: [string, string][];
}

/** One visitor's door into the API for one page request: their cookies and address go along. */
export interface PageGateway {
  call(call: GatewayCall): Promise<GatewayAnswer>;
  /** The same visitor with some cookies replaced (after the session was renewed mid-request). */
  withCookies(cookies: Record<string, string | undefined>): PageGateway;
}

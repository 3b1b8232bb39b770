/**
 * The pages' API client: the same typed operations as the browser's client (`browserApi()`, over
 * HTTP), answered in process by the server's page gateway (backend/src/gateway), which runs the
 * controller method HTTP would reach with the same guards, pipes and envelope. No socket, no
 * loopback request.
 */
import type { GatewayMethod, PageGateway } from '../../../../shared/gateway.types';
import type { ApiClient } from './client';

interface CallInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
}

function operation(gateway: PageGateway, method: GatewayMethod) {
  return async (path: string, init: CallInit = {}) => {
    const answer = await gateway.call({ method, path, params: init.params, body: init.body });
    const response = new Response(null, { status: answer.status, headers: answer.headers });
    return response.ok ? { data: answer.body, response } : { error: answer.body, response };
  };
}

/** An ApiClient whose calls go through the gateway the server handed this page request. */
export function pageApi(gateway: PageGateway): ApiClient {
  const client = {
    GET: operation(gateway, 'GET'),
    POST: operation(gateway, 'POST'),
    PUT: operation(gateway, 'PUT'),
    PATCH: operation(gateway, 'PATCH'),
    DELETE: operation(gateway, 'DELETE'),
  };
  // The one cast of the data path: a method serving every operation of `paths` cannot be written
  // as each operation's own signature; the operations' types stay those of openapi-fetch's Client.
  return client as unknown as ApiClient;
}

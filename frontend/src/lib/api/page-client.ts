/**
 * The pages' API client: the same typed operations as the browser's client (`browserApi()`, over
 * HTTP), answered in process by the server's page gateway (backend/src/gateway), which runs the
 * controller method HTTP would reach with the same guards, pipes and envelope. No socket, no
 * loopback request.
 */
import type { GatewayMethod, PageGateway } from '../../../../isomorphic/gateway.types';
import type { ApiClient } from './client';

interface CallInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
}

type Answer = { data: unknown; response: Response } | { error: unknown; response: Response };

function operation(gateway: PageGateway, method: GatewayMethod) {
  return async (path: string, init: CallInit = {}): Promise<Answer> => {
    const answer = await gateway.call({ method, path, params: init.params, body: init.body });
    const response = new Response(null, { status: answer.status, headers: answer.headers });
    return response.ok ? { data: answer.body, response } : { error: answer.body, response };
  };
}

/**
 * An ApiClient whose calls go through the gateway the server handed this page request.
 * The same read asked twice while one page renders (the header's unread count and the
 * notifications page's, say) is made once: GETs are kept by path and parameters for the client's
 * life, one page request, and any other call (a write) forgets them, so a read after a write is
 * made afresh. The answers' data is frozen (the gateway's json-answer), so sharing one is safe.
 */
export function pageApi(gateway: PageGateway): ApiClient {
  const reads = new Map<string, Promise<Answer>>();
  const read = operation(gateway, 'GET');
  const write = (method: GatewayMethod) => {
    const call = operation(gateway, method);
    return (path: string, init?: CallInit) => {
      reads.clear();
      return call(path, init);
    };
  };
  const client = {
    GET: (path: string, init: CallInit = {}) => {
      const key = `${path} ${JSON.stringify(init.params ?? {})}`;
      let answer = reads.get(key);
      if (!answer) {
        answer = read(path, init);
        reads.set(key, answer);
      }
      return answer;
    },
    POST: write('POST'),
    PUT: write('PUT'),
    PATCH: write('PATCH'),
    DELETE: write('DELETE'),
  };
  // The one cast of the data path: a method serving every operation of `paths` cannot be written
  // as each operation's own signature; the operations' types stay those of openapi-fetch's Client.
  return client as unknown as ApiClient;
}

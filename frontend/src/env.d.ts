/// <reference types="astro/client" />

declare namespace App {
  /** What the server hands every page (isomorphic/server-locals.ts: one declaration for both sides). */
  type ServerLocals = import('../../isomorphic/server-locals').ServerLocals;

  interface Locals extends ServerLocals {
    /** The typed API client of this request: the server's page gateway, in process (set by the middleware). */
    api: import('./lib/api/client').ApiClient;
    /** The signed-in user (set by the session middleware), undefined when anonymous. */
    user?: import('./lib/session').SessionUser;
    /** When the current access token expires (ms since epoch), for the silent-refresh timer. */
    sessionExpiry?: number;
    /** The address a signed-in page was asked for while the session could not be checked (503 page). */
    unavailablePath?: string;
  }
}

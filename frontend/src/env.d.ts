/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Loopback origin of the Nest process serving this page (set by the server). */
    apiOrigin: string;
    /** The visitor's address, forwarded on the pages' API calls (per-visitor rate limits). */
    clientIp?: string;
    /** PUBLIC_URL: absolute links (canonical, feeds). */
    publicUrl: string;
    /** Whether anonymous public pages may be cached. */
    pageCache: boolean;
    /** The public reads answered in process by the server (set by the server). */
    publicContent: import('./lib/public-content').PublicContentSource;
    /** The public reads as pages use them: each settles to Loaded (set by the middleware). */
    content: import('./lib/public-content').PublicContent;
    /** Typed API client bound to this request (forwards the session cookie). */
    api: import('./lib/api/client').ApiClient;
    /** The signed-in user (set by the session middleware), undefined when anonymous. */
    user?: import('./lib/session').SessionUser;
    /** When the current access token expires (ms since epoch), for the silent-refresh timer. */
    sessionExpiry?: number;
    /** The address a signed-in page was asked for while the session could not be checked (503 page). */
    unavailablePath?: string;
  }
}

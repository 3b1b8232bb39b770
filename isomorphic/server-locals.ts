import type { PageGateway } from './gateway.types';

/**
 * What the server hands every Astro page as `Astro.locals` (frontend/src/env.d.ts extends this
 * very type, so the two sides cannot drift). Plain types only: the frontend imports this file.
 */
export interface ServerLocals {
  /** The visitor's door to the API, in process (backend/src/gateway). Pages use it through `Astro.locals.api`. */
  gateway: PageGateway;
  /** PUBLIC_URL: absolute links (canonical, feeds). */
  publicUrl: string;
  /** Whether anonymous public pages may be cached. */
  pageCache: boolean;
  /** SITE_TIME_ZONE: the zone every date on every page is shown in (frontend/src/lib/dates.ts). */
  siteTimeZone: string;
}

import { defineMiddleware, sequence } from 'astro:middleware';
import { pageApi } from './lib/api/page-client';
import { session } from './lib/session-middleware';
import { adminTwoFactor } from './lib/admin-two-factor-middleware';
import { setSiteTimeZone } from './lib/dates';

/**
 * Binds the typed API client to this request: every read and write goes through the server's
 * page gateway, in process, with the visitor's cookies and address (no loopback HTTP).
 */
const api = defineMiddleware((context, next) => {
  context.locals.api = pageApi(context.locals.gateway);
  context.locals.publicUrl ??= context.url.origin;
  if (context.locals.siteTimeZone) setSiteTimeZone(context.locals.siteTimeZone);
  return next();
});

export const onRequest = sequence(api, session, adminTwoFactor);

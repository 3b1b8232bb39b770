import { defineMiddleware, sequence } from 'astro:middleware';
import { createApiClient } from './lib/api/client';
import { publicContent } from './lib/public-content';
import { session } from './lib/session-middleware';

/**
 * Binds a typed API client to this request: loopback to this process, forwarding the cookies and
 * the visitor's address (the API trusts X-Forwarded-For from loopback only). Public reads go
 * through `content`, answered in process by the server.
 */
const api = defineMiddleware((context, next) => {
  const origin = context.locals.apiOrigin ?? context.url.origin;
  context.locals.api = createApiClient({
    baseUrl: origin,
    cookie: context.request.headers.get('cookie') ?? undefined,
    forwardedFor: context.locals.clientIp,
  });
  context.locals.content = publicContent(context.locals.publicContent);
  context.locals.publicUrl ??= context.url.origin;
  return next();
});

export const onRequest = sequence(api, session);

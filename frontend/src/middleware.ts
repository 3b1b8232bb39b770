import { defineMiddleware, sequence } from 'astro:middleware';
import { createApiClient } from './lib/api/client';
import { session } from './lib/session-middleware';

/** Binds a typed API client to this request: loopback to this process, forwarding the cookies. */
const api = defineMiddleware((context, next) => {
  const origin = context.locals.apiOrigin ?? context.url.origin;
  context.locals.api = createApiClient({
    baseUrl: origin,
    cookie: context.request.headers.get('cookie') ?? undefined,
  });
  context.locals.publicUrl ??= context.url.origin;
  return next();
});

export const onRequest = sequence(api, session);

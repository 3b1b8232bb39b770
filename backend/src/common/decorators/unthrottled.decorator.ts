import { applyDecorators } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';

/** The OpenAPI extension that tells integrators (and common/openapi.ts) a route is never rate-limited. */
export const UNTHROTTLED = 'x-unthrottled';

/**
 * A route the global rate limit (app.module.ts) leaves alone, such as the health check that
 * probes poll. Documented, so that the OpenAPI document lists no 429 for it.
 */
export function Unthrottled() {
  return applyDecorators(SkipThrottle(), ApiExtension(UNTHROTTLED, true));
}

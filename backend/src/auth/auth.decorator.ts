import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth } from '@nestjs/swagger';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { ACCESS_COOKIE, type AuthUser } from './auth-user';
import { AUTH_OPTIONS, AuthOptions, JwtAuthGuard } from './guards/jwt-auth.guard';

export type { AuthOptions } from './guards/jwt-auth.guard';
export type { AuthUser } from './auth-user';

/**
 * The one way a route asks for a session. A signed-in caller is required (401 otherwise); with
 * `role`, the caller's highest role must rank at least as high (ADMIN > AUTHOR > USER), else 403.
 * `forbidden` and `unauthenticated` are the route's own texts from spec 001 §8 ('You do not
 * have permission to create posts.'); without them the generic ones of spec 000 apply. Both are
 * decided by the session guard before the body is validated. Documents 401/403 in Swagger.
 *
 *   @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_CREATE, unauthenticated: PostsMessages.AUTH_REQUIRED })
 */
export function Auth(options: AuthOptions = {}) {
  return applyDecorators(
    SetMetadata(AUTH_OPTIONS, options),
    UseGuards(JwtAuthGuard),
    ApiBearerAuth(),
    ApiCookieAuth(ACCESS_COOKIE),
    ApiErrors(401, 403),
  );
}

/**
 * The caller may be anonymous; when a valid session comes along, `@CurrentUser()` has it. With
 * `anonymousOnFailure`, a refused session (banned, unverified) reads as anonymous instead of 403.
 */
export function OptionalAuth(extra: Pick<AuthOptions, 'anonymousOnFailure'> = {}) {
  return applyDecorators(SetMetadata(AUTH_OPTIONS, { optional: true, ...extra }), UseGuards(JwtAuthGuard), ApiBearerAuth(), ApiCookieAuth(ACCESS_COOKIE));
}

/** The authenticated caller (undefined on an @OptionalAuth() route without a session). */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthUser | undefined => {
  return context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
});

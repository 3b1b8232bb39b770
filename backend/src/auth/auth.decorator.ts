import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { DECORATORS, type SecurityRequirementObject, type SecuritySchemeObject } from '@nestjs/swagger';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { ACCESS_COOKIE, type AuthUser } from './auth-user';
import type { ApiTokenScope } from '../../../isomorphic/api-tokens';
import { AUTH_OPTIONS, AuthOptions, JwtAuthGuard, SESSION_ONLY, TOKEN_SCOPE } from './guards/jwt-auth.guard';

export type { AuthOptions } from './guards/jwt-auth.guard';
/** The metadata keys the decorators below set, for what documents them (api-tokens/api-tokens.openapi.ts). */
export { AUTH_OPTIONS, SESSION_ONLY, TOKEN_SCOPE };
export type { AuthUser } from './auth-user';

/**
 * The two ways the session guard (guards/jwt-auth.guard.ts) accepts a session, as OpenAPI security
 * schemes: the document declares these (app.factory.ts hands them to common/openapi.ts), and
 * `@Auth()` / `@OptionalAuth()` name the same keys.
 */
export const SESSION_SECURITY_SCHEMES: Record<string, SecuritySchemeObject> = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The accessToken of POST /api/v1/auth/login or /api/v1/auth/refresh-token, as `Authorization: Bearer <accessToken>`',
  },
  cookie: {
    type: 'apiKey',
    in: 'cookie',
    name: ACCESS_COOKIE,
    description:
      'The httpOnly session cookie that sign-in sets for the browser; a write sent with it must also carry the X-Request-Timestamp header',
  },
};

/** Either scheme alone is enough (OpenAPI: one requirement object each). */
const SESSION_REQUIRED: SecurityRequirementObject[] = Object.keys(SESSION_SECURITY_SCHEMES).map((name) => ({ [name]: [] }));
/** The empty requirement: anonymous callers are served too. */
const SESSION_OPTIONAL: SecurityRequirementObject[] = [...SESSION_REQUIRED, {}];

/**
 * Sets the route's OpenAPI security requirements, replacing any. (@nestjs/swagger's ApiSecurity
 * appends to what its closure last saw, so one instance shared by several routes, as in
 * `const ADMIN = Auth(...)`, listed the bearer scheme once more on every route it was applied to.)
 */
function documentSecurity(requirements: SecurityRequirementObject[]): MethodDecorator & ClassDecorator {
  return ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    Reflect.defineMetadata(DECORATORS.API_SECURITY, requirements, descriptor ? (descriptor.value as object) : target);
    return descriptor ?? target;
  }) as MethodDecorator & ClassDecorator;
}

/**
 * The one way a route asks for a session. A signed-in caller is required (401 otherwise); with
 * `role`, the caller's highest role must rank at least as high (ADMIN > AUTHOR > USER), else 403.
 * `forbidden` and `unauthenticated` are the route's own texts from docs/requirements.md#errors-forbidden ('You do not
 * have permission to create posts.'); without them the generic ones of docs/requirements.md apply. Both are
 * decided by the session guard before the body is validated. Documents 401/403 in Swagger.
 *
 *   @Auth({ role: RoleName.AUTHOR, forbidden: PostsMessages.FORBIDDEN_CREATE, unauthenticated: PostsMessages.AUTH_REQUIRED })
 */
export function Auth(options: AuthOptions = {}) {
  return applyDecorators(
    SetMetadata(AUTH_OPTIONS, options),
    UseGuards(JwtAuthGuard),
    documentSecurity(SESSION_REQUIRED),
    ApiErrors(401, 403),
  );
}

/**
 * The caller may be anonymous; when a valid session comes along, `@CurrentUser()` has it. With
 * `anonymousOnFailure`, a refused session (banned, unverified) reads as anonymous instead of 403.
 */
export function OptionalAuth(extra: Pick<AuthOptions, 'anonymousOnFailure'> = {}) {
  return applyDecorators(
    SetMetadata(AUTH_OPTIONS, { optional: true, ...extra }),
    UseGuards(JwtAuthGuard),
    documentSecurity(SESSION_OPTIONAL),
  );
}

/** The authenticated caller (undefined on an @OptionalAuth() route without a session). */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthUser | undefined => {
  return context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
});

/**
 * The scope an API token needs for this write route (isomorphic/api-tokens.ts). Reads need `read`
 * and administrator routes `admin` without saying so; a write route that declares nothing
 * refuses tokens. Documented per operation as `x-required-scope`.
 *
 *   @TokenScope('posts:write')
 */
export function TokenScope(scope: Exclude<ApiTokenScope, 'read' | 'admin'>) {
  return SetMetadata(TOKEN_SCOPE, scope);
}

/**
 * The route (or every route of the controller) refuses API tokens, whatever the method: for what
 * only the person may do (passwords, two-factor, sessions, the tokens themselves). Every path
 * under /api/v1/auth and /api/v1/account is session-only without it.
 */
export function SessionOnly() {
  return SetMetadata(SESSION_ONLY, true);
}

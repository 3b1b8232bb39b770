import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth } from '@nestjs/swagger';
import { ApiErrors } from '../../common/decorators/api-errors.decorator';
import { ACCESS_COOKIE } from '../auth-user';
import type { AuthUser } from '../auth-user';
import { RoleName } from '../../users/entities/role.entity';
import { AUTH_OPTIONAL, AUTH_ROLES, JwtAuthGuard } from '../guards/jwt-auth.guard';

/**
 * A signed-in caller is required; with roles, the caller's highest role must rank at least as
 * high as the lowest listed (ADMIN > AUTHOR > USER). Documents 401/403 in Swagger.
 */
export function Auth(...roles: RoleName[]) {
  return applyDecorators(
    SetMetadata(AUTH_ROLES, roles),
    UseGuards(JwtAuthGuard),
    ApiBearerAuth(),
    ApiCookieAuth(ACCESS_COOKIE),
    ApiErrors(401, 403),
  );
}

/** The caller may be anonymous; when a valid session comes along, `@CurrentUser()` has it. */
export function OptionalAuth() {
  return applyDecorators(SetMetadata(AUTH_OPTIONAL, true), UseGuards(JwtAuthGuard), ApiBearerAuth(), ApiCookieAuth(ACCESS_COOKIE));
}

/** The authenticated caller (undefined on an @OptionalAuth() route without a session). */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthUser | undefined => {
  return context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
});

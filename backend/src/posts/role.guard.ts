import { applyDecorators, CanActivate, ExecutionContext, ForbiddenException, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthUser } from '../auth/auth-user';
import { ROLE_RANK, RoleName } from '../users/entities/role.entity';

const REQUIRED_ROLE = 'inkwell:requiredRoleWithMessage';

interface RequiredRole {
  role: RoleName;
  message: string;
}

/** Refuses callers whose highest role ranks below the required one, with the route's own 403 text. */
@Injectable()
export class RoleMessageGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.get<RequiredRole | undefined>(REQUIRED_ROLE, context.getHandler());
    if (!required) return true;
    const user = context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
    if (!user || ROLE_RANK[user.role] < ROLE_RANK[required.role]) throw new ForbiddenException(required.message);
    return true;
  }
}

/**
 * The spec's per-action 403 texts ('You do not have permission to create posts.'), checked before
 * the body is validated. Put it ABOVE `@Auth()` so the session guard runs first.
 */
export function RequireRole(role: RoleName, message: string) {
  return applyDecorators(SetMetadata(REQUIRED_ROLE, { role, message }), UseGuards(RoleMessageGuard));
}

import { ExecutionContext, ForbiddenException, HttpException, Injectable, UnauthorizedException } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { isDatabaseUnavailable } from '../../common/database-unavailable';
import { ROLE_RANK, RoleName } from '../../users/roles';
import { AuthMessages } from '../auth.messages';
import { CALLER_MEMO, type CallerMemo } from '../../gateway/caller-memo';
import { ACCESS_COOKIE, AuthUser, type CallerRead } from '../auth-user';
import { tokenAccessOf, type ApiTokenScope } from '../../../../isomorphic/api-tokens';
import { ApiTokensMessages } from '../../api-tokens/api-tokens.messages';
import { ApiTokensService } from '../../api-tokens/api-tokens.service';
import { apiTokenOf } from '../../api-tokens/token-tracker';
import { AdminTwoFactorPolicy } from '../../two-factor/admin-two-factor.policy';
import { TwoFactorMessages } from '../../two-factor/two-factor.messages';

export const AUTH_OPTIONS = 'inkwell:auth';
/** The scope a write route asks of an API token (`@TokenScope()`); without one, tokens cannot write there. */
export const TOKEN_SCOPE = 'inkwell:token-scope';
/** The route refuses API tokens whatever the method (`@SessionOnly()`). */
export const SESSION_ONLY = 'inkwell:session-only';

/** What `@Auth()` / `@OptionalAuth()` (auth/auth.decorator.ts) ask of the guard. */
export interface AuthOptions {
  /** The lowest role admitted (ranked: a route for AUTHOR also admits ADMIN). */
  role?: RoleName;
  /** 403 text for a caller below `role` (docs/requirements.md#errors-forbidden); default 'You do not have permission to access this resource.' */
  forbidden?: string;
  /** 401 text when no session comes at all (docs/requirements.md#validation-post); expired or invalid tokens keep 'Authentication failed...'. */
  unauthenticated?: string;
  /** Anonymous callers pass (set by `@OptionalAuth()`). */
  optional?: boolean;
  /** With `optional`: a session refused for any reason (a banned or unverified account too) reads as anonymous (public reads that existed before the caller mattered). */
  anonymousOnFailure?: boolean;
  /** Values read in the session's query (`user.alongside[key]`): the route's whole read in one round trip. */
  alongside?: readonly CallerRead[];
}

/** Where the guard leaves the route's `alongside` reads for the strategy's session query (a symbol: no client can set it). */
export const CALLER_READS = Symbol('inkwell:caller-reads');
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `@Auth({ role, forbidden, unauthenticated })` and `@OptionalAuth()` use this guard. Roles are
 * ranked: a route for AUTHOR also admits ADMIN. A request authenticated by cookie that changes data must carry
 * X-Request-Timestamp (a header a cross-site form cannot add: the CSRF rule of docs/requirements.md#decision-browser-session).
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  private apiTokens?: ApiTokensService;

  constructor(
    private readonly reflector: Reflector,
    // The guard is instantiated in every module that uses @Auth(); the token service lives in api-tokens.
    private readonly moduleRef: ModuleRef,
    private readonly adminTwoFactor: AdminTwoFactorPolicy,
  ) {
    super();
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context
      .switchToHttp()
      .getRequest<Request & { user?: AuthUser; [CALLER_MEMO]?: CallerMemo; [CALLER_READS]?: readonly CallerRead[] }>();
    const options =
      this.reflector.getAllAndOverride<AuthOptions | undefined>(AUTH_OPTIONS, [context.getHandler(), context.getClass()]) ?? {};
    const optional = options.optional === true;
    const hasBearer = /^Bearer\s+\S/i.test(request.headers.authorization ?? '');
    const hasCookie = Boolean((request.cookies as Record<string, string> | undefined)?.[ACCESS_COOKIE]);

    if (!hasBearer && !hasCookie) {
      if (optional) return true;
      throw new UnauthorizedException(options.unauthenticated ?? AuthMessages.AUTH_REQUIRED);
    }
    const apiToken = apiTokenOf(request.headers);
    if (apiToken) return this.admitApiToken(context, request, apiToken, options);
    try {
      // Not for a page's gateway calls: they share one caller, whose values would be stale after the page's own writes.
      if (options.alongside && !request[CALLER_MEMO]) request[CALLER_READS] = options.alongside;
      await this.authenticate(context, request);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error; // 503, not "log in again"
      if (optional && (options.anonymousOnFailure || !(error instanceof ForbiddenException))) return true;
      throw error instanceof HttpException ? error : new UnauthorizedException(AuthMessages.AUTH_FAILED);
    }
    if (!hasBearer && !SAFE_METHODS.has(request.method) && !request.headers['x-request-timestamp']) {
      throw new ForbiddenException(AuthMessages.CSRF);
    }

    if (options.role && request.user && ROLE_RANK[request.user.role] < ROLE_RANK[options.role]) {
      throw new ForbiddenException(options.forbidden ?? AuthMessages.FORBIDDEN);
    }
    if (request.user) await this.assertAdminTwoFactor(options, request.user);
    return true;
  }

  /** The site may require administrators to use two-factor sign-in: until they set it up, no ADMIN route answers (a session or a token alike). */
  private async assertAdminTwoFactor(options: AuthOptions, user: AuthUser): Promise<void> {
    if (options.role === RoleName.ADMIN && (await this.adminTwoFactor.requiresSetUp(user.id, user.role))) {
      throw new ForbiddenException({
        message: TwoFactorMessages.SETUP_REQUIRED,
        errors: { twoFactor: [TwoFactorMessages.SETUP_REQUIRED] },
      });
    }
  }

  /**
   * A personal API token (`Bearer inkw_…`) acts as its user, limited to its scopes: the scope the
   * route needs comes from one rule (isomorphic/api-tokens.ts tokenAccessOf), then the role applies as
   * for a session. No CSRF header: a page on another site cannot attach the token.
   */
  private async admitApiToken(
    context: ExecutionContext,
    request: Request & { user?: AuthUser; [CALLER_MEMO]?: CallerMemo },
    token: string,
    options: AuthOptions,
  ): Promise<boolean> {
    const needed = tokenAccessOf({
      method: request.method,
      path: (request.route as { path?: string } | undefined)?.path ?? request.path,
      role: options.role,
      declaredScope: this.reflector.getAllAndOverride<ApiTokenScope | undefined>(TOKEN_SCOPE, [context.getHandler(), context.getClass()]),
      sessionOnly: this.reflector.getAllAndOverride<boolean | undefined>(SESSION_ONLY, [context.getHandler(), context.getClass()]),
    });
    if (needed === 'session') throw new ForbiddenException(ApiTokensMessages.SESSION_ONLY);
    this.apiTokens ??= this.moduleRef.get(ApiTokensService, { strict: false });
    const reads = options.alongside && !request[CALLER_MEMO] ? options.alongside : [];
    const caller = await this.apiTokens.resolveCaller(token, reads);
    // Failures read as they do for a session: on an optional route an unusable token is anonymous, a refused one 403 (unless anonymousOnFailure).
    if (caller === 'unknown' || caller === 'expired') {
      if (options.optional) return true;
      throw new UnauthorizedException(caller === 'expired' ? ApiTokensMessages.EXPIRED : ApiTokensMessages.INVALID);
    }
    const anonymousInstead = options.optional === true && options.anonymousOnFailure === true;
    if (caller === 'locked') {
      if (anonymousInstead) return true;
      throw new ForbiddenException(AuthMessages.ACCOUNT_LOCKED);
    }
    if (!caller.apiToken?.scopes.includes(needed)) {
      if (anonymousInstead) return true;
      throw new ForbiddenException(ApiTokensMessages.lacksScope(needed));
    }
    request.user = caller;
    if (options.role && ROLE_RANK[caller.role] < ROLE_RANK[options.role]) {
      throw new ForbiddenException(options.forbidden ?? AuthMessages.FORBIDDEN);
    }
    await this.assertAdminTwoFactor(options, caller);
    return true;
  }

  /**
   * Passport's check of the token and the session behind it. The calls a page makes through the
   * gateway (gateway/page-gateway.service.ts) share one memo: the first call resolves the caller,
   * the others reuse the outcome (the user, or the same failure), so a page costs one session query.
   */
  private async authenticate(context: ExecutionContext, request: Request & { user?: AuthUser; [CALLER_MEMO]?: CallerMemo }): Promise<void> {
    const memo = request[CALLER_MEMO];
    if (!memo) {
      await super.canActivate(context);
      return;
    }
    memo.caller ??= (super.canActivate(context) as Promise<boolean>).then(() => request.user);
    request.user = (await memo.caller) as AuthUser;
  }

  // Passport's default turns every failure into a bare 401; keep our messages instead.
  handleRequest<TUser>(error: unknown, user: TUser | false): TUser {
    if (error)
      throw error instanceof HttpException || isDatabaseUnavailable(error) ? error : new UnauthorizedException(AuthMessages.AUTH_FAILED);
    if (!user) throw new UnauthorizedException(AuthMessages.AUTH_FAILED);
    return user;
  }
}

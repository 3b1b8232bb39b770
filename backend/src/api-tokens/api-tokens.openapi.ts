import type { INestApplication } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import type { OpenAPIObject, OperationObject, PathItemObject, SecuritySchemeObject } from '@nestjs/swagger';
import { API_TOKEN_SCOPES, SESSION_ONLY_PATHS, tokenAccessOf, type ApiTokenScope } from '../../../isomorphic/api-tokens';
import { AUTH_OPTIONS, type AuthOptions, SESSION_ONLY, TOKEN_SCOPE } from '../auth/auth.decorator';

/** The OpenAPI extension naming the scope an API token needs for an operation, or 'session-only'. */
export const REQUIRED_SCOPE = 'x-required-scope';
export const API_TOKEN_SCHEME = 'apiToken';

export const API_TOKEN_SECURITY_SCHEMES: Record<string, SecuritySchemeObject> = {
  [API_TOKEN_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'inkw_…',
    description:
      'A personal API token, created on /account (POST /api/v1/account/tokens), as `Authorization: Bearer inkw_…`. ' +
      `It acts as its user, limited to its scopes (${API_TOKEN_SCOPES.map((scope) => `\`${scope}\``).join(', ')}): each operation names the scope it needs ` +
      `in \`${REQUIRED_SCOPE}\`, and answers 403 'token lacks scope <scope>' without it. Operations marked 'session-only' ` +
      '(sign-in, passwords, two-factor, tokens, the account) refuse tokens. Rate limits are counted per token.',
  },
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface RouteFacts {
  options?: AuthOptions;
  declaredScope?: ApiTokenScope;
  sessionOnly?: boolean;
}

/** Each controller method by name (the operationIds), with what the guard reads of it. */
function routeFactsByOperation(app: INestApplication): Map<string, RouteFacts> {
  const reflector = new Reflector();
  const facts = new Map<string, RouteFacts>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: unknown[]) => unknown) | null;
      if (!controller) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const targets = [handler, controller];
        facts.set(name, {
          options: reflector.getAllAndOverride<AuthOptions | undefined>(AUTH_OPTIONS, targets),
          declaredScope: reflector.getAllAndOverride<ApiTokenScope | undefined>(TOKEN_SCOPE, targets),
          sessionOnly: reflector.getAllAndOverride<boolean | undefined>(SESSION_ONLY, targets),
        });
      }
    }
  }
  return facts;
}

/**
 * Writes, per operation, what the guard decides for an API token (the same rule, tokenAccessOf):
 * `x-required-scope` with the scope, and the token scheme among the operation's security
 * requirements; 'session-only' where no token is admitted. Operations that take no credentials
 * at all are left as they are, except under /auth and /account, where a token is refused.
 */
export function documentApiTokenAccess(app: INestApplication, document: OpenAPIObject): OpenAPIObject {
  const facts = routeFactsByOperation(app);
  for (const [path, item] of Object.entries(document.paths) as [string, PathItemObject][]) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as (OperationObject & Record<string, unknown>) | undefined;
      if (!operation) continue;
      const route = operation.operationId ? facts.get(operation.operationId) : undefined;
      const takesCredentials = Boolean(route?.options);
      if (!takesCredentials && !SESSION_ONLY_PATHS.test(path)) continue;
      const access = tokenAccessOf({
        method,
        path,
        role: route?.options?.role,
        declaredScope: route?.declaredScope,
        sessionOnly: route?.sessionOnly,
      });
      if (access === 'session') {
        operation[REQUIRED_SCOPE] = 'session-only';
        continue;
      }
      operation[REQUIRED_SCOPE] = access;
      const security = operation.security ?? [];
      // Before an empty requirement (anonymous callers pass), as the session schemes are.
      const anonymous = security.findIndex((requirement) => Object.keys(requirement).length === 0);
      security.splice(anonymous === -1 ? security.length : anonymous, 0, { [API_TOKEN_SCHEME]: [] });
      operation.security = security;
      operation.description = `${operation.description ? `${operation.description}\n\n` : ''}API token scope: \`${access}\`.`;
    }
  }
  return document;
}

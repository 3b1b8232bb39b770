import { ForbiddenException } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { SESSION_ONLY_PATHS } from '../../../isomorphic/api-tokens';
import { ApiTokensMessages } from './api-tokens.messages';
import { apiTokenOf } from './token-tracker';

/**
 * Refuses an API token anywhere under /api/v1/auth and /api/v1/account, before any route, guard
 * or body parser: sign-in, passwords, two-factor, sessions, the tokens themselves and whatever
 * account routes come later are for the person, whatever their own decorators say.
 */
export function refuseApiTokensOnSessionPaths(): RequestHandler {
  return (req, _res, next) => {
    if (SESSION_ONLY_PATHS.test(req.path) && apiTokenOf(req.headers)) return next(new ForbiddenException(ApiTokensMessages.SESSION_ONLY));
    next();
  };
}

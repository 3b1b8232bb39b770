import { ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { createSecretKey } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, AppConfig } from '../../config/env';
import { AuthMessages } from '../auth.messages';
import { ACCESS_COOKIE, AccessTokenPayload, AuthUser, type CallerRead } from '../auth-user';
import { CALLER_READS } from './jwt-auth.guard';
import { SessionsService } from '../../sessions/sessions.service';

function fromCookie(req: Request): string | null {
  const value = (req.cookies as Record<string, string> | undefined)?.[ACCESS_COOKIE];
  return typeof value === 'string' && value ? value : null;
}

/**
 * The access token comes from `Authorization: Bearer` or the httpOnly session cookie. The user
 * and the token's session are reloaded on every request, so a ban, a deactivation, a logout or a
 * password change takes effect at once.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionsService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([ExtractJwt.fromAuthHeaderAsBearerToken(), fromCookie]),
      // A KeyObject, not the string: given a string, jsonwebtoken first tries to read it as a
      // public key on every verification and throws (12 % of the CPU of a signed-in request).
      // passport-jwt hands it to jsonwebtoken unchanged; its types only know string | Buffer.
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret)) as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
      // The request, for the route's `alongside` reads (JwtAuthGuard leaves them on it).
      passReqToCallback: true,
    });
  }

  async validate(request: Request & { [CALLER_READS]?: readonly CallerRead[] }, payload: AccessTokenPayload): Promise<AuthUser> {
    if (typeof payload?.sub !== 'number' || typeof payload.sid !== 'string') throw new UnauthorizedException(AuthMessages.AUTH_FAILED);
    const caller = await this.sessions.resolveCaller(payload.sid, payload.sub, request[CALLER_READS]);
    if (caller === 'no-session') throw new UnauthorizedException(AuthMessages.AUTH_FAILED);
    if (caller === 'locked') throw new ForbiddenException(AuthMessages.ACCOUNT_LOCKED);
    return caller;
  }
}

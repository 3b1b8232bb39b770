import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerException, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import type { AuthUser } from '../auth/auth-user';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { APP_CONFIG, type AppConfig } from '../config/env';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * The per-user comment limit (COMMENT_LIMIT_PER_MINUTE, COMMENT_LIMIT_PER_DAY): a signed-in user
 * posting past either is 429 with the spec's text and Retry-After, whatever address they post
 * from. Counted in the throttler's storage (Redis with REDIS_URL), so the limit holds across
 * instances. Runs after the session guard (it needs the caller), before validation: an
 * attempt counts whether or not its text is valid.
 */
@Injectable()
export class CommentRateLimitGuard implements CanActivate {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.config.throttleDisabled) return true;
    const http = context.switchToHttp();
    const user = http.getRequest<Request & { user?: AuthUser }>().user;
    // The session guard runs first and refuses anonymous callers; nothing to count without one.
    if (!user) return true;
    const { perMinute, perDay } = this.config.commentLimit;
    // The day is counted only for attempts the minute lets through, so a burst does not use it up.
    await this.count(http.getResponse<Response>(), `comments-minute:${user.id}`, MINUTE_MS, perMinute, 'comments-minute');
    await this.count(http.getResponse<Response>(), `comments-day:${user.id}`, DAY_MS, perDay, 'comments-day');
    return true;
  }

  private async count(res: Response, key: string, windowMs: number, limit: number, name: string): Promise<void> {
    const { isBlocked, timeToBlockExpire } = await this.storage.increment(key, windowMs, limit, windowMs, name);
    if (!isBlocked) return;
    res.setHeader('Retry-After', String(Math.max(1, timeToBlockExpire)));
    throw new ThrottlerException();
  }
}

/** Put above `@Auth(...)`: guards run in the order they are listed, and this one needs the caller. */
export function CommentRateLimit() {
  return applyDecorators(UseGuards(CommentRateLimitGuard), ApiErrors(429));
}

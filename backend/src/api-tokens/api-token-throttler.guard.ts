import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { IncomingHttpHeaders } from 'node:http';
import { tokenTrackerOf } from './token-tracker';

/**
 * The app's rate limiter (app.module.ts): per client address, as @nestjs/throttler counts by
 * default, except requests with a known API token, which are counted per token:
 * an integration does not share its budget with everyone behind the same address, and one token
 * used from many addresses still has one budget.
 */
@Injectable()
export class ApiTokenThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    return tokenTrackerOf(request.headers as IncomingHttpHeaders) ?? super.getTracker(request);
  }
}

import { Global, Module } from '@nestjs/common';

/**
 * The time the scheduling rules read (a publish time must be in the future; a post is due when
 * its time has come). Tests move it instead of sleeping: an e2e test replaces `now` on the app's
 * instance (`app.get(CLOCK)`), and the browser tests shift it through PUT /api/v1/test/clock
 * (TEST_CLOCK_CONTROL=1 only).
 */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

/** The system clock moved by `offsetMs` (0 unless the test clock shifted it). */
export class ShiftableClock implements Clock {
  offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/** One clock per app (two apps in one test process each keep their own). */
@Global()
@Module({
  providers: [{ provide: CLOCK, useFactory: (): Clock => new ShiftableClock() }],
  exports: [CLOCK],
})
export class ClockModule {}

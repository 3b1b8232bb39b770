import { setTimeout as sleep } from 'node:timers/promises';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** Above this share of the last window spent working, the event loop counts as busy. */
const BUSY_UTILIZATION = 0.5;
/** Deliveries a process starts per second while its event loop is busy. */
const DELIVERIES_PER_SECOND_WHEN_BUSY = 25;
/** How often the event loop's utilisation is read again. */
const WINDOW_MS = 250;

/** What the pacer reads and waits with (the event loop's and the process's own, or a test's). */
export interface PacerClock {
  /** The event loop's utilisation since `since`. */
  utilization(since: EventLoopUtilization): EventLoopUtilization;
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

/**
 * Deliveries give way to the pages. One event loop serves both, and on a busy server a fan-out
 * to a thousand inboxes would otherwise take half the pages' turns (docs/federation.md#delivery).
 * While the loop was busier than BUSY_UTILIZATION over the last window, this process starts
 * at most DELIVERIES_PER_SECOND_WHEN_BUSY deliveries a second. Otherwise deliveries go as fast
 * as the queue hands them over.
 */
export class DeliveryPacer {
  private window: EventLoopUtilization;
  private measuredAt: number;
  private busy = false;
  /** When the next delivery may start while busy (performance.now() time). */
  private nextStart = 0;

  constructor(
    private readonly clock: PacerClock = {
      utilization: (since) => performance.eventLoopUtilization(performance.eventLoopUtilization(), since),
      now: () => performance.now(),
      sleep: (ms) => sleep(ms),
    },
  ) {
    this.window = performance.eventLoopUtilization();
    this.measuredAt = clock.now();
  }

  /** Resolves when the next delivery may start. */
  async turn(): Promise<void> {
    const now = this.clock.now();
    if (now - this.measuredAt >= WINDOW_MS) {
      this.busy = this.clock.utilization(this.window).utilization > BUSY_UTILIZATION;
      this.window = performance.eventLoopUtilization();
      this.measuredAt = now;
    }
    if (!this.busy) return;
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + 1000 / DELIVERIES_PER_SECOND_WHEN_BUSY;
    if (start > now) await this.clock.sleep(start - now);
  }
}

import { Global, Injectable, Module } from '@nestjs/common';
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';

/** The window the rate is counted over, in slots: 4 × 250 ms. */
const SLOT_MS = 250;
const SLOTS = 4;

/**
 * How many HTTP requests this instance received over the last second: long background work in
 * the server's own process (a site import) slows down while readers are being served, so that its
 * turns on the event loop do not delay their pages ('the site keeps serving during it').
 */
@Injectable()
export class RequestActivity {
  private readonly counts = new Array<number>(SLOTS).fill(0);
  private readonly slotOf = new Array<number>(SLOTS).fill(-1);

  /** Counts every request the server receives. */
  watch(server: Server): void {
    server.prependListener('request', () => this.note(performance.now()));
  }

  note(now: number): void {
    const slot = Math.floor(now / SLOT_MS);
    const at = slot % SLOTS;
    if (this.slotOf[at] !== slot) {
      this.slotOf[at] = slot;
      this.counts[at] = 0;
    }
    this.counts[at] += 1;
  }

  /** Requests received over the last second (none in a process that serves none: the CLI). */
  perSecond(now = performance.now()): number {
    const slot = Math.floor(now / SLOT_MS);
    let total = 0;
    for (let at = 0; at < SLOTS; at += 1) if (slot - this.slotOf[at] < SLOTS) total += this.counts[at];
    return total;
  }
}

@Global()
@Module({ providers: [RequestActivity], exports: [RequestActivity] })
export class RequestActivityModule {}

import type { EventLoopUtilization } from 'node:perf_hooks';
import { DeliveryPacer, type PacerClock } from './delivery-pacer';

/** A clock whose time moves only when the pacer sleeps, with the utilisation the test sets. */
function fakeClock(utilization: number): PacerClock & { waits: number[]; time: number; busy: number } {
  const clock = {
    waits: [] as number[],
    time: 0,
    busy: utilization,
    utilization: () => ({ idle: 0, active: 0, utilization: clock.busy }) as EventLoopUtilization,
    now: () => clock.time,
    sleep: (ms: number) => {
      clock.waits.push(ms);
      return Promise.resolve();
    },
  };
  return clock;
}

describe('DeliveryPacer', () => {
  it('lets deliveries start at once while the event loop is not busy', async () => {
    const clock = fakeClock(0.2);
    const pacer = new DeliveryPacer(clock);
    clock.time = 300;
    for (let i = 0; i < 10; i++) await pacer.turn();
    expect(clock.waits).toEqual([]);
  });

  it('spaces deliveries 40 ms apart (25 a second) while the event loop is busy, and stops once it is not', async () => {
    const clock = fakeClock(0.9);
    const pacer = new DeliveryPacer(clock);
    clock.time = 300;
    // Four deliveries asking at the same moment: the first starts now, the others 40, 80, 120 ms later.
    await Promise.all([pacer.turn(), pacer.turn(), pacer.turn(), pacer.turn()]);
    expect(clock.waits).toEqual([40, 80, 120]);

    clock.busy = 0.1;
    clock.time = 600;
    await pacer.turn();
    expect(clock.waits).toHaveLength(3);
  });

  it('reads the utilisation again only once a window has passed', async () => {
    const clock = fakeClock(0.9);
    const pacer = new DeliveryPacer(clock);
    clock.time = 100;
    await pacer.turn();
    expect(clock.waits).toEqual([]);
  });
});

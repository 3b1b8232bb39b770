/** The time the digest rule reads (tests give their own, so an hour passes without waiting for it). */
export interface NotificationClock {
  now(): Date;
}

export const NOTIFICATION_CLOCK = Symbol('NOTIFICATION_CLOCK');

export const systemClock: NotificationClock = { now: () => new Date() };

import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ContentChange, ContentEvents, isContentChange } from '../common/content-events';
import { RedisService } from './redis.service';

/** The pub/sub channel carrying content notices (a ContentChange each, saying exactly what changed) between instances. */
export const CONTENT_CHANNEL = 'inkwell:content-changed';
/** Each instance's word that it dropped what a notice made stale, to the notice's publisher. */
export const ACK_CHANNEL = 'inkwell:content-dropped';
/** While Redis is away, caches are cleared this often (other instances' notices are missed). */
export const OUTAGE_CLEAR_INTERVAL_MS = 1_000;
/** A writer waits at most this long for the other instances' acknowledgements (an instance that hangs must not hold every write). */
export const ACK_TIMEOUT_MS = 1_000;

interface RelayedChange {
  /** The instance that published it (it ignores its own notices: it already dropped locally). */
  from: string;
  /** The publisher's number for it, which acknowledgements quote. */
  id: string;
  /** What changed, as the writer's instance delivered it: receivers drop the same exact entries. */
  change: ContentChange;
}

interface Acknowledgement {
  /** The publisher of the notice. */
  to: string;
  id: string;
}

/** A published notice whose receivers have not all acknowledged it yet. */
interface Waiting {
  acknowledged: number;
  /** PUBLISH's answer: how many subscriptions received it (this instance's own included); unknown until Redis answers. */
  receivers?: number;
  done: () => void;
}

/** What listeners receive when notices may have been missed: drop everything. */
export const RESYNC: ContentChange = Object.freeze({ kind: 'resync' });

/**
 * Carries ContentEvents between instances (REDIS_URL). A local change is delivered to this
 * instance's caches first (ContentEvents.changed), then published with this instance's id; every
 * other instance delivers it to its own caches and acknowledges it on ACK_CHANNEL; the publisher
 * skips its own message (counting it as its own acknowledgement), so each instance drops once per
 * change. The writer's changed() settles when every subscription PUBLISH reached has acknowledged
 * (at most ACK_TIMEOUT_MS): the writer answers only after every instance dropped the stale entries,
 * so its caller reads the write on any instance next. While Redis is away, notices of other instances are lost: the
 * caches are cleared every second (at most a second stale) and once more when the subscription is
 * back. Without REDIS_URL this does nothing.
 */
@Injectable()
export class ContentEventsRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ContentEventsRelay');
  private stopRelaying?: () => void;
  private outageTimer?: NodeJS.Timeout;
  private wasDown = false;
  private sequence = 0;
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly redis: RedisService,
    private readonly events: ContentEvents,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { client, subscriber } = this.redis;
    if (!client || !subscriber) return;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === CONTENT_CHANNEL) this.receive(message);
      else if (channel === ACK_CHANNEL) this.acknowledged(message);
    });
    subscriber.on('close', () => this.lost());
    subscriber.on('ready', () => void this.resubscribed());
    this.stopRelaying = this.events.relayTo((change) => this.publish(change));
    // Queued until connected; ioredis subscribes again after every reconnect.
    subscriber
      .subscribe(CONTENT_CHANNEL, ACK_CHANNEL)
      .catch((error: Error) => this.logger.warn(`could not subscribe to ${CONTENT_CHANNEL}: ${error.message}`));
    if (subscriber.status !== 'ready' && subscriber.status !== 'connect') this.lost();
  }

  onModuleDestroy(): void {
    this.stopRelaying?.();
    this.stopOutageClearing();
    for (const waiting of this.waiting.values()) waiting.done();
  }

  /** Publishes the change and settles once every instance it reached has dropped what it makes stale (or after ACK_TIMEOUT_MS). */
  private async publish(change: ContentChange): Promise<void> {
    const client = this.redis.client;
    // Redis away: the other instances clear their caches every second until it is back (lost()).
    if (!client || client.status !== 'ready') return;
    const id = String(++this.sequence);
    const message: RelayedChange = { from: this.redis.instanceId, id, change };
    let timer: NodeJS.Timeout | undefined;
    const settled = new Promise<void>((done) => {
      this.waiting.set(id, { acknowledged: 0, done });
      timer = setTimeout(() => {
        this.logger.warn(
          `an instance did not acknowledge a content notice within ${ACK_TIMEOUT_MS} ms; its held answers expire by themselves`,
        );
        done();
      }, ACK_TIMEOUT_MS);
      timer.unref();
    });
    try {
      const waiting = this.waiting.get(id);
      if (waiting) {
        waiting.receivers = await client.publish(CONTENT_CHANNEL, JSON.stringify(message));
        this.settleIfAcknowledged(id);
      }
    } catch (error) {
      this.logger.warn(`could not publish a content notice: ${(error as Error).message}`);
      this.waiting.get(id)?.done();
    }
    await settled;
    clearTimeout(timer);
    this.waiting.delete(id);
  }

  private receive(message: string): void {
    let relayed: RelayedChange;
    try {
      relayed = JSON.parse(message) as RelayedChange;
    } catch {
      return;
    }
    if (relayed.from === this.redis.instanceId) {
      // Our own notice: dropped at the source already; it counts as this subscription's acknowledgement.
      this.countAcknowledgement(relayed.id);
      return;
    }
    // A change this version cannot read (a newer instance's kind): drop everything rather than keep what it may have made stale.
    this.events.deliver(isContentChange(relayed.change) ? relayed.change : RESYNC);
    if (typeof relayed.id !== 'string') return;
    const acknowledgement: Acknowledgement = { to: relayed.from, id: relayed.id };
    this.redis.client?.publish(ACK_CHANNEL, JSON.stringify(acknowledgement)).catch(() => undefined);
  }

  private acknowledged(message: string): void {
    let acknowledgement: Acknowledgement;
    try {
      acknowledgement = JSON.parse(message) as Acknowledgement;
    } catch {
      return;
    }
    if (acknowledgement.to === this.redis.instanceId) this.countAcknowledgement(acknowledgement.id);
  }

  private countAcknowledgement(id: string): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    waiting.acknowledged += 1;
    this.settleIfAcknowledged(id);
  }

  private settleIfAcknowledged(id: string): void {
    const waiting = this.waiting.get(id);
    if (waiting?.receivers !== undefined && waiting.acknowledged >= waiting.receivers) waiting.done();
  }

  /** The subscription is gone: notices may be missed from now on. */
  private lost(): void {
    this.wasDown = true;
    if (this.outageTimer) return;
    this.events.deliver(RESYNC);
    this.outageTimer = setInterval(() => this.events.deliver(RESYNC), OUTAGE_CLEAR_INTERVAL_MS);
    this.outageTimer.unref();
  }

  /** Connected again: once the channel is subscribed, drop whatever was kept during the outage. */
  private async resubscribed(): Promise<void> {
    if (!this.wasDown) return;
    try {
      await this.redis.subscriber?.subscribe(CONTENT_CHANNEL, ACK_CHANNEL);
    } catch {
      return; // closed again; the next 'ready' tries once more
    }
    this.wasDown = false;
    this.stopOutageClearing();
    this.events.deliver(RESYNC);
  }

  private stopOutageClearing(): void {
    if (this.outageTimer) clearInterval(this.outageTimer);
    this.outageTimer = undefined;
  }
}

import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ContentChange, ContentEvents, isContentChange } from '../common/content-events';
import { RedisService } from './redis.service';

/** The pub/sub channel carrying content notices (a ContentChange each, saying exactly what changed) between instances. */
export const CONTENT_CHANNEL = 'inkwell:content-changed';
/** While Redis is away, caches are cleared this often (other instances' notices are missed). */
export const OUTAGE_CLEAR_INTERVAL_MS = 1_000;

interface RelayedChange {
  /** The instance that published it (it ignores its own notices: it already dropped locally). */
  from: string;
  /** What changed, as the writer's instance delivered it: receivers drop the same exact entries. */
  change: ContentChange;
}

/** What listeners receive when notices may have been missed: drop everything. */
export const RESYNC: ContentChange = Object.freeze({ kind: 'resync' });

/**
 * Carries ContentEvents between instances (REDIS_URL). A local change is delivered to this
 * instance's caches first (ContentEvents.changed), then published with this instance's id; every
 * other instance delivers it to its own caches; the publisher skips its own message, so each
 * instance drops once per change. While Redis is away, notices of other instances are lost: the
 * caches are cleared every second (at most a second stale) and once more when the subscription is
 * back. Without REDIS_URL this does nothing.
 */
@Injectable()
export class ContentEventsRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ContentEventsRelay');
  private stopRelaying?: () => void;
  private outageTimer?: NodeJS.Timeout;
  private wasDown = false;

  constructor(
    private readonly redis: RedisService,
    private readonly events: ContentEvents,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { client, subscriber } = this.redis;
    if (!client || !subscriber) return;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === CONTENT_CHANNEL) this.receive(message);
    });
    subscriber.on('close', () => this.lost());
    subscriber.on('ready', () => void this.resubscribed());
    this.stopRelaying = this.events.relayTo((change) => this.publish(change));
    // Queued until connected; ioredis subscribes again after every reconnect.
    subscriber.subscribe(CONTENT_CHANNEL).catch((error: Error) => this.logger.warn(`could not subscribe to ${CONTENT_CHANNEL}: ${error.message}`));
    if (subscriber.status !== 'ready' && subscriber.status !== 'connect') this.lost();
  }

  onModuleDestroy(): void {
    this.stopRelaying?.();
    this.stopOutageClearing();
  }

  private publish(change: ContentChange): void {
    const client = this.redis.client;
    if (!client || client.status !== 'ready') return;
    const message: RelayedChange = { from: this.redis.instanceId, change };
    client.publish(CONTENT_CHANNEL, JSON.stringify(message)).catch((error: Error) => this.logger.warn(`could not publish a content notice: ${error.message}`));
  }

  private receive(message: string): void {
    let relayed: RelayedChange;
    try {
      relayed = JSON.parse(message) as RelayedChange;
    } catch {
      return;
    }
    if (relayed.from === this.redis.instanceId || !isContentChange(relayed.change)) return;
    this.events.deliver(relayed.change);
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
      await this.redis.subscriber?.subscribe(CONTENT_CHANNEL);
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

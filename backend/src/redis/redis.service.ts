import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/env';

/** Reconnect after 100 ms, 200 ms, 400 ms … then every 2 s, for as long as it takes. */
export function redisRetryDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(attempt - 1, 5), 2_000);
}

const COMMON_OPTIONS: RedisOptions = {
  connectionName: 'inkwell',
  connectTimeout: 2_000,
  retryStrategy: redisRetryDelay,
  enableReadyCheck: true,
};

/**
 * The two Redis connections of an instance when REDIS_URL is set (none otherwise): `client` for
 * commands (throttler counters, publish) and `subscriber` for the invalidation channel. Commands
 * never wait for Redis: while it is away they fail at once (no offline queue) or after 1 s
 * (command timeout), and the callers fall back to in-process behaviour. ioredis reconnects by
 * itself; `state` is what /health reports.
 */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  /** Names this instance on the invalidation channel, so it ignores its own notices. */
  readonly instanceId = randomUUID();
  readonly client?: Redis;
  readonly subscriber?: Redis;
  private readonly logger = new Logger('Redis');
  private reportedDown = false;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (!config.redisUrl) return;
    this.client = new Redis(config.redisUrl, {
      ...COMMON_OPTIONS,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 1_000,
    });
    // The subscriber queues its SUBSCRIBE until connected and subscribes again after every reconnect.
    this.subscriber = new Redis(config.redisUrl, { ...COMMON_OPTIONS, maxRetriesPerRequest: null });
    for (const connection of [this.client, this.subscriber]) {
      connection.on('error', (error: Error) => this.down(error));
      connection.on('ready', () => this.up());
    }
  }

  get enabled(): boolean {
    return !!this.client;
  }

  /** 'up' when both connections are ready, 'down' otherwise; undefined without REDIS_URL. */
  get state(): 'up' | 'down' | undefined {
    if (!this.client || !this.subscriber) return undefined;
    return this.client.status === 'ready' && this.subscriber.status === 'ready' ? 'up' : 'down';
  }

  /** QUIT when connected (at most 1 s), otherwise drop the connection: a stop never waits for Redis. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(
      [this.client, this.subscriber].map(async (connection) => {
        if (!connection) return;
        if (connection.status === 'ready') {
          let timer: NodeJS.Timeout | undefined;
          const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)));
          await Promise.race([connection.quit().catch(() => undefined), gaveUp]);
          clearTimeout(timer);
        }
        connection.disconnect();
      }),
    );
  }

  private down(error: Error): void {
    if (this.reportedDown) return;
    this.reportedDown = true;
    this.logger.warn(
      `Redis unavailable (${error.message}); rate limits fall back to this instance, caches are cleared every second until it is back`,
    );
  }

  private up(): void {
    if (!this.reportedDown) return;
    this.reportedDown = false;
    this.logger.log('Redis reachable again');
  }
}

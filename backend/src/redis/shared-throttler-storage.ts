import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Throttler counters in Redis (REDIS_URL), shared by every instance, through
 * @nest-lab/throttler-storage-redis (one Lua script per hit: INCR, PEXPIRE, block key). While
 * Redis is away, or a command fails, the hit is counted by the in-process storage instead: each
 * instance then limits on its own (a client could get N times the limit across N instances for
 * the length of the outage), but nothing waits for Redis and nothing answers 500.
 */
export class SharedThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('ThrottlerStorage');
  private readonly shared: ThrottlerStorageRedisService;
  private readonly local = new ThrottlerStorageService();
  private warned = false;

  constructor(private readonly redis: Redis) {
    this.shared = new ThrottlerStorageRedisService(redis);
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    if (this.redis.status === 'ready') {
      try {
        const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
        this.warned = false;
        return record;
      } catch (error) {
        if (!this.warned)
          this.logger.warn(`counting in process while Redis fails: ${error instanceof Error ? error.message : String(error)}`);
        this.warned = true;
      }
    }
    return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  onApplicationShutdown(): void {
    this.local.onApplicationShutdown();
  }
}

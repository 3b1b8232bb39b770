import { Global, Module } from '@nestjs/common';
import { ContentEventsRelay } from './content-events-relay';
import { RedisService } from './redis.service';

/**
 * REDIS_URL (several instances): the connections, and the relay that carries content notices
 * between instances. Without REDIS_URL both providers stay idle. The throttler's shared storage
 * is built from RedisService in AppModule.
 */
@Global()
@Module({ providers: [RedisService, ContentEventsRelay], exports: [RedisService] })
export class RedisModule {}

import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, RouterModule } from '@nestjs/core';
import { ThrottlerModule, ThrottlerModuleOptions } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { destination } from 'pino';
import { isTerminal } from './common/console-output';
import { ContentEventsModule } from './common/content-events';
import { RequestActivityModule } from './common/request-activity';
import { EventsModule } from './events/domain-events.service';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { EnvelopeInterceptor } from './common/interceptors/envelope.interceptor';
import { CommonMessages } from './common/messages';
import { requestLogOptions } from './common/request-log';
import { createValidationPipe } from './common/validation/validation.pipe';
import { WellFormedTextPipe } from './common/validation/well-formed-text.pipe';
import { ConfigModule } from './config/config.module';
import { AppConfig } from './config/env';
import { dataSourceOptions } from './database/data-source';
import { AdminModule } from './admin/admin.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { ApiTokensModule } from './api-tokens/api-tokens.module';
import { ApiTokenThrottlerGuard } from './api-tokens/api-token-throttler.guard';
import { CommentsModule } from './comments/comments.module';
import { DashboardsModule } from './dashboards/dashboards.module';
import { GatewayModule } from './gateway/gateway.module';
import { HealthModule } from './health/health.module';
import { ImagesModule } from './images/images.module';
import { JobsModule } from './jobs/jobs.module';
import { LikesModule } from './likes/likes.module';
import { ModerationModule } from './moderation/moderation.module';
import { NotificationsModule } from './notifications/notifications.module';
import { UsersModule } from './users/users.module';
import { PostsModule } from './posts/posts.module';
import { SearchModule } from './search/search.module';
import { SessionsModule } from './sessions/sessions.module';
import { PreviewsModule } from './previews/previews.module';
import { RedisModule } from './redis/redis.module';
import { RedisService } from './redis/redis.service';
import { SharedThrottlerStorage } from './redis/shared-throttler-storage';
import { ReviewsModule } from './reviews/reviews.module';
import { TagsModule } from './tags/tags.module';
import { TwoFactorModule } from './two-factor/two-factor.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ImportsModule } from './imports/imports.module';
import { ClockModule } from './common/clock';
import { SchedulingModule, TestClockModule } from './scheduling/scheduling.module';
import { AccountDataModule } from './account-data/account-data.module';
import { NewsletterModule } from './newsletter/newsletter.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { BackupModule } from './backup/backup.module';
import { FederationModule } from './federation/federation.module';

export interface AppModuleOptions {
  config: AppConfig;
  databaseUrl: string;
  /** Build the module graph without connecting to the database (OpenAPI generation). */
  withoutDatabase?: boolean;
}

/**
 * The modules answering under /api/v1 (the prefix is given by RouterModule rather than a global
 * prefix, so that middleware such as the request logger and the page handler see every path).
 * The images module is the exception: the spec puts it on the host root.
 */
export const API_PREFIX = 'api/v1';
const API_MODULES = [
  HealthModule,
  AuthModule,
  SessionsModule,
  TwoFactorModule,
  ApiTokensModule,
  UsersModule,
  PostsModule,
  SearchModule,
  TagsModule,
  ReviewsModule,
  LikesModule,
  CommentsModule,
  DashboardsModule,
  AdminModule,
  ModerationModule,
  NotificationsModule,
  SchedulingModule,
  PreviewsModule,
  AccountDataModule,
  WebhooksModule,
  ImportsModule,
  NewsletterModule,
  AnalyticsModule,
  BackupModule,
  FederationModule,
];

/** Rate limits (docs/requirements.md#rate-limits): counters in process, or in Redis shared by every instance when REDIS_URL is set. */
function throttlerModule(config: AppConfig): DynamicModule {
  const options: ThrottlerModuleOptions = {
    throttlers: [{ name: 'default', ttl: 60_000, limit: 300 }],
    errorMessage: CommonMessages.TOO_MANY_ATTEMPTS,
    skipIf: () => config.throttleDisabled,
  };
  if (!config.redisUrl) return ThrottlerModule.forRoot(options);
  return ThrottlerModule.forRootAsync({
    inject: [RedisService],
    useFactory: (redis: RedisService) => ({ ...options, storage: new SharedThrottlerStorage(redis.client!) }),
  });
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const { config } = options;
    // The browser tests' clock control (TEST_CLOCK_CONTROL=1) is mounted only when asked for.
    const apiModules = config.testClockControl ? [...API_MODULES, TestClockModule] : API_MODULES;
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // One short line per request; every header only at debug (common/request-log.ts).
        // At a terminal the log is written synchronously, so that main.ts's start-up summary comes after it.
        LoggerModule.forRoot({
          pinoHttp: { ...requestLogOptions(config.logLevel), ...(isTerminal() ? { stream: destination({ dest: 1, sync: true }) } : {}) },
        }),
        TypeOrmModule.forRoot({
          ...dataSourceOptions(options.databaseUrl),
          migrationsRun: !options.withoutDatabase,
          manualInitialization: options.withoutDatabase,
        }),
        RedisModule,
        throttlerModule(config),
        ContentEventsModule,
        RequestActivityModule,
        EventsModule,
        // The audit log subscribes to the domain events of every lifecycle.
        AuditModule,
        JobsModule,
        ImagesModule,
        ClockModule,
        ...apiModules,
        RouterModule.register([{ path: API_PREFIX, children: apiModules }]),
        GatewayModule,
      ],
      providers: [
        // Per client address, and per token for API tokens (api-tokens/api-token-throttler.guard.ts).
        { provide: APP_GUARD, useClass: ApiTokenThrottlerGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        // Global pipes run in this order: malformed text is refused before validation sees it.
        { provide: APP_PIPE, useClass: WellFormedTextPipe },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}

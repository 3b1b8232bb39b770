import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { ApiTokensController } from './api-tokens.controller';
import { ApiTokensService } from './api-tokens.service';
import { ApiToken } from './entities/api-token.entity';

/**
 * Personal API tokens (/account/tokens): creating, listing and revoking them, and the caller behind
 * one (the session guard finds ApiTokensService through the module graph). Their rate limit
 * (api-token-throttler.guard.ts), session-only paths and OpenAPI notes are put on the app by
 * app.module.ts and app.factory.ts.
 */
@Module({
  imports: [AuditModule, TypeOrmModule.forFeature([ApiToken])],
  controllers: [ApiTokensController],
  providers: [ApiTokensService],
  exports: [ApiTokensService],
})
export class ApiTokensModule {}

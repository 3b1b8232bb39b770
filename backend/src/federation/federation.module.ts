import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CommentsModule } from '../comments/comments.module';
import { FederationAdminController, FederationController } from './federation.controller';
import { FederationAdminService } from './federation-admin.service';
import { FederationEventsSubscriber } from './federation-events.subscriber';
import { FederationGlue } from './federation-glue';
import { FederationRepository } from './federation.repository';
import { FederationService } from './federation.service';

/**
 * The social web (docs/federation.md): authors and the publication as ActivityPub actors with
 * Fedify, mounted by `FederationGlue.middleware()` in app.factory.ts before the body parsers and the
 * pages; deliveries through the job queue; replies into comments through their owner.
 */
@Module({
  imports: [AuthModule, CommentsModule],
  controllers: [FederationAdminController, FederationController],
  providers: [FederationRepository, FederationService, FederationAdminService, FederationEventsSubscriber, FederationGlue],
  exports: [FederationGlue],
})
export class FederationModule {}

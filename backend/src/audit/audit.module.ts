import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditService } from './audit.service';
import { CommentAuditSubscriber } from './comment-audit.subscriber';
import { AuditEntry } from './entities/audit-entry.entity';
import { PostAuditSubscriber } from './post-audit.subscriber';

/** The audit log (no routes of its own: the admin area and the dashboards read it). */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntry])],
  providers: [AuditService, PostAuditSubscriber, CommentAuditSubscriber],
  exports: [AuditService],
})
export class AuditModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditService } from './audit.service';
import { AuditWriter } from './audit-writer';
import { AccountSecurityAuditSubscriber } from './account-security-audit.subscriber';
import { WebhookAuditSubscriber } from './webhook-audit.subscriber';
import { CommentAuditSubscriber } from './comment-audit.subscriber';
import { AuditEntry } from './entities/audit-entry.entity';
import { PostAuditSubscriber } from './post-audit.subscriber';
import { TagAuditSubscriber } from './tag-audit.subscriber';
import { UserAuditSubscriber } from './user-audit.subscriber';
import { AccountDeletionAuditSubscriber } from './account-deletion-audit.subscriber';

/** The audit log (no routes of its own: the admin area and the dashboards read it through AuditService; the subscribers write it from the domain events through AuditWriter, which is not exported). */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntry])],
  providers: [
    AuditService,
    AuditWriter,
    PostAuditSubscriber,
    CommentAuditSubscriber,
    UserAuditSubscriber,
    TagAuditSubscriber,
    AccountDeletionAuditSubscriber,
    AccountSecurityAuditSubscriber,
    WebhookAuditSubscriber,
  ],
  exports: [AuditService],
})
export class AuditModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditReader } from './audit-reader';
import { AuditWriter } from './audit-writer';
import { AccountSecurityAuditSubscriber } from './account-security-audit.subscriber';
import { WebhookAuditSubscriber } from './webhook-audit.subscriber';
import { CommentAuditSubscriber } from './comment-audit.subscriber';
import { AuditEntry } from './entities/audit-entry.entity';
import { PostAuditSubscriber } from './post-audit.subscriber';
import { TagAuditSubscriber } from './tag-audit.subscriber';
import { UserAuditSubscriber } from './user-audit.subscriber';
import { AccountDeletionAuditSubscriber } from './account-deletion-audit.subscriber';

/** The audit log (no routes of its own: the admin area and the dashboards read it through AuditReader; the subscribers write it from the domain events through AuditWriter, which is not exported). */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntry])],
  providers: [
    AuditReader,
    AuditWriter,
    PostAuditSubscriber,
    CommentAuditSubscriber,
    UserAuditSubscriber,
    TagAuditSubscriber,
    AccountDeletionAuditSubscriber,
    AccountSecurityAuditSubscriber,
    WebhookAuditSubscriber,
  ],
  exports: [AuditReader],
})
export class AuditModule {}

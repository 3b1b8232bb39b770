import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditService } from './audit.service';
import { AuditEntry } from './entities/audit-entry.entity';
import { PostAuditSubscriber } from './post-audit.subscriber';

/** The audit log (no routes of its own: the admin area and the dashboards read it). */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntry])],
  providers: [AuditService, PostAuditSubscriber],
  exports: [AuditService],
})
export class AuditModule {}

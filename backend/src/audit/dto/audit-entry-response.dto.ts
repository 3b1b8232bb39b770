import { ApiProperty } from '@nestjs/swagger';
import { AdminPageFieldsDto } from '../../common/pagination/page';
import { AUDIT_TARGET_TYPES, AuditTargetType, AuditType } from '../audit.types';

export class AuditActorDto {
  @ApiProperty({ example: 1 }) id: number;
  @ApiProperty({ example: 'Ann Lee' }) fullName: string;
}

/** One audit log entry (an activity). */
export class AuditEntryDto {
  @ApiProperty({ example: 42 }) id: number;
  @ApiProperty({
    enum: AuditType,
    enumName: 'AuditType',
    example: AuditType.USER_BANNED,
    description: 'New types may appear; show unknown ones generically',
  })
  type: AuditType;
  @ApiProperty({ example: 'User banned' }) title: string;
  @ApiProperty({ example: 'Ann Lee was banned: spam' }) description: string;
  @ApiProperty({ type: String, nullable: true, example: '/admin/users/7', description: 'A site-relative page about the target' })
  link: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) timestamp: string;
  @ApiProperty({ type: AuditActorDto, nullable: true, description: 'Who did it; null for a sign-up or a deleted account' })
  actor: AuditActorDto | null;
  @ApiProperty({ enum: AUDIT_TARGET_TYPES, example: 'user' }) targetType: AuditTargetType;
  @ApiProperty({ example: 7 }) targetId: number;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { reason: 'spam' } }) details: Record<string, unknown>;
}

/** A page of audit entries (the spec's page fields). */
export class AuditEntryPageDto extends AdminPageFieldsDto {
  @ApiProperty({ type: [AuditEntryDto] }) content: AuditEntryDto[];
}

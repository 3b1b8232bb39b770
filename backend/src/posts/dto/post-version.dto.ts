import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { WholeNumberInRange } from '../../common/validation/field.rules';
import { MAX_ID } from '../../revisions/dto/revision.dto';
import { PostsMessages } from '../posts.messages';
import { PostResponseDto } from './post-response.dto';

/** Restore: optionally the post version the restore is based on (409 with both when stale). */
export class RevisionRestoreDto {
  @ApiPropertyOptional({ minimum: 1, description: 'The post version this restore is based on; a different stored version is 409' })
  @IsOptional()
  @WholeNumberInRange(1, MAX_ID, PostsMessages.VERSION_INVALID)
  version?: number;
}

/** A 409 on a stale version: the post as stored now and the fields the edit sent. */
export class PostVersionConflictDto {
  @ApiProperty({ type: PostResponseDto }) current: PostResponseDto;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The fields the refused request sent' }) yours: Record<
    string,
    unknown
  >;
}

/** The error envelope of a stale-version 409, with both versions in `data`. */
export class PostVersionConflictEnvelopeDto {
  @ApiProperty({ example: false }) success: boolean;
  @ApiProperty({
    type: PostVersionConflictDto,
    nullable: true,
    description: 'Set on a stale version; null on the other conflicts (a used slug, a status rule)',
  })
  data: PostVersionConflictDto | null;
  @ApiProperty({ example: PostsMessages.VERSION_CONFLICT }) message: string;
  @ApiProperty({ example: 409 }) status: number;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }) errors: Record<
    string,
    string[]
  > | null;
  @ApiProperty({ required: false }) requestId?: string;
}

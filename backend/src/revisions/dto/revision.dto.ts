import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { MAX_PAGE_SIZE, PageFieldsDto, pageQuery } from '../../common/pagination/page';
import { WholeNumberInRange } from '../../common/validation/field.rules';
import { REVISION_KINDS, RevisionKind } from '../entities/post-revision.entity';
import { RevisionsMessages } from '../revisions.messages';
import { PostSeoDto } from './post-seo.dto';

export const MAX_ID = 2147483647;
const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) ? Number(value) : value);

export class RevisionEditorDto {
  @ApiProperty() id: number;
  @ApiProperty() fullName: string;
}

/** A revision in the History list (no text). */
export class RevisionSummaryDto {
  @ApiProperty() id: number;
  @ApiProperty() postId: number;
  @ApiProperty({ enum: REVISION_KINDS, enumName: 'RevisionKind' }) kind: RevisionKind;
  @ApiProperty({ description: 'Pinned at a submission, approval or rejection: never merged into or pruned' }) pinned: boolean;
  @ApiProperty() title: string;
  @ApiProperty({ minimum: 0 }) wordCount: number;
  @ApiProperty({ type: RevisionEditorDto, nullable: true, description: 'Who saved it; null when the account is gone' })
  editor: RevisionEditorDto | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'The last save merged into it (or its pinning)' }) updatedAt: string;
}

/** A revision with its text. */
export class RevisionDto extends RevisionSummaryDto {
  @ApiProperty({ type: String, nullable: true }) summary: string | null;
  @ApiProperty({ description: 'Markdown source' }) content: string;
  @ApiProperty({ type: [String] }) tagSlugs: string[];
  @ApiProperty({ type: String, nullable: true }) thumbnail: string | null;
  @ApiProperty({ type: PostSeoDto }) seo: PostSeoDto;
}

/** The spec's page of revisions, newest first. */
export class RevisionPageDto extends PageFieldsDto {
  @ApiProperty({ type: [RevisionSummaryDto] }) content: RevisionSummaryDto[];
}

/** One run of a word-level diff (jsdiff diffWordsWithSpace): unchanged when neither flag is set. */
export class DiffPartDto {
  @ApiProperty() value: string;
  @ApiProperty() added: boolean;
  @ApiProperty() removed: boolean;
}

export class TagChangesDto {
  @ApiProperty({ type: [String] }) added: string[];
  @ApiProperty({ type: [String] }) removed: string[];
}

export class DiffStatsDto {
  @ApiProperty({ minimum: 0, description: 'Words in the added runs of the body' }) addedWords: number;
  @ApiProperty({ minimum: 0, description: 'Words in the removed runs of the body' }) removedWords: number;
}

/** What changed from one revision to another (or to the post as saved now: `to` null). */
export class RevisionDiffDto {
  @ApiProperty({ type: RevisionSummaryDto }) from: RevisionSummaryDto;
  @ApiProperty({ type: RevisionSummaryDto, nullable: true, description: 'null: compared with the post as saved now' })
  to: RevisionSummaryDto | null;
  @ApiProperty({ type: [DiffPartDto] }) title: DiffPartDto[];
  @ApiProperty({ type: [DiffPartDto] }) summary: DiffPartDto[];
  @ApiProperty({ type: [DiffPartDto], description: 'The Markdown body, word by word' }) content: DiffPartDto[];
  @ApiProperty({ type: TagChangesDto }) tags: TagChangesDto;
  @ApiProperty({ type: DiffStatsDto }) stats: DiffStatsDto;
}

export class ReviewerRefDto {
  @ApiProperty() id: number;
  @ApiProperty() fullName: string;
}

export class LastRejectionDto {
  @ApiProperty() reason: string;
  @ApiProperty({ type: ReviewerRefDto, nullable: true, description: 'null when the reviewer account is gone' })
  reviewer: ReviewerRefDto | null;
  @ApiProperty({ type: String, format: 'date-time' }) reviewedAt: string;
}

/** The reviewer's diff: the last rejection and what changed since (both null when the post was never rejected). */
export class ReviewDiffDto {
  @ApiProperty({ type: LastRejectionDto, nullable: true }) rejection: LastRejectionDto | null;
  @ApiProperty({ type: RevisionDiffDto, nullable: true, description: 'From the revision pinned at that rejection to the newest revision' })
  diff: RevisionDiffDto | null;
}

/** ?page&size (size up to 100). */
export class RevisionListQueryDto extends pageQuery(MAX_PAGE_SIZE) {}

/** ?from&to: revision ids of the post; `to` omitted compares with the post as saved now. */
export class RevisionCompareQueryDto {
  @ApiProperty({ minimum: 1, description: 'A revision id of this post' })
  @Transform(toInteger)
  @WholeNumberInRange(1, MAX_ID, RevisionsMessages.REVISION_ID_INVALID)
  from: number;

  @ApiPropertyOptional({ minimum: 1, description: 'A revision id of this post; omitted: the post as saved now' })
  @IsOptional()
  @Transform(toInteger)
  @WholeNumberInRange(1, MAX_ID, RevisionsMessages.REVISION_ID_INVALID)
  to?: number;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ImportSource, ImportState } from '../entities/site-import.entity';

/** ?source=wordpress|ghost|inkwell on the upload. */
export class ImportStartQueryDto {
  @ApiProperty({
    enum: ImportSource,
    description: 'What the file is: a WordPress WXR (.xml), a Ghost export (.json) or an Inkwell export (.zip)',
  })
  @IsIn(Object.values(ImportSource), { message: `source must be one of ${Object.values(ImportSource).join(', ')}` })
  source: ImportSource;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'E-mail each author account the import creates an invitation: a link to set its password and sign in (accounts that already exist, commenters and a re-run that creates nobody get none)',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'inviteAuthors must be true or false' })
  inviteAuthors?: boolean;
}

export class ImportCountsDto {
  @ApiProperty() users: number;
  @ApiProperty() tags: number;
  @ApiProperty() posts: number;
  @ApiProperty() comments: number;
  @ApiProperty() images: number;
  @ApiProperty({ description: 'Old addresses (e.g. /2014/03/09/slug/) that answer 301 to the post' }) redirects: number;
  @ApiProperty({ description: 'Invitation e-mails queued for the author accounts this import created (0 unless it was asked to invite)' })
  invitations: number;
}

export class ImportSkipDto {
  @ApiProperty({ enum: ['user', 'tag', 'post', 'comment', 'image'] }) kind: string;
  @ApiProperty({ description: "The record's id in the file" }) sourceId: string;
  @ApiProperty() title: string;
  @ApiProperty() reason: string;
}

/** A record kept under another name, shortened, merged into another (tags alike but for case) or changed (a protected post kept as a draft, a role not granted). */
export class ImportRenameDto {
  @ApiProperty({ enum: ['post', 'tag', 'comment', 'user'] }) kind: string;
  @ApiProperty() sourceId: string;
  @ApiProperty() from: string;
  @ApiProperty() to: string;
  @ApiProperty() reason: string;
}

export class ImportResponseDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: ImportSource }) source: ImportSource;
  @ApiProperty({ enum: ImportState }) state: ImportState;
  @ApiProperty() fileName: string;
  @ApiProperty({ nullable: true, type: Number, description: 'Posts in the file (null until the first pass has read it)' }) total:
    number | null;
  @ApiProperty({ description: 'Posts handled so far' }) processed: number;
  @ApiProperty({ type: ImportCountsDto }) counts: ImportCountsDto;
  @ApiProperty() skippedCount: number;
  @ApiProperty({ type: [ImportSkipDto], description: 'The first 500 records left out, with why' }) skipped: ImportSkipDto[];
  @ApiProperty() renamedCount: number;
  @ApiProperty({
    type: [ImportRenameDto],
    description: 'The first 500 records kept under another slug, shortened, merged or changed, with why',
  })
  renamed: ImportRenameDto[];
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ description: 'Whether the author accounts it creates are e-mailed an invitation' }) inviteAuthors: boolean;
  @ApiProperty() cancelRequested: boolean;
  @ApiProperty() createdAt: string;
  @ApiProperty({ nullable: true, type: String }) finishedAt: string | null;
}

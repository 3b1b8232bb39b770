import { ApiProperty } from '@nestjs/swagger';

// Beside the revisions: a revision snapshots these fields, and the post's answer shows the same shape.
/** A post's SEO fields; null (false) means the post page derives it (title, summary, own URL, the thumbnail's 1200-wide variant). */
export class PostSeoDto {
  @ApiProperty({ type: String, nullable: true }) metaTitle: string | null;
  @ApiProperty({ type: String, nullable: true }) metaDescription: string | null;
  @ApiProperty({ type: String, nullable: true }) canonicalUrl: string | null;
  @ApiProperty() noindex: boolean;
  @ApiProperty({ type: String, nullable: true }) socialImage: string | null;
}

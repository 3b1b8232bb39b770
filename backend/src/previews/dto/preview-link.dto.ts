import { ApiProperty, OmitType } from '@nestjs/swagger';
import { PostResponseDto } from '../../posts/dto/post-response.dto';

export class PreviewLinkCreatorDto {
  @ApiProperty() id: number;
  @ApiProperty() fullName: string;
}

/** A live preview link of a post, with its address (PUBLIC_URL/preview/{token}). */
export class PreviewLinkDto {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The absolute address to share: PUBLIC_URL/preview/{token}' }) url: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', description: '7 days after createdAt' }) expiresAt: string;
  @ApiProperty({ type: PreviewLinkCreatorDto, nullable: true, description: 'null when the account is gone' })
  createdBy: PreviewLinkCreatorDto | null;
}

/** The post as saved now, as a preview link shows it: the public post answer (never an e-mail) and when the link expires. */
export class PreviewPostDto extends OmitType(PostResponseDto, ['authorEmail'] as const) {
  @ApiProperty({ type: String, format: 'date-time' }) previewExpiresAt: string;
}

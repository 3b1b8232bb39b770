import { ApiProperty } from '@nestjs/swagger';
import { PostResponseDto } from '../../posts/dto/post-response.dto';
import { ReviewStatus } from '../entities/post-review.entity';

export class PostReviewResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() postId: number;
  @ApiProperty({ type: Number, nullable: true }) reviewerId: number | null;
  @ApiProperty({ type: String, nullable: true }) reviewerName: string | null;
  @ApiProperty({ enum: ReviewStatus, enumName: 'ReviewStatus' }) status: ReviewStatus;
  @ApiProperty({ type: String, nullable: true }) reviewNote: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Internal: only admins see it (null for the post author)' }) adminNotes:
    string | null;
  @ApiProperty({ type: String, nullable: true }) rejectionReason: string | null;
  @ApiProperty() priority: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: string;
}

export class PostReviewResultDto {
  @ApiProperty({ type: PostResponseDto }) post: PostResponseDto;
  @ApiProperty({ type: PostReviewResponseDto }) review: PostReviewResponseDto;
}

import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { MaxChars, Required, trim } from '../../common/validation/field.rules';
import { PostsMessages } from '../posts.messages';

const MAX_CONTENT = 200000;

/** POST /blog/posts/preview: the editor's Markdown, with the checks of a post's content (trimmed, required, at most 200,000 characters). */
export class PostPreviewDto {
  @ApiProperty({ maxLength: 200000, description: 'Markdown, as the editor would save it' })
  @Transform(trim)
  @Required(PostsMessages.CONTENT_REQUIRED)
  @MaxChars(MAX_CONTENT, PostsMessages.CONTENT_TOO_LONG)
  content: string;
}

/** The preview: what a save would store as contentHtml, and the reading figures. */
export class PostPreviewResponseDto {
  @ApiProperty({
    description:
      'Rendered, sanitized HTML: the same renderer and allow-list as the stored contentHtml (headings one level down, no script)',
  })
  html: string;
  @ApiProperty({ minimum: 1, description: 'Minutes: words / 200 rounded up, at least 1' }) readingTime: number;
  @ApiProperty({ minimum: 0, description: 'Words of the Markdown source (runs of non-space characters)' }) wordCount: number;
}

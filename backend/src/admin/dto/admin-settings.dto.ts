import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ERASED_AUTHOR_POSTS, type ErasedAuthorPosts, type SiteSettings } from '../../settings/site-settings';
import { AdminMessages } from '../admin.messages';

/** The site-wide settings (GET /admin/settings, and the answer of PATCH). */
export class SiteSettingsDto implements SiteSettings {
  @ApiProperty({ description: 'Administrators without two-factor sign-in set it up at their next sign-in, before they reach /admin' })
  requireAdminTwoFactor: boolean;

  @ApiProperty({ enum: ERASED_AUTHOR_POSTS, description: "What erasing an author's account does to their published posts: 'reassign' gives them to the 'Former author' placeholder, 'delete' removes them" })
  erasedAuthorPosts: ErasedAuthorPosts;
}

/** PATCH /admin/settings: the keys to change; the others stay as they are. */
export class SiteSettingsUpdateDto implements Partial<SiteSettings> {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: AdminMessages.SETTING_REQUIRE_ADMIN_2FA_INVALID })
  requireAdminTwoFactor?: boolean;

  @ApiPropertyOptional({ enum: ERASED_AUTHOR_POSTS })
  @IsOptional()
  @IsIn(ERASED_AUTHOR_POSTS, { message: AdminMessages.SETTING_ERASED_AUTHOR_POSTS_INVALID })
  erasedAuthorPosts?: ErasedAuthorPosts;
}

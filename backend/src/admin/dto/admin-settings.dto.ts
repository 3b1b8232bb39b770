import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, ValidateIf } from 'class-validator';
import { ERASED_AUTHOR_POSTS, type ErasedAuthorPosts, type SiteSettings } from '../../settings/site-settings';
import { AdminMessages } from '../admin.messages';

/** The site-wide settings (GET /admin/settings, and the answer of PATCH). */
export class SiteSettingsDto implements SiteSettings {
  @ApiProperty({ description: 'Administrators without two-factor sign-in set it up at their next sign-in, before they reach /admin' })
  requireAdminTwoFactor: boolean;

  @ApiProperty({
    enum: ERASED_AUTHOR_POSTS,
    description:
      "What erasing an author's account does to their published posts: 'reassign' gives them to the 'Former author' placeholder, 'delete' removes them",
  })
  erasedAuthorPosts: ErasedAuthorPosts;
}

// Left out means unchanged; null is a wrong value (400), not "unchanged" (IsOptional would let it reach the NOT NULL column: 500).
const unlessLeftOut = ValidateIf((_object: object, value: unknown) => value !== undefined);

/** PATCH /admin/settings: the keys to change; the others stay as they are. */
export class SiteSettingsUpdateDto implements Partial<SiteSettings> {
  @ApiPropertyOptional()
  @unlessLeftOut
  @IsBoolean({ message: AdminMessages.SETTING_REQUIRE_ADMIN_2FA_INVALID })
  requireAdminTwoFactor?: boolean;

  @ApiPropertyOptional({ enum: ERASED_AUTHOR_POSTS })
  @unlessLeftOut
  @IsIn(ERASED_AUTHOR_POSTS, { message: AdminMessages.SETTING_ERASED_AUTHOR_POSTS_INVALID })
  erasedAuthorPosts?: ErasedAuthorPosts;
}

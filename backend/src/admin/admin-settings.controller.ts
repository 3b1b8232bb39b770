import { Body, ConflictException, Controller, Get, Patch } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { RoleName } from '../users/roles';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { SettingsService } from '../settings/settings.service';
import { AdminTwoFactorPolicy } from '../two-factor/admin-two-factor.policy';
import { AdminMessages } from './admin.messages';
import { SiteSettingsDto, SiteSettingsUpdateDto } from './dto/admin-settings.dto';

const ADMIN = Auth({
  role: RoleName.ADMIN,
  forbidden: AdminMessages.SETTINGS_FORBIDDEN,
  unauthenticated: AdminMessages.SETTINGS_AUTH_REQUIRED,
});

/** Site-wide settings (beyond the spec): the 2FA policy for administrators, what an author's erasure does to their posts. */
@ApiTags('Admin settings')
@Controller('admin/settings')
export class AdminSettingsController {
  constructor(
    private readonly settings: SettingsService,
    private readonly adminTwoFactor: AdminTwoFactorPolicy,
  ) {}

  @Get()
  @ADMIN
  @ApiOperation({ summary: 'The site-wide settings (admin); a setting never changed has its default' })
  @ApiEnvelope(SiteSettingsDto)
  readSiteSettings(): Promise<SiteSettingsDto> {
    return this.settings.all();
  }

  @Patch()
  @ADMIN
  @ApiOperation({
    summary: 'Change site-wide settings (admin): the keys given; answers the whole set',
    description:
      'requireAdminTwoFactor true from an administrator without two-factor sign-in: 409 (it would shut them out of the admin area), nothing changed.',
  })
  @ApiEnvelope(SiteSettingsDto)
  @ApiErrors(400, 409)
  async updateSiteSettings(@Body() dto: SiteSettingsUpdateDto, @CurrentUser() actor: AuthUser): Promise<WithMessage<SiteSettingsDto>> {
    if (dto.requireAdminTwoFactor === true && !(await this.adminTwoFactor.mayRequire(actor.id))) {
      throw new ConflictException(AdminMessages.SETTING_REQUIRE_ADMIN_2FA_SELF_OFF);
    }
    return withMessage(await this.settings.update(dto, actor.id), AdminMessages.SETTINGS_UPDATED);
  }
}

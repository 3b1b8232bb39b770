import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { RoleName } from '../users/roles';
import { TwoFactorMessages } from '../two-factor/two-factor.messages';
import { TwoFactorService } from '../two-factor/two-factor.service';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { AdminMessages } from './admin.messages';

/** An administrator's reset of a user's two-factor sign-in (a lost phone). */
@ApiTags('Admin users')
@Controller('admin/users')
export class AdminTwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Delete(':id/two-factor')
  @HttpCode(200)
  @Auth({ role: RoleName.ADMIN, forbidden: AdminMessages.FORBIDDEN, unauthenticated: AdminMessages.AUTH_REQUIRED })
  @ApiOperation({
    summary:
      "Reset a user's two-factor sign-in (admin): it is off, the recovery codes are gone; audit-logged, and the user is told by e-mail. Not for oneself; 409 when it is not on",
  })
  @ApiEnvelope('null')
  @ApiErrors(400, 404, 409)
  async resetAdminUserTwoFactor(@Param('id', ParseIdPipe) id: number, @CurrentUser() actor: AuthUser): Promise<WithMessage<null>> {
    await this.twoFactor.resetByAdmin(id, actor);
    return withMessage(null, TwoFactorMessages.ADMIN_RESET);
  }
}

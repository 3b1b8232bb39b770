import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { withMessage } from '../common/envelope';
import { AuthMessages } from './auth.messages';
import type { AuthUser } from './auth-user';
import { AuthService } from './auth.service';
import { Auth, CurrentUser, SessionOnly } from './auth.decorator';
import { UserChangePasswordDto } from './dto/auth.dto';

/** POST /user/change-password (the spec's singular path). */
@ApiTags('Users')
@Controller('user')
// A password is the person's: no API token changes it, whatever its scopes.
@SessionOnly()
export class PasswordController {
  constructor(private readonly auth: AuthService) {}

  @Post('change-password')
  @HttpCode(200)
  @Auth()
  @ApiOperation({ summary: "Change the password (ends the user's other sessions)" })
  @ApiEnvelope('null')
  @ApiErrors(400)
  async changePassword(@CurrentUser() user: AuthUser, @Body() body: UserChangePasswordDto) {
    await this.auth.changePassword(user.id, user.sessionId, body);
    return withMessage(null, AuthMessages.PASSWORD_CHANGED);
  }
}

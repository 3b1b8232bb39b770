import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser, SessionOnly } from '../auth/auth.decorator';
import { ApiTokensMessages } from './api-tokens.messages';
import { ApiTokensService } from './api-tokens.service';
import { ApiTokenCreatedDto, ApiTokenCreateDto, ApiTokenDto } from './dto/api-token.dto';

/** The signed-in user's personal API tokens. Session-only: a token never manages tokens. */
@ApiTags('API tokens')
@Controller('account/tokens')
@SessionOnly()
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Post()
  @Auth()
  @ApiOperation({ summary: 'Create a personal API token: the answer holds the token, shown this once (only its SHA-256 is kept)' })
  @ApiEnvelope(ApiTokenCreatedDto, { status: 201 })
  @ApiErrors(400, 409)
  async createApiToken(@CurrentUser() user: AuthUser, @Body() body: ApiTokenCreateDto): Promise<WithMessage<ApiTokenCreatedDto>> {
    return withMessage(await this.tokens.create(user, body), ApiTokensMessages.CREATED);
  }

  @Get()
  @Auth()
  @ApiOperation({ summary: "The caller's API tokens, newest first, with their scopes, expiry and last use (never the tokens themselves)" })
  @ApiEnvelope(ApiTokenDto, { isArray: true })
  listApiTokens(@CurrentUser() user: AuthUser): Promise<ApiTokenDto[]> {
    return this.tokens.list(user.id);
  }

  @Delete(':id')
  @HttpCode(204)
  @Auth()
  @ApiParam({ name: 'id', description: 'API token id' })
  @ApiOperation({ summary: "Revoke an API token: its next request is refused. Another user's token is 404" })
  @ApiNoContentResponse({ description: 'Revoked (no body)' })
  @ApiErrors(400, 404)
  async revokeApiToken(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: number): Promise<void> {
    await this.tokens.revoke(user, id);
  }
}

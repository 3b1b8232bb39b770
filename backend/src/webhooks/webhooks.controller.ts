import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { RoleName } from '../users/roles';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import {
  WebhookAttemptDto,
  WebhookCreateDto,
  WebhookDto,
  WebhookRedeliveryDto,
  WebhookSummaryDto,
  WebhookTestResultDto,
  WebhookUpdateDto,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';
import { WebhooksMessages as M } from './webhooks.messages';

const ADMIN = Auth({ role: RoleName.ADMIN, forbidden: M.FORBIDDEN, unauthenticated: M.AUTH_REQUIRED });
const WEBHOOK_ID = new ParseIdPipe(M.INVALID_ID);

/** Webhooks (docs/integrations.md, 'Webhooks'): admins configure receivers of the domain events, test them, read their delivery log. */
@ApiTags('Admin webhooks')
@Controller('admin/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ADMIN
  @ApiOperation({ summary: 'Webhooks, oldest first (admin), with their last attempt; secrets are not listed' })
  @ApiEnvelope(WebhookSummaryDto, { isArray: true })
  listWebhooks(): Promise<WebhookSummaryDto[]> {
    return this.webhooks.list();
  }

  @Post()
  @ADMIN
  @ApiOperation({
    summary:
      'Create a webhook (admin): its signing secret is drawn and answered; 400 when the URL is not http(s) or resolves to a private address',
  })
  @ApiEnvelope(WebhookDto, { status: 201 })
  @ApiErrors(400)
  async createWebhook(@Body() dto: WebhookCreateDto, @CurrentUser() actor: AuthUser): Promise<WithMessage<WebhookDto>> {
    return withMessage(await this.webhooks.create(dto, actor), M.CREATED);
  }

  @Get(':id')
  @ADMIN
  @ApiOperation({ summary: 'One webhook with its secret (admin)' })
  @ApiEnvelope(WebhookDto)
  @ApiErrors(400, 404)
  getWebhook(@Param('id', WEBHOOK_ID) id: number): Promise<WebhookDto> {
    return this.webhooks.get(id);
  }

  @Put(':id')
  @ADMIN
  @ApiOperation({
    summary: 'Change a webhook, partially (admin); rotateSecret draws a new secret; turning it on clears its failure record',
  })
  @ApiEnvelope(WebhookDto)
  @ApiErrors(400, 404)
  async updateWebhook(
    @Param('id', WEBHOOK_ID) id: number,
    @Body() dto: WebhookUpdateDto,
    @CurrentUser() actor: AuthUser,
  ): Promise<WithMessage<WebhookDto>> {
    const { webhook, rotated } = await this.webhooks.update(id, dto, actor);
    return withMessage(webhook, rotated ? M.SECRET_ROTATED : M.UPDATED);
  }

  @Delete(':id')
  @ADMIN
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook with its deliveries and log (admin)' })
  @ApiNoContentResponse({ description: 'Deleted (no body)' })
  @ApiErrors(400, 404)
  async deleteWebhook(@Param('id', WEBHOOK_ID) id: number, @CurrentUser() actor: AuthUser): Promise<void> {
    await this.webhooks.remove(id, actor);
  }

  @Post(':id/test')
  @ADMIN
  @HttpCode(200)
  @ApiOperation({ summary: "Send a webhook.test event now (admin) and answer the attempt: the receiver's status, time and answer" })
  @ApiEnvelope(WebhookTestResultDto)
  @ApiErrors(400, 404, 409)
  async sendWebhookTestEvent(@Param('id', WEBHOOK_ID) id: number): Promise<WithMessage<WebhookAttemptDto>> {
    const attempt = await this.webhooks.sendTest(id);
    return withMessage(attempt, attempt.ok ? M.TEST_DELIVERED : M.TEST_FAILED);
  }

  @Get(':id/attempts')
  @ADMIN
  @ApiOperation({ summary: "A webhook's delivery log (admin): its last 100 attempts, newest first" })
  @ApiEnvelope(WebhookAttemptDto, { isArray: true })
  @ApiErrors(400, 404)
  listWebhookAttempts(@Param('id', WEBHOOK_ID) id: number): Promise<WebhookAttemptDto[]> {
    return this.webhooks.log(id);
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @ADMIN
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a delivery again (admin): the same body and delivery id, queued now with a new retry window' })
  @ApiEnvelope(WebhookRedeliveryDto, { status: 202 })
  @ApiErrors(400, 404, 409)
  async redeliverWebhookDelivery(
    @Param('id', WEBHOOK_ID) id: number,
    @Param('deliveryId', new ParseIdPipe(M.INVALID_DELIVERY_ID)) deliveryId: number,
  ): Promise<WithMessage<WebhookRedeliveryDto>> {
    return withMessage(await this.webhooks.redeliver(id, deliveryId), M.REDELIVERY_QUEUED);
  }
}

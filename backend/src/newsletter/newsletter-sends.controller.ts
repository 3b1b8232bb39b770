import { Body, Controller, Get, Header, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../auth/auth-user';
import { Auth, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import {
  NewsletterDeliveriesQueryDto,
  NewsletterDeliveryPageDto,
  NewsletterPreviewDto,
  NewsletterRetryDto,
  NewsletterSendDto,
  NewsletterSendSettingDto,
  NewsletterTestDto,
} from './dto/newsletter-sends.dto';
import { NewsletterSendsMessages } from './newsletter-sends.messages';
import { NewsletterSendsService } from './newsletter-sends.service';

const ADMIN = { role: RoleName.ADMIN, forbidden: NewsletterSendsMessages.FORBIDDEN };

/**
 * The preview page's own policy: the e-mail's inline styles and remote images, nothing else
 * (no script, no form, no plugin); `sandbox` makes it an opaque origin whatever frames it.
 */
const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; sandbox";

@ApiTags('Newsletter')
@Controller('newsletter/posts')
export class NewsletterSendsController {
  constructor(private readonly sends: NewsletterSendsService) {}

  @Get(':postId/send')
  @Auth(ADMIN)
  @ApiOperation({ summary: "A post's newsletter send (admin): whether it is e-mailed, its state and the deliveries' counts by state" })
  @ApiEnvelope(NewsletterSendDto)
  @ApiErrors(400, 404)
  async sendStatus(@Param('postId', ParseIdPipe) postId: number): Promise<WithMessage<NewsletterSendDto>> {
    return withMessage(await this.sends.status(postId), NewsletterSendsMessages.SEND_STATUS);
  }

  @Put(':postId/send')
  @Auth(ADMIN)
  @ApiOperation({
    summary:
      "'Publish without e-mail' (admin): sendEmail false before the post is published (approve or publish it as usual afterwards); true undoes it. " +
      'Once the post has been e-mailed (or is being) it is 409',
  })
  @ApiEnvelope(NewsletterSendDto)
  @ApiErrors(400, 404, 409)
  async setSendEmail(
    @Param('postId', ParseIdPipe) postId: number,
    @Body() dto: NewsletterSendSettingDto,
  ): Promise<WithMessage<NewsletterSendDto>> {
    return withMessage(await this.sends.setSendEmail(postId, dto.sendEmail), NewsletterSendsMessages.SEND_SETTING_SAVED);
  }

  @Get(':postId/deliveries')
  @Auth(ADMIN)
  @ApiOperation({ summary: "A post's newsletter e-mails (admin), failed and bounced first; filter by state" })
  @ApiEnvelope(NewsletterDeliveryPageDto)
  @ApiErrors(400, 404)
  async deliveries(
    @Param('postId', ParseIdPipe) postId: number,
    @Query() query: NewsletterDeliveriesQueryDto,
  ): Promise<WithMessage<NewsletterDeliveryPageDto>> {
    return withMessage(await this.sends.deliveries(postId, query.state, query.page, query.size), NewsletterSendsMessages.DELIVERIES);
  }

  @Post(':postId/send/retry-failed')
  @Auth(ADMIN)
  @HttpCode(200)
  @ApiOperation({ summary: "'Retry failed' (admin): the post's failed e-mails are queued again" })
  @ApiEnvelope(NewsletterRetryDto)
  @ApiErrors(400, 404)
  async retryFailed(@Param('postId', ParseIdPipe) postId: number): Promise<WithMessage<NewsletterRetryDto>> {
    return withMessage({ requeued: await this.sends.retryFailed(postId) }, NewsletterSendsMessages.RETRIED);
  }

  @Post(':postId/test')
  @Auth(ADMIN)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "'Send a test to me' (admin): the post's newsletter e-mail to the caller's own address, now. 503 when the SMTP server refuses it",
  })
  @ApiEnvelope(NewsletterTestDto)
  @ApiErrors(400, 404, 503)
  async sendTest(@Param('postId', ParseIdPipe) postId: number, @CurrentUser() user: AuthUser): Promise<WithMessage<NewsletterTestDto>> {
    return withMessage({ to: await this.sends.sendTest(postId, user) }, NewsletterSendsMessages.TEST_SENT);
  }

  @Get(':postId/preview')
  @Auth(ADMIN)
  @ApiOperation({
    summary: "The post's newsletter e-mail (admin): subject, HTML and plain text, with a test footer in place of each subscriber's links",
  })
  @ApiEnvelope(NewsletterPreviewDto)
  @ApiErrors(400, 404)
  async preview(@Param('postId', ParseIdPipe) postId: number): Promise<WithMessage<NewsletterPreviewDto>> {
    return withMessage(await this.sends.preview(postId), NewsletterSendsMessages.SEND_STATUS);
  }

  @Get(':postId/preview.html')
  @Auth(ADMIN)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary:
      "The same e-mail's HTML as a page (admin), for the back-office's sandboxed preview frame: its own Content-Security-Policy allows the e-mail's inline styles and images only",
  })
  @ApiOkResponse({ description: "The e-mail's HTML", content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiErrors(400, 404)
  async previewHtml(@Param('postId', ParseIdPipe) postId: number, @Res() res: Response): Promise<void> {
    const { html } = await this.sends.preview(postId);
    res.setHeader('Content-Security-Policy', PREVIEW_CSP);
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.type('html').send(html);
  }
}

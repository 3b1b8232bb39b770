import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../auth/auth.decorator';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { RoleName } from '../users/roles';
import { FollowerCountsDto, ImportRequestDto } from './dto/newsletter.dto';
import {
  AddSuppressionDto,
  AdminSubscriberPageDto,
  ImportReportDto,
  SubscriberQueryDto,
  SuppressionDto,
  SuppressionEmailQueryDto,
  SuppressionPageDto,
  SuppressionQueryDto,
} from './dto/subscribers-admin.dto';
import { NewsletterMessages } from './newsletter.messages';
import { SubscribersAdminService } from './subscribers-admin.service';

const ADMIN = Auth({
  role: RoleName.ADMIN,
  forbidden: NewsletterMessages.ADMIN_FORBIDDEN,
  unauthenticated: NewsletterMessages.ADMIN_AUTH_REQUIRED,
});

/** The subscribers' back-office: ADMIN only (API tokens need the `admin` scope, as on every administrator route). */
@ApiTags('Newsletter administration')
@Controller('newsletter/admin')
export class SubscribersAdminController {
  constructor(private readonly admin: SubscribersAdminService) {}

  @Get('subscribers')
  @ADMIN
  @ApiOperation({
    summary:
      "Subscribers, newest first (admin): search (part of the e-mail or name), status, follow ('publication', 'author:<id>', 'tag:<id>')",
  })
  @ApiEnvelope(AdminSubscriberPageDto)
  @ApiErrors(400)
  async listSubscribers(@Query() query: SubscriberQueryDto): Promise<WithMessage<AdminSubscriberPageDto>> {
    return withMessage(await this.admin.list(query), NewsletterMessages.SUBSCRIBERS);
  }

  @Delete('subscribers/:id')
  @ADMIN
  @ApiParam({ name: 'id', schema: { type: 'integer', minimum: 1 } })
  @ApiOperation({ summary: 'Removes a subscriber with their follows and deliveries (admin); an account stays, it only stops following' })
  @ApiEnvelope('null')
  @ApiErrors(400, 404)
  async removeSubscriber(@Param('id', new ParseIdPipe(NewsletterMessages.INVALID_ID)) id: number): Promise<WithMessage<null>> {
    await this.admin.remove(id);
    return withMessage(null, NewsletterMessages.SUBSCRIBER_REMOVED);
  }

  @Get('subscribers/export')
  @ADMIN
  @ApiOperation({
    summary:
      'Every subscriber as CSV (admin): email,name,follows,status,cadence,digest_weekday,source,created_at,confirmed_at,suppressed; importable as it is',
  })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'The CSV', content: { 'text/csv': { schema: { type: 'string' } } } })
  async exportSubscribers(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="subscribers-${new Date().toISOString().slice(0, 10)}.csv"`);
    res.setHeader('Cache-Control', 'private, no-store');
    await this.admin.exportCsv((chunk) => new Promise<void>((resolve) => (res.write(chunk) ? resolve() : res.once('drain', resolve))));
    res.end();
  }

  @Post('subscribers/import')
  @HttpCode(200)
  @ADMIN
  @ApiOperation({
    summary:
      "Imports subscribers from CSV (admin; the admin asserts their consent: no confirmation e-mail, no e-mail at all): Inkwell's email,name,follows, Ghost's members export or Substack's subscribers export. All or nothing: any row with an error is 400 with every error by line ('line 3') and nothing is imported. dryRun checks only",
  })
  @ApiEnvelope(ImportReportDto)
  @ApiErrors(400)
  async importSubscribers(@Body() dto: ImportRequestDto): Promise<WithMessage<ImportReportDto>> {
    const report = await this.admin.importCsv(dto.csv, dto.dryRun === true);
    return withMessage(report, report.applied ? NewsletterMessages.IMPORTED : NewsletterMessages.IMPORT_CHECKED);
  }

  @Get('counts')
  @ADMIN
  @ApiOperation({ summary: 'Follower counts (admin): the publication, per author and per tag, and subscribers by status' })
  @ApiEnvelope(FollowerCountsDto)
  async subscriberCounts(): Promise<WithMessage<FollowerCountsDto>> {
    return withMessage(await this.admin.counts(), NewsletterMessages.COUNTS);
  }

  @Get('suppressions')
  @ADMIN
  @ApiOperation({
    summary:
      'The suppression list (admin): addresses no newsletter e-mail goes to, with the reason (hard_bounce, soft_bounces, complaint, manual)',
  })
  @ApiEnvelope(SuppressionPageDto)
  @ApiErrors(400)
  async listSuppressions(@Query() query: SuppressionQueryDto): Promise<WithMessage<SuppressionPageDto>> {
    return withMessage(await this.admin.suppressions(query), NewsletterMessages.SUPPRESSIONS);
  }

  @Post('suppressions')
  @HttpCode(200)
  @ADMIN
  @ApiOperation({ summary: "Suppresses an address by hand (admin; reason 'manual'); one already suppressed keeps its reason" })
  @ApiEnvelope(SuppressionDto)
  @ApiErrors(400)
  async addSuppression(@Body() dto: AddSuppressionDto): Promise<WithMessage<SuppressionDto>> {
    return withMessage(await this.admin.suppress(dto.email, dto.detail), NewsletterMessages.SUPPRESSION_ADDED);
  }

  @Delete('suppressions')
  @ADMIN
  @ApiOperation({ summary: 'Un-suppresses an address (admin): newsletter e-mail may go to it again' })
  @ApiEnvelope('null')
  @ApiErrors(400, 404)
  async removeSuppression(@Query() query: SuppressionEmailQueryDto): Promise<WithMessage<null>> {
    await this.admin.unsuppress(query.email);
    return withMessage(null, NewsletterMessages.SUPPRESSION_REMOVED);
  }
}

import { Body, CanActivate, Controller, ExecutionContext, HttpCode, Injectable, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request } from 'express';
import { ApiEnvelope } from '../common/decorators/api-envelope.decorator';
import { ApiErrors } from '../common/decorators/api-errors.decorator';
import { Public } from '../common/decorators/public.decorator';
import { WithMessage, withMessage } from '../common/envelope';
import { BOUNCE_SIGNATURE_HEADER, BouncesService } from './bounces.service';
import { BounceReportDto, BounceResultDto } from './dto/bounces.dto';
import { NewsletterSendsMessages } from './newsletter-sends.messages';

/** Checks the signature before the body is validated or read: a report without a good signature is 401 whatever it holds. */
@Injectable()
export class BounceSignatureGuard implements CanActivate {
  constructor(private readonly bounces: BouncesService) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request & { rawBody?: Buffer }>();
    this.bounces.verify(req.rawBody, req.header(BOUNCE_SIGNATURE_HEADER));
    return true;
  }
}

@ApiTags('Newsletter')
@Controller('newsletter')
export class BouncesController {
  constructor(private readonly bounces: BouncesService) {}

  @Post('bounces')
  @Public()
  @HttpCode(200)
  @UseGuards(BounceSignatureGuard)
  @Throttle({ default: { limit: 120, ttl: 60_000 } })
  @ApiOperation({
    summary:
      "Bounces and complaints from a mail provider (through the operator's relay): no session, signed instead. The header X-Inkwell-Signature " +
      'is `t=<unix seconds>,v1=<hex HMAC-SHA256(NEWSLETTER_WEBHOOK_SECRET, t + "." + raw body)>`; t must be within 300 s of the server\'s ' +
      'time. A missing, wrong or stale signature (or no secret configured) is 401 and changes nothing. hard_bounce and complaint suppress ' +
      'the address; soft_bounce counts towards NEWSLETTER_SOFT_BOUNCE_LIMIT. Up to 1000 events per call',
  })
  @ApiHeader({ name: 'X-Inkwell-Signature', required: true, description: 't=<unix seconds>,v1=<hex HMAC-SHA256>' })
  @ApiEnvelope(BounceResultDto)
  @ApiErrors(400, 401, 429)
  async report(@Body() dto: BounceReportDto): Promise<WithMessage<BounceResultDto>> {
    return withMessage(await this.bounces.record(dto.events), NewsletterSendsMessages.BOUNCES_RECORDED);
  }
}

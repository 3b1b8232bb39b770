import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { NewsletterDelivery } from './entities/newsletter-delivery.entity';
import { NewsletterDigestDelivery } from './entities/newsletter-digest-delivery.entity';
import { NewsletterFollow } from './entities/newsletter-follow.entity';
import { NewsletterPostSend } from './entities/newsletter-post-send.entity';
import { NewsletterSubscriber } from './entities/newsletter-subscriber.entity';
import { NewsletterSuppression } from './entities/newsletter-suppression.entity';
import { NewsletterAccountDataService } from './newsletter-account-data';
import { NewsletterConfirmMailer } from './newsletter-confirm-mailer';
import { NewsletterController } from './newsletter.controller';
import { NewsletterEventsSubscriber } from './newsletter-events.subscriber';
import { NewsletterLinks } from './newsletter-links';
import { SubscribersAdminController } from './subscribers-admin.controller';
import { SubscribersAdminService } from './subscribers-admin.service';
import { SubscriptionsService } from './subscriptions.service';
import { BouncesController, BounceSignatureGuard } from './bounces.controller';
import { BouncesService } from './bounces.service';
import { NewsletterPostEmail } from './newsletter-post-email';
import { NewsletterSender } from './newsletter-sender';
import { NewsletterSendsController } from './newsletter-sends.controller';
import { NewsletterSendsService } from './newsletter-sends.service';
import { NewsletterTransport } from './newsletter-transport';
import { NewsletterDigest } from './digest';

const ENTITIES = [
  NewsletterSubscriber,
  NewsletterFollow,
  NewsletterSuppression,
  NewsletterPostSend,
  NewsletterDelivery,
  NewsletterDigestDelivery,
];

/**
 * The newsletter (docs/newsletter.md): readers and visitors follow the publication, an author or
 * a tag by e-mail; the sending of new posts and the weekly digest through the job queue; the
 * subscribers' back-office. A reach module: it follows the domain events and imports no other
 * reach module.
 */
@Module({
  imports: [TypeOrmModule.forFeature(ENTITIES), AuthModule, MailModule],
  controllers: [NewsletterController, SubscribersAdminController, NewsletterSendsController, BouncesController],
  providers: [
    NewsletterLinks,
    SubscriptionsService,
    NewsletterConfirmMailer,
    SubscribersAdminService,
    NewsletterAccountDataService,
    NewsletterEventsSubscriber,
    // Sending (newsletter-sender.ts and beside it).
    NewsletterTransport,
    NewsletterPostEmail,
    NewsletterSender,
    NewsletterSendsService,
    BouncesService,
    BounceSignatureGuard,
    NewsletterDigest,
  ],
  exports: [TypeOrmModule, NewsletterLinks, SubscriptionsService, NewsletterAccountDataService],
})
export class NewsletterModule {}

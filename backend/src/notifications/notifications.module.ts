import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../mail/mail.module';
import { CommentNotificationsSubscriber } from './comment-notifications.subscriber';
import { NOTIFICATION_CLOCK, systemClock } from './notification-clock';
import { NotificationInboxService } from './notification-inbox.service';
import { NotificationMailer } from './notification-mailer';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { PostNotificationsSubscriber } from './post-notifications.subscriber';

/** Notifications: the in-app list, preferences, e-mail deliveries through the job queue. */
@Module({
  imports: [MailModule, AuthModule],
  controllers: [NotificationsController],
  // A clock object per app: tests move its `now` forward.
  providers: [
    NotificationsService,
    NotificationInboxService,
    NotificationMailer,
    PostNotificationsSubscriber,
    CommentNotificationsSubscriber,
    { provide: NOTIFICATION_CLOCK, useFactory: () => ({ ...systemClock }) },
  ],
  exports: [NotificationsService],
})
export class NotificationsModule {}

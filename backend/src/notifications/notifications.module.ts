import { Module } from '@nestjs/common';
import { NOTIFICATION_CLOCK, systemClock } from './notification-clock';
import { NotificationsService } from './notifications.service';

/** Notifications: the in-app list, preferences, e-mail deliveries through the job queue (issue 19 §1). */
@Module({
  providers: [NotificationsService, { provide: NOTIFICATION_CLOCK, useValue: systemClock }],
  exports: [NotificationsService],
})
export class NotificationsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../mail/mail.module';
import { AccountSessionsController } from './account-sessions.controller';
import { AccountSessionsService } from './account-sessions.service';
import { KnownDevice } from './entities/known-device.entity';
import { RefreshSession } from './entities/refresh-session.entity';
import { SignInAlertSetting } from './entities/sign-in-alert-setting.entity';
import { NewDeviceAlerts } from './new-device-alerts';
import { SessionsService } from './sessions.service';
import { UserSessionsSubscriber } from './user-sessions.subscriber';

/**
 * Sessions: refresh-token families (SessionsService: start, rotate, revoke, the caller behind an
 * access token), the devices a user signed in from and the new-device e-mail, and 'Where you're
 * signed in' (/account/sessions). Sign-in (auth) starts sessions here; the session guard reads them.
 */
@Module({
  imports: [MailModule, TypeOrmModule.forFeature([RefreshSession, KnownDevice, SignInAlertSetting])],
  controllers: [AccountSessionsController],
  providers: [SessionsService, NewDeviceAlerts, AccountSessionsService, UserSessionsSubscriber],
  exports: [SessionsService],
})
export class SessionsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { CommentsModule } from '../comments/comments.module';
import { ImagesModule } from '../images/images.module';
import { LikesModule } from '../likes/likes.module';
import { MailModule } from '../mail/mail.module';
import { ModerationModule } from '../moderation/moderation.module';
import { NewsletterModule } from '../newsletter/newsletter.module';
import { PostsModule } from '../posts/posts.module';
import { SettingsModule } from '../settings/settings.module';
import { TwoFactorModule } from '../two-factor/two-factor.module';
import { UsersModule } from '../users/users.module';
import { AccountDataController, AdminUserDeletionController } from './account-data.controller';
import { AccountDeletionService } from './account-deletion.service';
import { AccountErasureService } from './account-erasure.service';
import { AccountExportFiles } from './account-export-files';
import { AccountExportWriter } from './account-export-writer';
import { AccountExportService } from './account-export.service';
import { AccountExport } from './entities/account-export.entity';

/**
 * 'Your data is yours': the data export and account deletion. It sits above the
 * features whose data it moves (posts, likes, comments, moderation, images) and calls their owners;
 * the user lifecycle schedules, cancels and ends the account.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([AccountExport]),
    AuthModule,
    UsersModule,
    PostsModule,
    LikesModule,
    CommentsModule,
    ModerationModule,
    ImagesModule,
    SettingsModule,
    MailModule,
    TwoFactorModule,
    NewsletterModule,
  ],
  controllers: [AccountDataController, AdminUserDeletionController],
  providers: [AccountDeletionService, AccountErasureService, AccountExportService, AccountExportWriter, AccountExportFiles],
  exports: [AccountErasureService],
})
export class AccountDataModule {}

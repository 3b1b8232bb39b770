import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CommentsModule } from '../comments/comments.module';
import { ImagesModule } from '../images/images.module';
import { MailModule } from '../mail/mail.module';
import { PostsModule } from '../posts/posts.module';
import { TagsModule } from '../tags/tags.module';
import { UsersModule } from '../users/users.module';
import { AccountInvitations } from './account-invitations';
import { ImportUploadInterceptor } from './import-upload.interceptor';
import { ImportsController } from './imports.controller';
import { ImportsService } from './imports.service';
import { SiteExportController } from './site-export.controller';
import { SiteExporter } from './site-exporter.service';
import { SiteImporter } from './site-importer.service';

/** Site import (WordPress, Ghost, Inkwell exports) through the lifecycle owners, and the site export. */
@Module({
  imports: [AuthModule, UsersModule, TagsModule, PostsModule, CommentsModule, ImagesModule, MailModule],
  controllers: [ImportsController, SiteExportController],
  providers: [ImportsService, SiteImporter, SiteExporter, ImportUploadInterceptor, AccountInvitations],
  exports: [ImportsService, SiteImporter, SiteExporter],
})
export class ImportsModule {}

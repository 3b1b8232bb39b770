import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { PostsModule } from '../posts/posts.module';
import { PostPreviewLink } from './entities/post-preview-link.entity';
import { PreviewLinksController, PreviewReadController } from './previews.controller';
import { PreviewsService } from './previews.service';

/** Shareable preview links of unpublished posts (docs/publishing.md). */
@Module({
  imports: [TypeOrmModule.forFeature([PostPreviewLink]), AuthModule, PostsModule],
  controllers: [PreviewLinksController, PreviewReadController],
  providers: [PreviewsService],
})
export class PreviewsModule {}

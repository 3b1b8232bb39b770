import { Injectable, MiddlewareConsumer, Module, NestMiddleware, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { DecodeQueue } from './decode-queue';
import { Thumbnail } from './entities/thumbnail.entity';
import { ImageKind, ImageStorageService } from './image-storage.service';
import { ImagesController } from './images.controller';
import { ImagesService } from './images.service';
import { ThumbnailSweeper } from './thumbnail-sweeper';
import { UploadReceiver } from './upload-receiver';

const FILE_PATH = /^\/images\/(avatars|thumbnails)\/([^/]+)$/;

/**
 * Serves stored images at /images/avatars/* and /images/thumbnails/* (host root, outside /api/v1)
 * with a year's immutable cache: names are random and never reused. Unknown names fall through
 * to the app's 404. Local files are sent from disk, S3 objects streamed from the bucket.
 */
@Injectable()
class StoredImagesMiddleware implements NestMiddleware {
  constructor(private readonly storage: ImageStorageService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const match = FILE_PATH.exec(req.path);
    if (!match) return next();
    this.storage.serve(match[1] as ImageKind, match[2], req, res, next);
  }
}

/**
 * The images API (GET /images/upload-info, POST /images/validate, POST /images/thumbnail/upload,
 * DELETE /images/{filename}), image storage (also used by the users module for avatars), the
 * hourly sweep of unused thumbnails and the static serving of stored files.
 * Not under /api/v1: import it in app.module's imports directly, not in API_MODULES.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Thumbnail])],
  controllers: [ImagesController],
  providers: [ImageStorageService, StoredImagesMiddleware, ImagesService, ThumbnailSweeper, DecodeQueue, UploadReceiver],
  exports: [ImageStorageService, ImagesService, DecodeQueue, UploadReceiver],
})
export class ImagesModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(StoredImagesMiddleware)
      .forRoutes({ path: 'images/{*path}', method: RequestMethod.GET }, { path: 'images/{*path}', method: RequestMethod.HEAD });
  }
}

import { BadRequestException, CallHandler, ExecutionContext, Injectable, NestInterceptor, PayloadTooLargeException, Type } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { memoryStorage } from 'multer';
import { Observable } from 'rxjs';
import { MAX_IMAGE_BYTES } from '../images/image-rules';
import { UsersMessages } from './users.messages';

const MulterAvatar: Type<NestInterceptor> = FileInterceptor('file', {
  storage: memoryStorage(),
  limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5, parts: 6 },
});

/**
 * Multipart field `file` into memory, at most 10 MB. Multer's "too large" (413) and other
 * multipart failures answer 400 with the spec's avatar texts.
 */
@Injectable()
export class AvatarUploadInterceptor implements NestInterceptor {
  private readonly multer = new MulterAvatar();

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    try {
      return await this.multer.intercept(context, next);
    } catch (error) {
      if (error instanceof PayloadTooLargeException) throw new BadRequestException(UsersMessages.AVATAR_TOO_LARGE);
      throw new BadRequestException(UsersMessages.AVATAR_NOT_IMAGE);
    }
  }
}

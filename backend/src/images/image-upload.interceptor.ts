import { BadRequestException, CallHandler, ExecutionContext, Injectable, NestInterceptor, PayloadTooLargeException, Type } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Request } from 'express';
import { memoryStorage } from 'multer';
import { Observable } from 'rxjs';
import { ImagesMessages } from './images.messages';
import { MAX_IMAGE_BYTES } from './image-rules';

/** The multipart field the spec's client sends (spec 000 §7, spec 001 §7). */
export const IMAGE_FIELD = 'image';

const MulterImage: Type<NestInterceptor> = FileInterceptor(IMAGE_FIELD, {
  storage: memoryStorage(),
  // One byte over the cap still arrives, so a file of 10 MB + 1 is refused with its real size.
  limits: { fileSize: MAX_IMAGE_BYTES + 1, files: 1, fields: 10, parts: 11 },
});

/** A refused image: 400 with `errors: { image: [...] }` and the first reason as the message. */
export function imageRejected(reasons: string[]): BadRequestException {
  return new BadRequestException({ message: reasons[0], errors: { [IMAGE_FIELD]: reasons } });
}

/**
 * Multipart field `image` into memory. Anything multer refuses answers 400 with the spec's texts:
 * a file over 10 MB 'File size (X MB) exceeds the maximum limit of 10MB' (X from the request's
 * length, the file itself is not kept), other multipart failures 'Please select a valid file'.
 */
@Injectable()
export class ImageUploadInterceptor implements NestInterceptor {
  private readonly multer = new MulterImage();

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    try {
      return await this.multer.intercept(context, next);
    } catch (error) {
      if (error instanceof PayloadTooLargeException) {
        const length = Number(context.switchToHttp().getRequest<Request>().headers['content-length']);
        throw imageRejected([ImagesMessages.fileTooLarge(Number.isFinite(length) && length > MAX_IMAGE_BYTES ? length : undefined)]);
      }
      throw imageRejected([ImagesMessages.FILE_REQUIRED]);
    }
  }
}

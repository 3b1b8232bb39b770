import { CallHandler, ExecutionContext, HttpException, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable } from 'rxjs';
import { ImagesMessages } from './images.messages';
import { UploadReceiver } from './upload-receiver';

/** The multipart field the spec's client sends (docs/requirements.md#api-images). */
export const IMAGE_FIELD = 'image';

/** A refused image: 400 (413 when too large) with `errors: { image: [...] }` and the first reason as the message. */
export function imageRejected(reasons: string[], status: HttpStatus = HttpStatus.BAD_REQUEST): HttpException {
  return new HttpException({ message: reasons[0], errors: { [IMAGE_FIELD]: reasons } }, status);
}

/**
 * Multipart field `image` into a temporary file (UploadReceiver). A body over 10 MB answers 413
 * 'File size (X MB) exceeds the maximum limit of 10MB' (X from the request's length; without one
 * 'File size cannot exceed 10MB'), other multipart failures 400 'Please select a valid file'.
 */
@Injectable()
export class ImageUploadInterceptor implements NestInterceptor {
  constructor(private readonly receiver: UploadReceiver) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    await this.receiver.receive(http.getRequest<Request>(), http.getResponse<Response>(), IMAGE_FIELD, {
      tooLarge: (bytes) => imageRejected([ImagesMessages.fileTooLarge(bytes)], HttpStatus.PAYLOAD_TOO_LARGE),
      invalid: () => imageRejected([ImagesMessages.FILE_REQUIRED]),
    });
    return next.handle();
  }
}

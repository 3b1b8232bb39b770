import { BadRequestException, CallHandler, ExecutionContext, Injectable, NestInterceptor, PayloadTooLargeException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable } from 'rxjs';
import { UploadReceiver } from '../images/upload-receiver';
import { UsersMessages } from './users.messages';

/**
 * Multipart field `file` into a temporary file (UploadReceiver), at most 10 MB: a larger body
 * answers 413 and other multipart failures 400, with the spec's avatar texts.
 */
@Injectable()
export class AvatarUploadInterceptor implements NestInterceptor {
  constructor(private readonly receiver: UploadReceiver) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    await this.receiver.receive(http.getRequest<Request>(), http.getResponse<Response>(), 'file', {
      tooLarge: () => new PayloadTooLargeException(UsersMessages.AVATAR_TOO_LARGE),
      invalid: () => new BadRequestException(UsersMessages.AVATAR_NOT_IMAGE),
    });
    return next.handle();
  }
}

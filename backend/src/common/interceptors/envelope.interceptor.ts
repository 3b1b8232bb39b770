import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';
import { Envelope, WithMessage } from '../envelope';
import { CommonMessages } from '../messages';

/** Wraps every successful answer in the envelope; 204 answers keep their empty body. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((value: unknown): Envelope<unknown> | undefined => {
        if (response.statusCode === 204) return undefined;
        const status = response.statusCode;
        if (value instanceof WithMessage) {
          return { success: true, data: value.data ?? null, message: value.message, status, errors: null };
        }
        const message = status === 201 ? CommonMessages.CREATED : CommonMessages.OK;
        return { success: true, data: value ?? null, message, status, errors: null };
      }),
    );
  }
}

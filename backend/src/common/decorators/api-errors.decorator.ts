import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '../envelope';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (errors per field)',
  401: 'Not signed in, or the session expired',
  403: 'Signed in without the permission',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  429: 'Too many attempts',
  503: 'Not ready',
};

/** Documents error answers (all share the envelope). */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', type: ErrorEnvelopeDto })),
  );
}

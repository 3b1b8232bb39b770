import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PageableDto } from '../pagination/page';

type Model = Type<unknown> | 'string' | 'number' | 'boolean' | 'null';

function dataSchema(model: Model, isArray: boolean): Record<string, unknown> {
  const item =
    typeof model === 'string' ? (model === 'null' ? { type: 'object', nullable: true } : { type: model }) : { $ref: getSchemaPath(model) };
  return isArray ? { type: 'array', items: item } : item;
}

function envelopeSchema(data: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    required: ['success', 'data', 'message', 'status', 'errors'],
    properties: {
      success: { type: 'boolean', example: true },
      data,
      message: { type: 'string', example: 'OK' },
      status: { type: 'integer', example: 200 },
      errors: { type: 'object', nullable: true, example: null },
    },
  };
}

/** Documents a success answer `{ success, data: Model, message, status, errors }`. */
export function ApiEnvelope(model: Model, options: { status?: number; isArray?: boolean; description?: string } = {}) {
  const decorators = [
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'Success',
      schema: envelopeSchema(dataSchema(model, options.isArray ?? false)),
    }),
  ];
  if (typeof model !== 'string') decorators.unshift(ApiExtraModels(model));
  return applyDecorators(...decorators);
}

/** Documents a paged success answer: `data` holds the spec's page fields with `content: Model[]`. */
export function ApiPagedEnvelope(model: Type<unknown>, options: { description?: string } = {}) {
  return applyDecorators(
    ApiExtraModels(model, PageableDto),
    ApiResponse({
      status: 200,
      description: options.description ?? 'A page of results',
      schema: envelopeSchema({
        type: 'object',
        required: ['content', 'totalElements', 'totalPages', 'number', 'size', 'first', 'last', 'empty', 'numberOfElements', 'pageable'],
        properties: {
          content: { type: 'array', items: { $ref: getSchemaPath(model) } },
          totalElements: { type: 'integer' },
          totalPages: { type: 'integer' },
          number: { type: 'integer' },
          size: { type: 'integer' },
          first: { type: 'boolean' },
          last: { type: 'boolean' },
          empty: { type: 'boolean' },
          numberOfElements: { type: 'integer' },
          pageable: { $ref: getSchemaPath(PageableDto) },
        },
      }),
    }),
  );
}

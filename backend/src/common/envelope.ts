import { ApiProperty } from '@nestjs/swagger';

/** The spec's response envelope: `{ success, data, message, status, errors }`. */
export interface Envelope<T> {
  success: boolean;
  data: T | null;
  message: string;
  status: number;
  errors: Record<string, string[]> | null;
  /** 429 only: seconds until a retry can succeed (the Retry-After header, for clients that read the body). */
  retryAfterSeconds?: number;
  requestId?: string;
}

/** Field errors: `{ field: [messages] }`. */
export type FieldErrors = Record<string, string[]>;

/**
 * A controller returns this to choose the envelope's message; any other return value is wrapped
 * with a default message.
 */
export class WithMessage<T> {
  constructor(
    readonly data: T,
    readonly message: string,
  ) {}
}

export function withMessage<T>(data: T, message: string): WithMessage<T> {
  return new WithMessage(data, message);
}

/** Swagger model of an error answer (the same envelope with `success: false`). */
export class ErrorEnvelopeDto {
  @ApiProperty({ example: false }) success: boolean;
  @ApiProperty({ nullable: true, example: null, type: Object }) data: null;
  @ApiProperty({ example: 'Invalid request. Please check your input.' }) message: string;
  @ApiProperty({ example: 400 }) status: number;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { email: ['Invalid email address'] },
  })
  errors: FieldErrors | null;
  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 0,
    example: 42,
    description: 'On 429 answers: seconds until a retry can succeed, the same value as the Retry-After header.',
  })
  retryAfterSeconds?: number;
  @ApiProperty({ required: false, example: '6f1c2a4e-0b1d-4c55-9a57-0c7e1b1f3b0e' }) requestId?: string;
}

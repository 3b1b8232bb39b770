import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from './page';

export type SortDirection = 'asc' | 'desc';
export const SORT_DIRECTIONS: readonly SortDirection[] = ['asc', 'desc'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor<T = object> = new (...args: any[]) => T;

export interface SortQueryOptions<F extends string, D extends string, B extends Constructor> {
  /** The field used when `sortBy` is missing (documented as the default). */
  defaultField: F;
  /** Documented default direction; the service applies it. Default 'desc'. */
  defaultDirection?: SortDirection;
  /** Name of the direction parameter: 'sortDir' (default) or e.g. 'sortDirection'. */
  directionParam?: D;
  /** The class to extend: PageQueryDto (default), LookupPageQueryDto, ... */
  base?: B;
}

/**
 * `?sortBy=<field>&sortDir=asc|desc` on top of a page query: a DTO class factory, so every list
 * validates and documents its sort the same way. 400s: `sortBy must be one of a, b, c`,
 * `sortDir must be asc or desc` (the direction is case-insensitive).
 *
 *   export class LikeMineQueryDto extends sortQuery(['createdAt', 'postTitle', 'userName'] as const,
 *     { defaultField: 'createdAt', directionParam: 'sortDirection' }) {}
 */
export function sortQuery<F extends string, D extends string = 'sortDir', B extends Constructor = typeof PageQueryDto>(
  fields: readonly F[],
  options: SortQueryOptions<F, D, B>,
): Constructor<InstanceType<B> & { sortBy?: F } & { [K in D]?: SortDirection }> & B {
  const Base = (options.base ?? PageQueryDto) as Constructor;
  const directionParam = options.directionParam ?? 'sortDir';
  class SortedQueryDto extends Base {}
  const target = SortedQueryDto.prototype;

  ApiPropertyOptional({ enum: fields, default: options.defaultField })(target, 'sortBy');
  IsOptional()(target, 'sortBy');
  IsIn(fields, { message: `sortBy must be one of ${fields.join(', ')}` })(target, 'sortBy');

  ApiPropertyOptional({ enum: SORT_DIRECTIONS, default: options.defaultDirection ?? 'desc' })(target, directionParam);
  IsOptional()(target, directionParam);
  Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))(target, directionParam);
  IsIn(SORT_DIRECTIONS, { message: `${directionParam} must be asc or desc` })(target, directionParam);

  return SortedQueryDto as unknown as Constructor<InstanceType<B> & { sortBy?: F } & { [K in D]?: SortDirection }> & B;
}

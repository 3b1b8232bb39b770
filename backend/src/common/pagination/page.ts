import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 10;
/**
 * The last page anyone may ask for (zero-based): with the largest size (1000) the offset stays
 * within 10^9, a 32-bit integer, and it is far beyond any real list. Larger pages are 400 on
 * `page` (not a database error).
 */
export const MAX_PAGE = 1_000_000;
export const MAX_PAGE_SIZE = 100;
/** The spec's clients fetch up to 1000 items from a few lists (tags, author status counts). */
export const MAX_LOOKUP_PAGE_SIZE = 1000;

function toInteger(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  return value;
}

/** Clamps a requested page size into [1, max]; a missing or non-numeric size takes the default. */
export function clampSize(value: unknown, fallback: number, max: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(1, Math.trunc(n)));
}

/**
 * `?page&size` DTO classes: page zero-based up to MAX_PAGE, size clamped to 1–`max` (a missing or non-numeric
 * size takes `defaultSize`). A factory, because a subclass cannot widen an inherited clamp.
 */
export function pageQuery(max: number, defaultSize: number = DEFAULT_PAGE_SIZE) {
  class PagedQueryDto {
    @ApiPropertyOptional({ minimum: 0, maximum: MAX_PAGE, default: 0, description: 'Zero-based page number' })
    @Transform(({ value }) => toInteger(value ?? 0))
    @IsInt({ message: 'page must be a whole number' })
    @Min(0, { message: 'page must not be negative' })
    @Max(MAX_PAGE, { message: `page must not be greater than ${MAX_PAGE}` })
    page: number = 0;

    @ApiPropertyOptional({ minimum: 1, maximum: max, default: defaultSize })
    @Transform(({ value }) => clampSize(toInteger(value), defaultSize, max))
    @IsInt()
    size: number = defaultSize;
  }
  return PagedQueryDto;
}

/** Sizes 1–100 (docs/requirements.md#paging). */
export class PageQueryDto extends pageQuery(MAX_PAGE_SIZE) {}
/** Sizes 1–1000, for the lists the spec's client fetches whole (tags, an author's posts). */
export class LookupPageQueryDto extends pageQuery(MAX_LOOKUP_PAGE_SIZE) {}

export class PageableDto {
  @ApiProperty() pageNumber: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() offset: number;
  @ApiProperty() paged: boolean;
  @ApiProperty() unpaged: boolean;
}

/** The spec's page fields (docs/requirements.md#paging) without `content`: subclasses add their items and any fields of their own. */
export abstract class PageFieldsDto {
  @ApiProperty() totalElements: number;
  @ApiProperty() totalPages: number;
  @ApiProperty() number: number;
  @ApiProperty() size: number;
  @ApiProperty() first: boolean;
  @ApiProperty() last: boolean;
  @ApiProperty() empty: boolean;
  @ApiProperty() numberOfElements: number;
  @ApiProperty({ type: PageableDto }) pageable: PageableDto;
}

/**
 * The page fields of the admin list variants (docs/requirements.md#paging: `currentPage` beside `number`); each
 * subclass adds `content` and the same items under its own name (`posts`, `tags`).
 */
export abstract class AdminPageFieldsDto extends PageFieldsDto {
  @ApiProperty() currentPage: number;
}

/** The spec's paged answer (Spring-style field names, as the clients read them). */
export interface Page<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
  first: boolean;
  last: boolean;
  empty: boolean;
  numberOfElements: number;
  pageable: PageableDto;
}

export function toPage<T>(content: T[], totalElements: number, page: number, size: number): Page<T> {
  const totalPages = size > 0 ? Math.ceil(totalElements / size) : 0;
  return {
    content,
    totalElements,
    totalPages,
    number: page,
    size,
    first: page === 0,
    last: page >= totalPages - 1,
    empty: content.length === 0,
    numberOfElements: content.length,
    pageable: { pageNumber: page, pageSize: size, offset: page * size, paged: true, unpaged: false },
  };
}

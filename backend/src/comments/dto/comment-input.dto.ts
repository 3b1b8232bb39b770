import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, registerDecorator } from 'class-validator';
import { clampSize, DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, PageQueryDto, pageQuery } from '../../common/pagination/page';
import { sortQuery } from '../../common/pagination/sort';
import { MaxChars, Required, trim } from '../../common/validation/field.rules';
import { MAX_COMMENT_LENGTH } from '../entities/comment.entity';
import { CommentsMessages } from '../comments.messages';

const MAX_ID = 2147483647;

function toInteger(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value.trim())) return Number(value);
  return value;
}

/** Trimmed, 1–200 characters (docs/requirements.md#validation-comment), stored as typed. */
function CommentContent(): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    ApiProperty({ minLength: 1, maxLength: MAX_COMMENT_LENGTH, description: 'Plain text (never HTML), trimmed' })(target, key);
    Transform(trim)(target, key);
    Required(CommentsMessages.CONTENT_REQUIRED)(target, key);
    MaxChars(MAX_COMMENT_LENGTH, CommentsMessages.CONTENT_TOO_LONG)(target, key);
  };
}

/** A whole number from `min` to `max` (one message however it fails). */
function WholeNumber(min: number, max: number, message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'wholeNumber',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      validator: { validate: (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max },
    });
  };
}

/** A whole number from 1 to 2^31-1. */
const PositiveId = (message: string) => WholeNumber(1, MAX_ID, message);

/** A positive 32-bit id or null/absent. */
function OptionalParentId(): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    ApiPropertyOptional({
      type: Number,
      nullable: true,
      minimum: 1,
      maximum: MAX_ID,
      description: 'The comment replied to; null or absent for a top-level comment',
    })(target, key);
    IsOptional()(target, key);
    PositiveId(CommentsMessages.PARENT_ID_INVALID)(target, key);
  };
}

/** POST /blog/posts/{id}/comments. */
export class CommentPostCreateDto {
  @CommentContent()
  content: string;

  @OptionalParentId()
  parentId?: number | null;
}

/** POST /comments. */
export class CommentCreateDto extends CommentPostCreateDto {
  @ApiProperty({ minimum: 1, maximum: MAX_ID })
  @PositiveId(CommentsMessages.POST_ID_INVALID)
  postId: number;
}

/** PUT /comments/{id}. */
export class CommentUpdateDto {
  @CommentContent()
  content: string;
}

/** A post's top-level comments: `?page&size&sortBy=createdAt&sortDir=asc|desc` (newest first by default). */
export class CommentPostQueryDto extends sortQuery(['createdAt'] as const, { defaultField: 'createdAt' }) {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_ID,
    description: "Answer the page that holds this comment's thread (`page` is then ignored; `number` says which)",
  })
  @IsOptional()
  @Transform(({ value }) => toInteger(value))
  @PositiveId(CommentsMessages.COMMENT_ID_INVALID)
  commentId?: number;
}

/** The caller's own comments: `?page&size&sortDirection` (the /my-comments page sends sortDirection). */
export class CommentMineQueryDto extends sortQuery(['createdAt'] as const, {
  defaultField: 'createdAt',
  directionParam: 'sortDirection',
}) {}

/** `?limit` (default 3, clamped to 1–20): the recent-comments widget. */
export class CommentRecentQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 20, default: 3 })
  @Transform(({ value }) => clampSize(toInteger(value), 3, 20))
  @IsInt({ message: CommentsMessages.LIMIT_INVALID })
  limit: number = 3;
}

/** Admin recent comments: `?page&size` with size 20 by default (docs/requirements.md#constants-comments). */
export class CommentAdminQueryDto extends pageQuery(MAX_PAGE_SIZE, 20) {}

/** Keyword search: `?keyword` (required, 1–100 characters), optional `postId`, `page&size`. */
export class CommentSearchQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_ID, description: 'Search one post only' })
  @IsOptional()
  @Transform(({ value }) => toInteger(value))
  @PositiveId(CommentsMessages.POST_ID_INVALID)
  postId?: number;

  @ApiProperty({ minLength: 1, maxLength: 100, description: 'Words to find (whole words, the last one as a prefix; case-insensitive)' })
  @Transform(trim)
  @Required(CommentsMessages.KEYWORD_REQUIRED)
  @MaxChars(100, CommentsMessages.KEYWORD_TOO_LONG)
  keyword: string;
}

/** Comments by user: every invalid parameter answers 'Tham số không hợp lệ' (docs/requirements.md#errors-comments). */
const invalid = { message: CommentsMessages.INVALID_PARAMS };
function VietnamesePage(): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    ApiPropertyOptional({
      minimum: 0,
      maximum: MAX_PAGE,
      default: 0,
      description: 'Zero-based page number (the client sends its one-based page minus one)',
    })(target, key);
    Transform(({ value }) => toInteger(value ?? 0))(target, key);
    WholeNumber(0, MAX_PAGE, CommentsMessages.INVALID_PARAMS)(target, key);
  };
}
function VietnameseSize(name: string): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `${name}: clamped to 1–100` })(
      target,
      key,
    );
    Transform(({ value }) => clampSize(toInteger(value), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE))(target, key);
    WholeNumber(1, MAX_PAGE_SIZE, CommentsMessages.INVALID_PARAMS)(target, key);
  };
}

/** GET /comments/user/{userId}: `?page&size`. */
export class CommentUserQueryDto {
  @VietnamesePage() page: number = 0;
  @VietnameseSize('Page size') size: number = DEFAULT_PAGE_SIZE;
}

export const BY_USER_SORTS = ['newest', 'oldest', 'createdAt,desc', 'createdAt,asc'] as const;
export type ByUserSort = (typeof BY_USER_SORTS)[number];

/** GET /comments/by-user/{userId}: `?page` (zero-based), `limit`, `sort` (newest | oldest | createdAt,desc | createdAt,asc). */
export class CommentByUserQueryDto {
  @VietnamesePage() page: number = 0;
  @VietnameseSize('Page size') limit: number = DEFAULT_PAGE_SIZE;

  @ApiPropertyOptional({ enum: BY_USER_SORTS, default: 'newest' })
  @IsOptional()
  @IsIn(BY_USER_SORTS, invalid)
  sort?: ByUserSort;
}

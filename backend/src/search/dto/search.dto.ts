import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength, registerDecorator, ValidationArguments } from 'class-validator';
import { PageFieldsDto, PageQueryDto } from '../../common/pagination/page';
import { MaxChars, Required, trim } from '../../common/validation/field.rules';
import { SLUG_BODY } from '../../../../isomorphic/slug';
import { PostCardResponseDto } from '../../posts/dto/post-response.dto';

/** The longest query (code points, as every length rule counts). */
export const MAX_QUERY_CHARS = 200;

export const SearchMessages = {
  QUERY_REQUIRED: 'Enter something to search for',
  QUERY_TOO_LONG: `The search query must be at most ${MAX_QUERY_CHARS} characters`,
  TAG_INVALID: 'tag must be a tag slug (lowercase letters, digits and hyphens)',
  AUTHOR_INVALID: 'author must be an author slug (lowercase letters, digits and hyphens)',
  FROM_INVALID: 'from must be a date YYYY-MM-DD',
  TO_INVALID: 'to must be a date YYYY-MM-DD',
  TO_BEFORE_FROM: 'to must not be before from',
} as const;

const SLUG_PARAM = new RegExp(`^${SLUG_BODY}$`);

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** When present, a calendar day (a missing value is left to IsOptional). */
function CalendarDay(message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'calendarDay',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      validator: { validate: (value: unknown) => typeof value === 'string' && isCalendarDay(value) },
    });
  };
}

/** Not before the sibling day `property` (both YYYY-MM-DD, so they compare as strings); judged only when both are days. */
function NotBefore(property: string, message: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'notBefore',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [property],
      options: { message },
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          const other = (args.object as Record<string, unknown>)[args.constraints[0] as string];
          if (typeof value !== 'string' || typeof other !== 'string' || !isCalendarDay(value) || !isCalendarDay(other)) return true;
          return value >= other;
        },
      },
    });
  };
}

/** GET /blog/search: ?q&page&size&tag&author&from&to. */
export class SearchQueryDto extends PageQueryDto {
  @ApiProperty({
    maxLength: MAX_QUERY_CHARS,
    description: 'Free text: words must all match (accents optional), "quoted phrase", -word excludes, "or" between alternatives',
    example: 'tieng viet',
  })
  @Transform(trim)
  @Required(SearchMessages.QUERY_REQUIRED)
  @MaxChars(MAX_QUERY_CHARS, SearchMessages.QUERY_TOO_LONG)
  q: string;

  @ApiPropertyOptional({ description: 'Only posts with this active tag (slug)', maxLength: 100 })
  @IsOptional()
  @IsString({ message: SearchMessages.TAG_INVALID })
  @MaxLength(100, { message: SearchMessages.TAG_INVALID })
  @Matches(SLUG_PARAM, { message: SearchMessages.TAG_INVALID })
  tag?: string;

  @ApiPropertyOptional({ description: "Only this author's posts (the author's slug)", maxLength: 200 })
  @IsOptional()
  @IsString({ message: SearchMessages.AUTHOR_INVALID })
  @MaxLength(200, { message: SearchMessages.AUTHOR_INVALID })
  @Matches(SLUG_PARAM, { message: SearchMessages.AUTHOR_INVALID })
  author?: string;

  @ApiPropertyOptional({ format: 'date', example: '2026-01-01', description: 'Published on or after this day (site time zone)' })
  @IsOptional()
  @CalendarDay(SearchMessages.FROM_INVALID)
  from?: string;

  @ApiPropertyOptional({
    format: 'date',
    example: '2026-12-31',
    description: 'Published on or before this day (site time zone); not before from',
  })
  @IsOptional()
  @CalendarDay(SearchMessages.TO_INVALID)
  @NotBefore('from', SearchMessages.TO_BEFORE_FROM)
  to?: string;
}

/** A search hit: the card of the public lists plus where and how well it matched. */
export class SearchHitDto extends PostCardResponseDto {
  @ApiProperty({
    description: 'A passage of the body around the matches: HTML-escaped text whose only markup is <mark>…</mark> around matched words',
    example: 'Học <mark>tiếng</mark> <mark>Việt</mark> mỗi ngày …',
  })
  snippet: string;

  @ApiProperty({
    description: 'Relevance (higher first): ts_rank_cd with a small boost for recency and likes; trigram similarity for typo-fallback hits',
  })
  rank: number;
}

/** The search answer: the spec's page fields (totalElements exact: paging reaches every match) plus the normalised query and the typo suggestion. */
export class SearchPageDto extends PageFieldsDto {
  @ApiProperty({ type: [SearchHitDto] }) content: SearchHitDto[];
  @ApiProperty({ description: 'The query as searched: trimmed, inner whitespace collapsed (the page cache key)', example: 'tieng viet' })
  query: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'When full-text search found nothing and similar title or tag words did: the corrected query (the hits are its results); else null',
  })
  didYouMean: string | null;
}

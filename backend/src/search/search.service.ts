import { Inject, Injectable, NotFoundException, OnModuleDestroy } from '@nestjs/common';
import { ContentChange, ContentEvents } from '../common/content-events';
import { MicroCache } from '../common/micro-cache';
import { toPage } from '../common/pagination/page';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PostCardResponseDto } from '../posts/dto/post-response.dto';
import { SearchHitDto, SearchPageDto, SearchQueryDto } from './dto/search.dto';
import { toPostCard } from '../posts/post.mapper';
import { PostsMessages } from '../posts/posts.messages';
import { SearchFilter, SearchHitRow, SearchRepository } from './search.repository';

/** Related posts under a post. */
export const RELATED_POSTS = 4;
/**
 * Answers are the same for every reader: each is kept this long at most (a burst of identical
 * searches makes one query); every change that can alter one drops it before the writer answers.
 */
const ANSWER_TTL_MS = 5_000;
const CACHE_ENTRIES = 500;

type Answer = SearchPageDto | PostCardResponseDto[];
const cardsOf = (answer: Answer): PostCardResponseDto[] => (Array.isArray(answer) ? answer : answer.content);

/** The query as searched and shown back: trimmed (the DTO) with inner whitespace collapsed. */
export const normalisedQuery = (q: string): string => q.replace(/\s+/g, ' ');

const toHit = (row: SearchHitRow): SearchHitDto => ({ ...toPostCard(row, row.tags), snippet: row.snippet, rank: row.rank });

@Injectable()
export class SearchService implements OnModuleDestroy {
  private readonly answers = new MicroCache<Answer>(ANSWER_TTL_MS, CACHE_ENTRIES);
  private readonly stopListening: () => void;

  constructor(
    private readonly repository: SearchRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    contentEvents: ContentEvents,
  ) {
    this.stopListening = contentEvents.onChange((change) => this.dropStale(change));
  }

  /**
   * The documents themselves live in the database (triggers), so a write is searchable as soon as
   * it commits; only the answers held here can be stale. A post published, edited, unpublished or
   * deleted, or a tag changed, can change any answer (membership, rank, snippet, tags): all. A
   * like changes ranks (the likes boost): all; a comment count only the cards that show it. An
   * author's name or avatar: the answers showing their posts.
   */
  private dropStale(change: ContentChange): void {
    switch (change.kind) {
      case 'post':
      case 'tag':
      case 'resync':
        this.answers.clear();
        return;
      case 'post-counters':
        if (change.counter === 'likes') this.answers.clear();
        else this.answers.deleteWhere((_key, answer) => cardsOf(answer).some((card) => card.id === change.postId));
        return;
      case 'user':
        if (change.profileChanged)
          this.answers.deleteWhere((_key, answer) => cardsOf(answer).some((card) => card.authorId === change.userId));
        return;
      default:
        return;
    }
  }

  onModuleDestroy(): void {
    this.stopListening();
  }

  search(dto: SearchQueryDto): Promise<SearchPageDto> {
    const query = normalisedQuery(dto.q);
    const filter: SearchFilter = {
      tagSlug: dto.tag,
      authorSlug: dto.author,
      from: dto.from,
      to: dto.to,
      timeZone: this.config.siteTimeZone,
    };
    const key = JSON.stringify(['search', query, dto.page, dto.size, dto.tag ?? '', dto.author ?? '', dto.from ?? '', dto.to ?? '']);
    return this.answers.remember(key, () => this.load(query, filter, dto.page, dto.size)) as Promise<SearchPageDto>;
  }

  /** Full-text search; when it finds nothing, the query with its misspelt words corrected (didYouMean). */
  private async load(query: string, filter: SearchFilter, page: number, size: number): Promise<SearchPageDto> {
    let found = await this.repository.search(query, filter, size, page * size);
    let didYouMean: string | null = null;
    if (found.total === 0) {
      const corrected = await this.repository.correctedQuery(query);
      if (corrected) {
        const retry = await this.repository.search(corrected, filter, size, page * size);
        if (retry.total > 0) {
          found = retry;
          didYouMean = corrected;
        }
      }
    }
    return { ...toPage(found.rows.map(toHit), found.total, page, size), query, didYouMean };
  }

  /** Up to RELATED_POSTS published posts sharing tags with the published post `slug`; 404 like the post otherwise. */
  related(slug: string): Promise<PostCardResponseDto[]> {
    return this.answers.remember(JSON.stringify(['related', slug]), async () => {
      const rows = await this.repository.related(slug, RELATED_POSTS);
      if (!rows) throw new NotFoundException(PostsMessages.notFoundBySlug(slug));
      return rows.map((row) => toPostCard(row, row.tags));
    }) as Promise<PostCardResponseDto[]>;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PostCardWithTags } from './posts.repository';

/** The card columns of posts `p` and their author `u` (as PostsRepository's public lists select them) with the active tags. */
const CARD_COLUMNS = `p.id, p.title, p.slug, p.summary, p.thumbnail, p.like_count, p.view_count, p.comment_count, p.is_featured,
  p.published_at, p.reading_time, p.author_id, u.full_name AS author_name, u.avatar AS author_avatar, u.slug AS author_slug,
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug, 'color', t.color) ORDER BY t.name)
    FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id AND t.is_active = true), '[]'::json) AS tags`;

/**
 * Candidates ranked per query: the best title/summary/tag matches by their own rank (small
 * vectors stored inline) and the newest matches anywhere. A query matching fewer posts than
 * either limit ranks every match; a common word (found in most bodies) ranks at most their sum
 * instead of every post, which keeps it within milliseconds at 100,000 posts.
 */
export const HEAD_CANDIDATES = 400;
export const BODY_CANDIDATES = 200;

/** The reader's text as a tsquery: unaccented, websearch syntax ("phrase", -word, or). `$1` is the query. */
const QUERY = `websearch_to_tsquery('inkwell_search', inkwell_unaccent($1))`;

/**
 * Relevance, then a small boost. ts_rank_cd (cover density) weighs where the words are close
 * together, by weight: body {D,C} 0.05/0.1, summary and tags (B) 0.4, title (A) 1.0; normalised
 * by 1 + log(document length) (bit 1, so long bodies do not win by size) and to [0, 1) (bit 32).
 * Multiplied by 1 + recency + likes: recency = 0.15 / (1 + age in half years) (+15 % today,
 * +7.5 % at six months), likes = 0.1 · ln(1 + likes) / ln(1001) capped at 0.1 (+10 % at 1,000
 * likes). The boost orders close matches; it cannot lift a weak match over a much better one.
 */
const SCORE = `ts_rank_cd('{0.05, 0.1, 0.4, 1.0}', p.search_document, ${QUERY}, 33)
  * (1 + 0.15 / (1 + GREATEST(extract(epoch FROM now() - p.published_at), 0) / 15778800)
     + LEAST(0.1, 0.1 * ln(1 + p.like_count) / ln(1001)))`;

/**
 * The body text around the matches: the text without markup (inkwell_html_text), HTML-escaped
 * first, then ts_headline marks matches with \x01 / \x02 (removed from the text beforehand), which
 * become <mark> and </mark>: the only markup a snippet can hold. Without a match (a title-only
 * hit) it is the body's first words.
 */
const snippetOf = (query: string) => `btrim(replace(replace(ts_headline('inkwell_search',
    replace(replace(replace(replace(replace(translate(regexp_replace(inkwell_html_text(p.content_html), '\\s+', ' ', 'g'), E'\\x01\\x02', ''),
      '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;'),
    ${query}, E'StartSel=\\x01, StopSel=\\x02, MaxWords=35, MinWords=20'),
  E'\\x01', '<mark>'), E'\\x02', '</mark>'))`;

export interface SearchFilter {
  tagSlug?: string;
  authorSlug?: string;
  /** YYYY-MM-DD, days in `timeZone`. */
  from?: string;
  to?: string;
  timeZone: string;
}

export type SearchHitRow = PostCardWithTags & { rank: number; snippet: string };

/** The filters as SQL over posts `p`, their values appended to `params`. */
function filterSql(filter: SearchFilter, params: unknown[]): string {
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const clauses: string[] = [];
  if (filter.tagSlug) {
    clauses.push(`EXISTS (SELECT 1 FROM post_tags ft JOIN tags t ON t.id = ft.tag_id WHERE ft.post_id = p.id AND t.slug = ${add(filter.tagSlug)} AND t.is_active = true)`);
  }
  if (filter.authorSlug) clauses.push(`p.author_id = (SELECT fu.id FROM users fu WHERE fu.slug = ${add(filter.authorSlug)})`);
  if (filter.from || filter.to) {
    const zone = add(filter.timeZone);
    // Whole days in the site's time zone: from its midnight to the midnight after `to`.
    if (filter.from) clauses.push(`p.published_at >= (${add(filter.from)}::date)::timestamp AT TIME ZONE ${zone}`);
    if (filter.to) clauses.push(`p.published_at < (${add(filter.to)}::date + 1)::timestamp AT TIME ZONE ${zone}`);
  }
  return clauses.map((clause) => ` AND ${clause}`).join('');
}

/**
 * Full-text search over published posts (migration CreatePostSearch: posts.search_document and
 * search_head, kept by triggers, so a write is searchable as soon as it commits).
 */
@Injectable()
export class SearchRepository {
  private trigramsPresent?: Promise<boolean>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One page of hits and the number of matches offered, in one round trip: candidates from the
   * two GIN indexes (HEAD_CANDIDATES, BODY_CANDIDATES), each ranked once, then the page's cards
   * and snippets (ts_headline only for the page's rows).
   */
  async search(query: string, filter: SearchFilter, limit: number, offset: number): Promise<{ rows: SearchHitRow[]; total: number }> {
    const params: unknown[] = [query];
    const where = `p.status = 'PUBLISHED'${filterSql(filter, params)}`;
    const n = params.length;
    const rows = (await this.dataSource.query(
      `WITH head AS (
         SELECT p.id FROM posts p WHERE p.search_head @@ ${QUERY} AND ${where}
          ORDER BY ts_rank_cd(p.search_head, ${QUERY}) DESC, p.published_at DESC, p.id DESC LIMIT ${HEAD_CANDIDATES}
       ), body AS (
         SELECT p.id FROM posts p WHERE p.search_document @@ ${QUERY} AND ${where}
          ORDER BY p.published_at DESC, p.id DESC LIMIT ${BODY_CANDIDATES}
       ), ranked AS MATERIALIZED (
         SELECT p.id, p.published_at, ${SCORE} AS rank
           FROM (SELECT id FROM head UNION SELECT id FROM body) c JOIN posts p ON p.id = c.id
          WHERE p.search_document @@ ${QUERY}
       ), page AS (
         SELECT id, rank, count(*) OVER () AS total FROM ranked ORDER BY rank DESC, published_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}
       )
       SELECT ${CARD_COLUMNS}, page.rank::float8 AS rank, page.total::int AS total, ${snippetOf(QUERY)} AS snippet
         FROM page JOIN posts p ON p.id = page.id JOIN users u ON u.id = p.author_id
        ORDER BY page.rank DESC, p.published_at DESC, p.id DESC`,
      [...params, limit, offset],
    )) as (SearchHitRow & { total: number })[];
    if (rows.length || offset === 0) return { rows, total: rows[0]?.total ?? 0 };
    // A page past the end: the count alone.
    const [count] = (await this.dataSource.query(
      `WITH head AS (SELECT p.id FROM posts p WHERE p.search_head @@ ${QUERY} AND ${where}
                      ORDER BY ts_rank_cd(p.search_head, ${QUERY}) DESC, p.published_at DESC, p.id DESC LIMIT ${HEAD_CANDIDATES}),
            body AS (SELECT p.id FROM posts p WHERE p.search_document @@ ${QUERY} AND ${where} ORDER BY p.published_at DESC, p.id DESC LIMIT ${BODY_CANDIDATES})
       SELECT count(*)::int AS total FROM (SELECT id FROM head UNION SELECT id FROM body) c JOIN posts p ON p.id = c.id WHERE p.search_document @@ ${QUERY}`,
      params,
    )) as { total: number }[];
    return { rows, total: count.total };
  }

  /**
   * The typo fallback: each word of `query` (unaccented, lower-cased; words of 3+ letters) replaced
   * by the most similar word of a published title or an active tag name when pg_trgm finds one
   * (word_similarity ≥ pg_trgm's word_similarity_threshold, 0.6 by default), using the trigram
   * index over titles. Undefined when nothing changes or pg_trgm is missing.
   */
  async correctedQuery(query: string): Promise<string | undefined> {
    if (!(await this.hasTrigrams())) return undefined;
    const rows = (await this.dataSource.query(
      `WITH words AS (
         SELECT w.word, w.n FROM regexp_split_to_table(lower(inkwell_unaccent($1)), '[^[:alnum:]]+') WITH ORDINALITY AS w(word, n) WHERE w.word <> ''
       ), titles AS (
         SELECT inkwell_unaccent(lower(p.title)) AS text FROM posts p
          WHERE p.status = 'PUBLISHED' AND inkwell_unaccent(lower(p.title)) %> inkwell_unaccent(lower($1))
          ORDER BY inkwell_unaccent(lower($1)) <<-> inkwell_unaccent(lower(p.title)) LIMIT 20
       ), vocabulary AS (
         SELECT DISTINCT v AS word FROM titles, regexp_split_to_table(titles.text, '[^[:alnum:]]+') v WHERE length(v) >= 3
         UNION SELECT DISTINCT v FROM tags t, regexp_split_to_table(inkwell_unaccent(lower(t.name)), '[^[:alnum:]]+') v WHERE t.is_active AND length(v) >= 3
       )
       SELECT words.word AS original, COALESCE(
                (SELECT v.word FROM vocabulary v WHERE length(words.word) >= 3 AND similarity(words.word, v.word) >= 0.4
                  ORDER BY similarity(words.word, v.word) DESC, v.word LIMIT 1),
                words.word) AS corrected
         FROM words ORDER BY words.n`,
      [query],
    )) as { original: string; corrected: string }[];
    const corrected = rows.map((row) => row.corrected).join(' ');
    const original = rows.map((row) => row.original).join(' ');
    return corrected && corrected !== original ? corrected : undefined;
  }

  /**
   * Up to `limit` published posts sharing an active tag with the published post `slug`, most
   * similar titles first: the post's title words as an OR query, ranked against the others'
   * title, summary and tags (search_head: title words weigh most), then by shared tags and
   * recency. Undefined when `slug` is no published post.
   */
  async related(slug: string, limit: number): Promise<PostCardWithTags[] | undefined> {
    const [source] = (await this.dataSource.query(`SELECT id FROM posts WHERE slug = $1 AND status = 'PUBLISHED'`, [slug])) as { id: number }[];
    if (!source) return undefined;
    return this.dataSource.query(
      `WITH src AS (
         SELECT s.id, (SELECT to_tsquery('simple', string_agg(quote_literal(l), ' | ')) FROM unnest(tsvector_to_array(to_tsvector('inkwell_search', inkwell_unaccent(s.title)))) l) AS title_query
           FROM posts s WHERE s.id = $1
       ), shared AS (
         SELECT pt.post_id AS id, count(*) AS tags
           FROM post_tags st JOIN tags t ON t.id = st.tag_id AND t.is_active = true
           JOIN post_tags pt ON pt.tag_id = st.tag_id AND pt.post_id <> st.post_id
          WHERE st.post_id = $1
          GROUP BY pt.post_id
       ), best AS (
         SELECT p.id, COALESCE(ts_rank_cd(p.search_head, src.title_query), 0) AS similarity, shared.tags
           FROM shared JOIN posts p ON p.id = shared.id AND p.status = 'PUBLISHED', src
          ORDER BY similarity DESC, shared.tags DESC, p.published_at DESC, p.id DESC LIMIT $2
       )
       SELECT ${CARD_COLUMNS} FROM best JOIN posts p ON p.id = best.id JOIN users u ON u.id = p.author_id
        ORDER BY best.similarity DESC, best.tags DESC, p.published_at DESC, p.id DESC`,
      [source.id, limit],
    ) as Promise<PostCardWithTags[]>;
  }

  /** pg_trgm may be missing on an external database (README, Search): then there is no typo fallback. */
  private hasTrigrams(): Promise<boolean> {
    this.trigramsPresent ??= this.dataSource
      .query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`)
      .then((rows: unknown[]) => rows.length > 0)
      .catch((error: unknown) => {
        this.trigramsPresent = undefined;
        throw error;
      });
    return this.trigramsPresent;
  }
}

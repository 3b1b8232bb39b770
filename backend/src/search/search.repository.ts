import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { PostCardWithTags } from '../posts/post.mapper';

/** The card columns of posts `p` and their author `u` (as PostsRepository's public lists select them) with the active tags. */
const CARD_COLUMNS = `p.id, p.title, p.slug, p.summary, p.thumbnail, p.like_count, p.view_count, p.comment_count, p.is_featured,
  p.published_at, p.reading_time, p.author_id, u.full_name AS author_name, u.avatar AS author_avatar, u.slug AS author_slug, p.canonical_url,
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug, 'color', t.color) ORDER BY t.name)
    FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id AND t.is_active = true), '[]'::json) AS tags`;

/**
 * Candidates ranked per query (see `candidates`): a query matching fewer posts than either limit
 * ranks every match; a common word (found in most bodies) ranks at most their sum first, instead
 * of every post, which keeps it within milliseconds at 100,000 posts. The other matches follow
 * (see `search`), so every match is reachable.
 */
export const HEAD_CANDIDATES = 200;
export const BODY_CANDIDATES = 100;

export interface CandidateLimits {
  head: number;
  body: number;
}
/** Optional provider overriding the candidate limits (tests page past them with a few posts). */
export const SEARCH_CANDIDATE_LIMITS = Symbol('SEARCH_CANDIDATE_LIMITS');

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
const WEIGHTS = `'{0.05, 0.1, 0.4, 1.0}'`;
const SCORE = `ts_rank_cd(${WEIGHTS}, p.search_document, ${QUERY}, 33)
  * (1 + 0.15 / (1 + GREATEST(extract(epoch FROM now() - p.published_at), 0) / 15778800)
     + LEAST(0.1, 0.1 * ln(1 + p.like_count) / ln(1001)))`;

/**
 * The characters unaccent turns into ASCII punctuation (typographic quotes and apostrophes, dashes,
 * ellipsis, guillemets, full-width and CJK punctuation). In the index they come out as ASCII
 * punctuation, which splits words (“K” holds the word k); the snippet is cut from the original
 * text, where the parser (in the C locale every non-ASCII character is a letter) read “K” as one
 * word that matches nothing, so K went unmarked. The snippet text gets a separator around each of
 * them (removed afterwards), so both sides split words alike. search.e2e-spec.ts checks this list
 * against the database's unaccent.
 */
export const UNACCENT_PUNCTUATION =
  '\u00a1\u00ab\u00ad\u00b1\u00bb\u00bf\u00d7\u00f7\u02b9-\u02bd\u02c2-\u02c4\u02c6\u02c8\u02cb\u02d0\u02d6\u02d7\u02dc' +
  '\u2010-\u2016\u2018-\u201f\u2024-\u2026\u2032\u2033\u2039\u203a\u203c\u2044-\u2049\u204e\u2212\u2215\u2216\u2223\u2225' +
  '\u226a\u226b\u2985\u2986\u2a74-\u2a76\u3001\u3002\u3008-\u300b\u3014\u3015\u3018-\u301b\u301d\u301e\ufe10-\ufe16\ufe19' +
  '\ufe30-\ufe32\ufe35-\ufe3a\ufe3d-\ufe40\ufe47\ufe48\ufe50-\ufe52\ufe54-\ufe66\ufe68-\ufe6b\uff01-\uff0f\uff1a-\uff20' +
  '\uff3b-\uff40\uff5b-\uff61\uff64\uffe9\uffeb';

/**
 * Body text fit for ts_headline: without markup, HTML-escaped, the marker and separator characters
 * (\x01 \x02 \x03) removed, then \x03 (a blank to the parser) on both sides of each
 * UNACCENT_PUNCTUATION character.
 */
const escapedText = (
  html: string,
) => `regexp_replace(replace(replace(replace(replace(replace(translate(inkwell_html_text(${html}), E'\\x01\\x02\\x03', ''),
      '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;'), '([${UNACCENT_PUNCTUATION}])', E'\\x03\\\\1\\x03', 'g')`;

/**
 * What the snippet marks: the query itself when the body satisfies it, so the window is the one
 * the query's words (a phrase, all of them) cover together. Otherwise (some of its words are only
 * in the title, summary or tags: 'zymurgy K' with K alone in the body) any of its words, so the
 * window is the one holding the most of them and every one found there is marked; with the whole
 * query no window covered it and the snippet was the body's first words, whatever they held. The
 * words are the query's positive lexemes (querytree drops negated ones; 'T' when none is left);
 * the subquery is computed once per statement.
 */
const ANY_QUERY_WORD = `(SELECT to_tsquery('simple', string_agg(quote_literal(word), ' | '))
    FROM unnest(tsvector_to_array(to_tsvector('simple', NULLIF(querytree(${QUERY}), 'T')))) word)`;
// OFFSET 0 keeps the subquery whole: pulled up, its expression would be computed once per reference.
const SNIPPET_QUERY = `CROSS JOIN LATERAL (SELECT CASE WHEN ts_filter(p.search_document, '{c}') @@ ${QUERY} THEN ${QUERY}
    ELSE COALESCE(${ANY_QUERY_WORD}, ${QUERY}) END AS query OFFSET 0) snippet_query`;
const headline = (text: string) =>
  `ts_headline('inkwell_search', ${text}, snippet_query.query, E'StartSel=\\x01, StopSel=\\x02, MaxWords=35, MinWords=20')`;
/**
 * Bodies are read this far first: ts_headline parses all it is given, and most matches come early.
 * Measured on 10,000 posts (the 10 hits of a common word): 4,000 characters 5.0 ms, 2,500 3.2 ms,
 * 2,000 2.7 ms, 1,500 2.7 ms (1 hit in 10 more falls back to the longer pass than at 2,000).
 */
const SNIPPET_WINDOW = 2000;
/** And never further than this (a body may hold 200,000 characters): a later match is not marked. */
const SNIPPET_LIMIT = 60000;

/**
 * The body text around the matches: the text without markup, HTML-escaped first, then
 * ts_headline marks matches with \x01 / \x02 (removed from the text beforehand), which become
 * <mark> and </mark>: the only markup a snippet can hold; the \x03 separators go. The first
 * SNIPPET_WINDOW characters of the HTML (a tag cut at the end dropped) are tried first; up to
 * SNIPPET_LIMIT only when they hold no match. Without any match (a title-only hit) it is the
 * body's first words. Runs of whitespace collapse in the short result.
 */
const SNIPPET = `btrim(regexp_replace(replace(replace(replace(
    CASE WHEN strpos(first_pass.text, E'\\x01') > 0 OR length(p.content_html) <= ${SNIPPET_WINDOW} THEN first_pass.text
         ELSE ${headline(escapedText(`regexp_replace(left(p.content_html, ${SNIPPET_LIMIT}), '<[^>]*$', '')`))} END,
  E'\\x01', '<mark>'), E'\\x02', '</mark>'), E'\\x03', ''), '\\s+', ' ', 'g'))`;
// OFFSET 0 keeps the subquery whole: pulled up, its expression would be computed once per reference.
const FIRST_PASS = `${SNIPPET_QUERY} CROSS JOIN LATERAL (SELECT ${headline(escapedText(`regexp_replace(left(p.content_html, ${SNIPPET_WINDOW}), '<[^>]*$', '')`))} AS text OFFSET 0) first_pass`;

export interface SearchFilter {
  tagSlug?: string;
  authorSlug?: string;
  /** YYYY-MM-DD, days in `timeZone`. */
  from?: string;
  to?: string;
  timeZone: string;
}

/**
 * The ids a query ranks (posts `p` matching `where`): the newest HEAD_CANDIDATES whose title,
 * summary or tags match (small vectors stored inline: the check reads no body) and the newest
 * BODY_CANDIDATES matching anywhere; no ranking happens here. Every match of a query matching
 * fewer posts than either limit is among them.
 */
const candidates = (
  where: string,
  limits: CandidateLimits,
) => `SELECT h.id FROM (SELECT p.id FROM posts p WHERE p.search_head @@ ${QUERY} AND ${where}
      ORDER BY p.published_at DESC, p.id DESC LIMIT ${limits.head}) h
   UNION SELECT b.id FROM (SELECT p.id FROM posts p WHERE p.search_document @@ ${QUERY} AND ${where}
      ORDER BY p.published_at DESC, p.id DESC LIMIT ${limits.body}) b`;

/**
 * The order of the matches past the ranked candidates: how well the head (title, summary, tags:
 * small, stored inline) matches, then recency. It reads no body: with a plain AND/OR query the
 * GIN bitmap is exact, so no document is detoasted to check or order them.
 */
const HEAD_SCORE = `ts_rank_cd(${WEIGHTS}, p.search_head, ${QUERY}, 33)`;

/**
 * Related posts are picked among the newest posts (highest ids, from the (tag_id, post_id) index)
 * of each of the post's tags, at most this many per tag, so a tag with thousands of posts costs
 * as little as a small one.
 */
const RELATED_CANDIDATES_PER_TAG = 300;

export type SearchHitRow = PostCardWithTags & { rank: number; snippet: string };

/** The filters as SQL over posts `p`, their values appended to `params`. */
function filterSql(filter: SearchFilter, params: unknown[]): string {
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const clauses: string[] = [];
  if (filter.tagSlug) {
    clauses.push(
      `EXISTS (SELECT 1 FROM post_tags ft JOIN tags t ON t.id = ft.tag_id WHERE ft.post_id = p.id AND t.slug = ${add(filter.tagSlug)} AND t.is_active = true)`,
    );
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

  private readonly limits: CandidateLimits;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() @Inject(SEARCH_CANDIDATE_LIMITS) limits?: CandidateLimits,
  ) {
    this.limits = limits ?? { head: HEAD_CANDIDATES, body: BODY_CANDIDATES };
  }

  /**
   * One page of hits and the exact number of matches, in one statement. The order: the
   * candidates, each ranked once (SCORE), best first; then every other match by HEAD_SCORE, then
   * recency (each key ends in the id: stable, no duplicates or gaps across pages). A page within
   * the candidates never sorts the others (LIMIT 0 runs nothing). The count reads the GIN index
   * and the matches' heap rows, never their documents (phrase queries excepted: they recheck).
   * Cards and snippets (ts_headline) only for the page's rows.
   */
  async search(query: string, filter: SearchFilter, limit: number, offset: number): Promise<{ rows: SearchHitRow[]; total: number }> {
    const params: unknown[] = [query];
    const where = `p.status = 'PUBLISHED'${filterSql(filter, params)}`;
    const n = params.length;
    const [limit$, offset$] = [`$${n + 1}`, `$${n + 2}`];
    const matches = `FROM posts p WHERE p.search_document @@ ${QUERY} AND ${where}`;
    const rows = (await this.withoutSequentialScans((manager) =>
      manager.query(
        `WITH ranked AS MATERIALIZED (
         SELECT p.id, p.published_at, ${SCORE} AS rank
           FROM posts p WHERE p.id = ANY(ARRAY(${candidates(where, this.limits)})) AND p.search_document @@ ${QUERY}
       ), ranked_page AS (
         SELECT id, rank, 0 AS part, row_number() OVER (ORDER BY rank DESC, published_at DESC, id DESC) AS position
           FROM (SELECT id, rank, published_at FROM ranked ORDER BY rank DESC, published_at DESC, id DESC LIMIT ${limit$} OFFSET ${offset$}) cut
       ), others_page AS (
         SELECT id, NULL::float8 AS rank, 1 AS part, row_number() OVER (ORDER BY head_rank DESC, published_at DESC, id DESC) AS position
           FROM (SELECT p.id, ${HEAD_SCORE} AS head_rank, p.published_at ${matches}
                    AND NOT EXISTS (SELECT 1 FROM ranked WHERE ranked.id = p.id)
                  ORDER BY head_rank DESC, p.published_at DESC, p.id DESC
                  LIMIT GREATEST(0, ${offset$} + ${limit$} - GREATEST(${offset$}, (SELECT count(*) FROM ranked)))
                 OFFSET GREATEST(0, ${offset$} - (SELECT count(*) FROM ranked))) cut
       ), page AS (
         -- At most a page by construction; the LIMIT tells the planner so (10 % of the matches
         -- otherwise), which keeps the joins below on primary keys instead of full scans.
         SELECT * FROM (SELECT * FROM ranked_page UNION ALL SELECT * FROM others_page) parts LIMIT ${limit$})
       SELECT ${CARD_COLUMNS}, COALESCE(page.rank, ${SCORE})::float8 AS rank, (SELECT count(*) ${matches})::int AS total, ${SNIPPET} AS snippet
         FROM page JOIN posts p ON p.id = page.id JOIN users u ON u.id = p.author_id ${FIRST_PASS}
        ORDER BY page.part, page.position`,
        [...params, limit, offset],
      ),
    )) as (SearchHitRow & { total: number })[];
    if (rows.length || offset === 0) return { rows, total: rows[0]?.total ?? 0 };
    // A page past the end: the count alone.
    const [count] = (await this.withoutSequentialScans((manager) => manager.query(`SELECT count(*)::int AS total ${matches}`, params))) as {
      total: number;
    }[];
    return { rows, total: count.total };
  }

  /**
   * For a word in most posts the planner picks a sequential scan to count or order the matches,
   * which tests `@@` on every document, detoasting each (0.4 s at 10,000 posts); the bitmap over
   * the GIN index reads none (5 ms). SET LOCAL: this statement only.
   */
  private withoutSequentialScans<T>(run: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SET LOCAL enable_seqscan = off');
      return run(manager);
    });
  }

  /**
   * The typo fallback: each word of `query` (unaccented, lower-cased; words of 3+ letters) replaced
   * by the most similar word (similarity ≥ 0.4) of the published titles most like it (for each
   * word, the 5 titles with the best word_similarity above pg_trgm's word_similarity_threshold,
   * 0.6 by default, through the trigram index over titles) or of an active tag name; a word
   * found there as it is stays. Undefined when nothing changes or pg_trgm is missing.
   */
  async correctedQuery(query: string): Promise<string | undefined> {
    if (!(await this.hasTrigrams())) return undefined;
    const rows = (await this.dataSource.query(
      `WITH words AS (
         SELECT w.word, w.n FROM regexp_split_to_table(lower(inkwell_unaccent($1)), '[^[:alnum:]]+') WITH ORDINALITY AS w(word, n) WHERE w.word <> ''
       ), titles AS (
         SELECT DISTINCT similar_title.text FROM words CROSS JOIN LATERAL (
           SELECT inkwell_unaccent(lower(p.title)) AS text FROM posts p
            WHERE p.status = 'PUBLISHED' AND length(words.word) >= 3 AND inkwell_unaccent(lower(p.title)) %> words.word
            ORDER BY words.word <<-> inkwell_unaccent(lower(p.title)) LIMIT 5) similar_title
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
   * Up to `limit` published posts sharing an active tag with the published post `slug` (among the
   * newest RELATED_CANDIDATES_PER_TAG of each tag), most similar titles first: the post's title words as an OR query, ranked against the others'
   * title, summary and tags (search_head: title words weigh most), then by shared tags and
   * recency. Undefined when `slug` is no published post.
   */
  async related(slug: string, limit: number): Promise<PostCardWithTags[] | undefined> {
    const [source] = (await this.dataSource.query(`SELECT id FROM posts WHERE slug = $1 AND status = 'PUBLISHED'`, [slug])) as {
      id: number;
    }[];
    if (!source) return undefined;
    // The posts sharing a tag are read by primary key (ANY(ARRAY(...))): a join let the planner scan every post.
    return this.dataSource.query(
      `WITH src AS MATERIALIZED (
         SELECT (SELECT to_tsquery('simple', string_agg(quote_literal(l), ' | ')) FROM unnest(tsvector_to_array(to_tsvector('inkwell_search', inkwell_unaccent(s.title)))) l) AS title_query
           FROM posts s WHERE s.id = $1
       ), shared AS MATERIALIZED (
         SELECT recent.post_id AS id, count(*) AS tags
           FROM post_tags st JOIN tags t ON t.id = st.tag_id AND t.is_active = true
           CROSS JOIN LATERAL (
             SELECT pt.post_id FROM post_tags pt WHERE pt.tag_id = st.tag_id AND pt.post_id <> st.post_id
              ORDER BY pt.post_id DESC LIMIT ${RELATED_CANDIDATES_PER_TAG}) recent
          WHERE st.post_id = $1
          GROUP BY recent.post_id
       ), best AS (
         SELECT p.id, COALESCE(ts_rank_cd(p.search_head, src.title_query), 0) AS similarity, shared.tags
           FROM posts p JOIN shared ON shared.id = p.id CROSS JOIN src
          WHERE p.id = ANY(ARRAY(SELECT id FROM shared)) AND p.status = 'PUBLISHED'
          ORDER BY similarity DESC, shared.tags DESC, p.published_at DESC, p.id DESC LIMIT $2
       )
       SELECT ${CARD_COLUMNS} FROM best JOIN posts p ON p.id = best.id JOIN users u ON u.id = p.author_id
        ORDER BY best.similarity DESC, best.tags DESC, p.published_at DESC, p.id DESC`,
      [source.id, limit],
    ) as Promise<PostCardWithTags[]>;
  }

  /** pg_trgm may be missing on an external database (docs/reading.md, Search): then there is no typo fallback. */
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

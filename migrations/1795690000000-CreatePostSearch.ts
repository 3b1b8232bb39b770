import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search over posts (docs/architecture.md 'Search', docs/decisions.md).
 *
 * - Extensions `unaccent` and `pg_trgm` (both contrib, trusted since PostgreSQL 13, shipped with
 *   the embedded server). Either may be missing on an external database: the migration warns and
 *   goes on. `inkwell_unaccent(text)` is then a `translate()` over the Latin letters with
 *   diacritics (Vietnamese included, đ → d), so accents stay optional; without pg_trgm the typo
 *   fallback ('Did you mean') is off and its index is not built.
 * - Text search configuration `inkwell_search`: a copy of `simple` (no stemming, no stop words:
 *   Vietnamese syllables such as 'an', 'the' or 'do' are words, not English stop words), with the
 *   `unaccent` dictionary in front of it when the extension exists, so ts_headline also marks the
 *   accented words of the original text.
 * - `posts.search_document`: title (weight A), summary and active tag names (B), body text (C:
 *   `content_html` without markup, common entities decoded), all unaccented, body first;
 *   `posts.search_head`: its title, summary and tag part alone (small, stored inline), which picks
 *   the candidates a query matching thousands of posts ranks (posts/search.repository.ts). Kept by
 *   triggers: on posts (title, summary, body), on post_tags (a post's tags change, a post or tag
 *   is deleted) and on tags (renamed, activated or deactivated); only a body change parses the
 *   HTML again. A generated column cannot read the tag names.
 * - A GIN index over the published posts' documents and a trigram GIN index over their unaccented,
 *   lower-cased titles (the typo fallback); one over the heads. Existing posts get their document here.
 */
export class CreatePostSearch1795690000000 implements MigrationInterface {
  name = 'CreatePostSearch1795690000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const extension of ['unaccent', 'pg_trgm']) {
      await queryRunner.query(`DO $$
        BEGIN
          CREATE EXTENSION IF NOT EXISTS ${extension};
        EXCEPTION WHEN OTHERS THEN
          RAISE WARNING '${extension} could not be created (%): search runs without it (README, Search)', SQLERRM;
        END $$`);
    }
    const [from, to] = latinFolding();
    // The portable folding first; replaced by unaccent() below where the extension exists.
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION inkwell_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
         AS $f$ SELECT translate($1, '${from}', '${to}') $f$`,
    );
    await queryRunner.query(`CREATE TEXT SEARCH CONFIGURATION inkwell_search (COPY = simple)`);
    await queryRunner.query(`DO $$
      DECLARE ext_schema text;
      BEGIN
        SELECT n.nspname INTO ext_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent';
        IF ext_schema IS NOT NULL THEN
          -- The two-argument form names its dictionary, so the function is truly immutable (usable in indexes).
          EXECUTE format('CREATE OR REPLACE FUNCTION inkwell_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$ SELECT %I.unaccent(%L::regdictionary, $1) $f$', ext_schema, ext_schema || '.unaccent');
          EXECUTE format('ALTER TEXT SEARCH CONFIGURATION inkwell_search ALTER MAPPING FOR hword, hword_part, word WITH %I.unaccent, simple', ext_schema);
        END IF;
      END $$`);
    // Body text: tags become spaces, the entities the sanitizer writes are decoded (&amp; last, so '&amp;lt;' stays '&lt;').
    await queryRunner.query(`CREATE FUNCTION inkwell_html_text(html text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
      SELECT replace(replace(replace(replace(replace(replace(replace(replace(
               regexp_replace(html, '<[^>]*>', ' ', 'g'),
               '&nbsp;', ' '), '&#160;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&#x27;', ''''), '&amp;', '&')
    $f$`);
    await queryRunner.query(`CREATE FUNCTION inkwell_post_head(title text, summary text, tag_names text) RETURNS tsvector
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
      SELECT setweight(to_tsvector('inkwell_search', inkwell_unaccent(coalesce(title, ''))), 'A')
          || setweight(to_tsvector('inkwell_search', inkwell_unaccent(coalesce(summary, '') || ' ' || coalesce(tag_names, ''))), 'B')
    $f$`);
    await queryRunner.query(`CREATE FUNCTION inkwell_post_body(html text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $f$
      SELECT setweight(to_tsvector('inkwell_search', inkwell_unaccent(inkwell_html_text(coalesce(html, '')))), 'C')
    $f$`);
    await queryRunner.query(`CREATE FUNCTION inkwell_post_tag_names(post integer) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $f$
      SELECT coalesce(string_agg(t.name, ' ' ORDER BY t.name), '') FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = post AND t.is_active
    $f$`);
    await queryRunner.query(`ALTER TABLE "posts" ADD "search_head" tsvector NOT NULL DEFAULT ''::tsvector`);
    await queryRunner.query(`ALTER TABLE "posts" ADD "search_document" tsvector NOT NULL DEFAULT ''::tsvector`);
    // The document is the body (C) first, then the head: || moves the head's positions past the
    // body's, so a new head (tags, title, summary) keeps the body's positions, and ts_filter(document,
    // '{c}') gives the body back without parsing the HTML again.
    await queryRunner.query(`CREATE FUNCTION inkwell_refresh_post_documents(ids integer[]) RETURNS void LANGUAGE sql AS $f$
      UPDATE posts p SET search_head = d.head, search_document = inkwell_post_body(p.content_html) || d.head
        FROM (SELECT x.id, inkwell_post_head(x.title, x.summary, inkwell_post_tag_names(x.id)) AS head FROM posts x WHERE x.id = ANY(ids)) d
       WHERE p.id = d.id
    $f$`);
    await queryRunner.query(`CREATE FUNCTION inkwell_refresh_post_heads(ids integer[]) RETURNS void LANGUAGE sql AS $f$
      UPDATE posts p SET search_head = d.head, search_document = ts_filter(p.search_document, '{c}') || d.head
        FROM (SELECT x.id, inkwell_post_head(x.title, x.summary, inkwell_post_tag_names(x.id)) AS head FROM posts x WHERE x.id = ANY(ids)) d
       WHERE p.id = d.id
    $f$`);

    await queryRunner.query(`CREATE FUNCTION inkwell_posts_search_document() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        IF TG_OP = 'UPDATE' AND NEW.title IS NOT DISTINCT FROM OLD.title AND NEW.summary IS NOT DISTINCT FROM OLD.summary
           AND NEW.content_html IS NOT DISTINCT FROM OLD.content_html THEN
          RETURN NEW;
        END IF;
        NEW.search_head := inkwell_post_head(NEW.title, NEW.summary, inkwell_post_tag_names(NEW.id));
        IF TG_OP = 'INSERT' OR NEW.content_html IS DISTINCT FROM OLD.content_html THEN
          NEW.search_document := inkwell_post_body(NEW.content_html) || NEW.search_head;
        ELSE
          NEW.search_document := ts_filter(OLD.search_document, '{c}') || NEW.search_head;
        END IF;
        RETURN NEW;
      END $f$`);
    await queryRunner.query(
      `CREATE TRIGGER "TRG_posts_search_document" BEFORE INSERT OR UPDATE OF title, summary, content_html ON "posts" FOR EACH ROW EXECUTE FUNCTION inkwell_posts_search_document()`,
    );
    // Statement-level: a save that replaces a post's tags refreshes its document once per statement, not once per tag.
    await queryRunner.query(`CREATE FUNCTION inkwell_post_tags_search_document() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          PERFORM inkwell_refresh_post_heads(ARRAY(SELECT DISTINCT post_id FROM changed_rows));
        ELSE
          PERFORM inkwell_refresh_post_heads(ARRAY(SELECT DISTINCT post_id FROM removed_rows));
        END IF;
        RETURN NULL;
      END $f$`);
    await queryRunner.query(
      `CREATE TRIGGER "TRG_post_tags_search_insert" AFTER INSERT ON "post_tags" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION inkwell_post_tags_search_document()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_post_tags_search_delete" AFTER DELETE ON "post_tags" REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION inkwell_post_tags_search_document()`,
    );
    await queryRunner.query(`CREATE FUNCTION inkwell_tags_search_document() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        PERFORM inkwell_refresh_post_heads(ARRAY(SELECT post_id FROM post_tags WHERE tag_id = NEW.id));
        RETURN NULL;
      END $f$`);
    await queryRunner.query(
      `CREATE TRIGGER "TRG_tags_search_document" AFTER UPDATE OF name, is_active ON "tags" FOR EACH ROW
         WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.is_active IS DISTINCT FROM NEW.is_active) EXECUTE FUNCTION inkwell_tags_search_document()`,
    );

    // Existing posts, in one pass (the posts trigger skips rows whose text did not change).
    await queryRunner.query(`SELECT inkwell_refresh_post_documents(ARRAY(SELECT id FROM posts))`);
    await queryRunner.query(
      `CREATE INDEX "IDX_posts_search_document" ON "posts" USING gin ("search_document") WHERE "status" = 'PUBLISHED'`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_posts_search_head" ON "posts" USING gin ("search_head") WHERE "status" = 'PUBLISHED'`);
    await queryRunner.query(`DO $$
      BEGIN
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          EXECUTE 'CREATE INDEX "IDX_posts_title_trgm" ON "posts" USING gin (inkwell_unaccent(lower("title")) gin_trgm_ops) WHERE "status" = ''PUBLISHED''';
        END IF;
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // The extensions stay: other objects may use them.
    await queryRunner.query(`DROP INDEX IF EXISTS "public"."IDX_posts_title_trgm"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_posts_search_head"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_posts_search_document"`);
    await queryRunner.query(`DROP TRIGGER "TRG_tags_search_document" ON "tags"`);
    await queryRunner.query(`DROP TRIGGER "TRG_post_tags_search_delete" ON "post_tags"`);
    await queryRunner.query(`DROP TRIGGER "TRG_post_tags_search_insert" ON "post_tags"`);
    await queryRunner.query(`DROP TRIGGER "TRG_posts_search_document" ON "posts"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "search_document"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "search_head"`);
    await queryRunner.query(`DROP FUNCTION inkwell_tags_search_document()`);
    await queryRunner.query(`DROP FUNCTION inkwell_post_tags_search_document()`);
    await queryRunner.query(`DROP FUNCTION inkwell_posts_search_document()`);
    await queryRunner.query(`DROP FUNCTION inkwell_refresh_post_heads(integer[])`);
    await queryRunner.query(`DROP FUNCTION inkwell_refresh_post_documents(integer[])`);
    await queryRunner.query(`DROP FUNCTION inkwell_post_tag_names(integer)`);
    await queryRunner.query(`DROP FUNCTION inkwell_post_body(text)`);
    await queryRunner.query(`DROP FUNCTION inkwell_post_head(text, text, text)`);
    await queryRunner.query(`DROP FUNCTION inkwell_html_text(text)`);
    await queryRunner.query(`DROP TEXT SEARCH CONFIGURATION inkwell_search`);
    await queryRunner.query(`DROP FUNCTION inkwell_unaccent(text)`);
  }
}

/**
 * The `translate()` pair that folds Latin letters with diacritics to their base letter: every
 * letter of Latin-1, Latin Extended-A/B and Latin Extended Additional (Vietnamese) whose canonical
 * decomposition starts with an ASCII letter, plus the letters without one (đ, ø, ł, ħ).
 */
export function latinFolding(): [string, string] {
  let from = 'đĐøØłŁħĦ';
  let to = 'dDoOlLhH';
  const ranges: [number, number][] = [
    [0x00c0, 0x024f],
    [0x1e00, 0x1eff],
  ];
  for (const [first, last] of ranges) {
    for (let code = first; code <= last; code++) {
      const letter = String.fromCodePoint(code);
      const base = letter.normalize('NFD')[0];
      if (base !== letter && /^[A-Za-z]$/.test(base) && !from.includes(letter)) {
        from += letter;
        to += base;
      }
    }
  }
  return [from, to];
}

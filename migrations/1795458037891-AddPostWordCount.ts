import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * posts.word_count: the words of the Markdown source, which the app now counts on save beside
 * reading_time (backend/src/posts/markdown.ts wordCountOf), so lists can show it without the
 * post bodies. Existing rows are counted here in SQL.
 *
 * wordCountOf counts runs of characters that are not JavaScript whitespace (`\s`): the ECMAScript
 * WhiteSpace and LineTerminator characters, listed below one by one (not `[[:space:]]`, whose
 * meaning depends on the database's locale). The SQL counts the same runs, so a backfilled count
 * equals what a save would store, character for character (the content cannot hold NUL, and
 * every whitespace character is in the BMP, so JavaScript's UTF-16 and PostgreSQL's code points
 * agree). reading_time is left as stored: it was already computed from the same count.
 * `updated_at` is left alone: the author changed nothing.
 */
export const NOT_SPACE_RUN = '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+';

/** The number of words of the text expression `column`, as wordCountOf counts them. */
export const wordCountSql = (column: string): string => `(SELECT count(*) FROM regexp_matches(${column}, '${NOT_SPACE_RUN}', 'g'))::int`;

export class AddPostWordCount1795458037891 implements MigrationInterface {
  name = 'AddPostWordCount1795458037891';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "posts" ADD "word_count" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`UPDATE "posts" SET "word_count" = ${wordCountSql('"content"')}`);
    await queryRunner.query(`ALTER TABLE "posts" ADD CONSTRAINT "CHK_posts_word_count" CHECK ("word_count" >= 0)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "posts" DROP CONSTRAINT "CHK_posts_word_count"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "word_count"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reader dashboard and my-likes read a reader's totals without counting rows.
 * - reader_like_counts: each reader's likes of PUBLISHED posts, kept by the like writes and the post
 *   lifecycle (ReaderLikeCount); filled here from the rows.
 * - IDX_comments_user_counted: a reader's counted comments (not deleted, VISIBLE) with their posts,
 *   so the dashboard's comment total and commented posts are an index-only scan of those entries.
 * - IDX_comments_post_root_shown: a post's top-level comments that are not HELD, so the comment
 *   list's total is an index-only count.
 */
export class AddReaderLikeCounts1796026100000 implements MigrationInterface {
  name = 'AddReaderLikeCounts1796026100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "reader_like_counts" ("user_id" integer NOT NULL, "published_likes" integer NOT NULL DEFAULT 0, ` +
        `CONSTRAINT "CHK_reader_like_counts_published_likes" CHECK ("published_likes" >= 0), CONSTRAINT "PK_reader_like_counts" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "reader_like_counts" ADD CONSTRAINT "FK_reader_like_counts_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `INSERT INTO "reader_like_counts" ("user_id", "published_likes")
       SELECT l.user_id, count(*)::int FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED' GROUP BY l.user_id`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_comments_user_counted" ON "comments" ("user_id", "post_id") WHERE "deleted_at" IS NULL AND "moderation" = 'VISIBLE'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_comments_post_root_shown" ON "comments" ("post_id") WHERE "parent_id" IS NULL AND "moderation" <> 'HELD'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_post_root_shown"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_user_counted"`);
    await queryRunner.query(`ALTER TABLE "reader_like_counts" DROP CONSTRAINT "FK_reader_like_counts_user"`);
    await queryRunner.query(`DROP TABLE "reader_like_counts"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePostsTagsReviews1795336563452 implements MigrationInterface {
  name = 'CreatePostsTagsReviews1795336563452';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tags" ("id" SERIAL NOT NULL, "name" character varying(100) NOT NULL, "slug" character varying(100) NOT NULL, "description" character varying(500), "color" character varying(32), "icon" character varying(64), "is_active" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_tags" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_tags_name" ON "tags"  ("name") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_tags_slug" ON "tags"  ("slug") `);
    await queryRunner.query(`CREATE INDEX "IDX_tags_active_name" ON "tags"  ("is_active", "name") `);
    await queryRunner.query(
      `CREATE TABLE "posts" ("id" SERIAL NOT NULL, "title" character varying(200) NOT NULL, "slug" character varying(200) NOT NULL, "summary" character varying(1000), "content" text NOT NULL, "content_html" text NOT NULL, "status" character varying(20) NOT NULL DEFAULT 'DRAFT', "thumbnail" character varying(500), "is_featured" boolean NOT NULL DEFAULT false, "author_id" integer NOT NULL, "published_at" TIMESTAMP WITH TIME ZONE, "view_count" integer NOT NULL DEFAULT '0', "like_count" integer NOT NULL DEFAULT '0', "comment_count" integer NOT NULL DEFAULT '0', "reading_time" integer NOT NULL DEFAULT '1', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_posts_counts" CHECK ("view_count" >= 0 AND "like_count" >= 0 AND "comment_count" >= 0 AND "reading_time" >= 1), CONSTRAINT "CHK_posts_status" CHECK ("status" IN ('DRAFT', 'PENDING_REVIEW', 'PUBLISHED', 'REJECTED', 'ARCHIVED', 'PRIVATE')), CONSTRAINT "PK_posts" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_posts_slug" ON "posts"  ("slug") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_posts_featured_published" ON "posts"  ("published_at", "id") WHERE "is_featured" = true AND "status" = 'PUBLISHED'`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_posts_created" ON "posts"  ("created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_posts_author_status_created" ON "posts"  ("author_id", "status", "created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_posts_status_published" ON "posts"  ("status", "published_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "post_tags" ("post_id" integer NOT NULL, "tag_id" integer NOT NULL, CONSTRAINT "PK_post_tags" PRIMARY KEY ("post_id", "tag_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_post_tags_tag_post" ON "post_tags"  ("tag_id", "post_id") `);
    await queryRunner.query(
      `CREATE TABLE "post_reviews" ("id" SERIAL NOT NULL, "post_id" integer NOT NULL, "reviewer_id" integer, "status" character varying(16) NOT NULL, "review_note" character varying(2000), "admin_notes" character varying(2000), "rejection_reason" character varying(2000), "priority" character varying(16) NOT NULL DEFAULT 'NORMAL', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_post_reviews_status" CHECK ("status" IN ('APPROVED', 'REJECTED')), CONSTRAINT "PK_post_reviews" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_post_reviews_reviewer" ON "post_reviews"  ("reviewer_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_post_reviews_post_created" ON "post_reviews"  ("post_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "posts" ADD CONSTRAINT "FK_posts_author" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "post_tags" ADD CONSTRAINT "FK_post_tags_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "post_tags" ADD CONSTRAINT "FK_post_tags_tag" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "post_reviews" ADD CONSTRAINT "FK_post_reviews_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "post_reviews" ADD CONSTRAINT "FK_post_reviews_reviewer" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "post_reviews" DROP CONSTRAINT "FK_post_reviews_reviewer"`);
    await queryRunner.query(`ALTER TABLE "post_reviews" DROP CONSTRAINT "FK_post_reviews_post"`);
    await queryRunner.query(`ALTER TABLE "post_tags" DROP CONSTRAINT "FK_post_tags_tag"`);
    await queryRunner.query(`ALTER TABLE "post_tags" DROP CONSTRAINT "FK_post_tags_post"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP CONSTRAINT "FK_posts_author"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_post_reviews_post_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_post_reviews_reviewer"`);
    await queryRunner.query(`DROP TABLE "post_reviews"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_post_tags_tag_post"`);
    await queryRunner.query(`DROP TABLE "post_tags"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_posts_status_published"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_posts_author_status_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_posts_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_posts_featured_published"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_posts_slug"`);
    await queryRunner.query(`DROP TABLE "posts"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_tags_active_name"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_tags_slug"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_tags_name"`);
    await queryRunner.query(`DROP TABLE "tags"`);
  }
}

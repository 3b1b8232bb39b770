import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revisions, versions and SEO fields:
 * - posts.version: the edit a save was based on is checked against it (409 on a stale one);
 *   1 on create, +1 on every save, restore and status change.
 * - posts' SEO fields (meta title/description, canonical URL override, noindex, social image).
 * - post_revisions: what every save kept (merged within 5 minutes by one editor, pinned at
 *   submission/approval/rejection), newest first per post. Backfill: one SAVE revision per existing
 *   post, its author as editor, at its last update.
 */
export class AddPostRevisions1795710000000 implements MigrationInterface {
  name = 'AddPostRevisions1795710000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "posts" ADD "version" integer NOT NULL DEFAULT 1`);
    await queryRunner.query(`ALTER TABLE "posts" ADD "meta_title" character varying(300)`);
    await queryRunner.query(`ALTER TABLE "posts" ADD "meta_description" character varying(500)`);
    await queryRunner.query(`ALTER TABLE "posts" ADD "canonical_url" character varying(500)`);
    await queryRunner.query(`ALTER TABLE "posts" ADD "noindex" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "posts" ADD "social_image" character varying(500)`);
    await queryRunner.query(
      `CREATE TABLE "post_revisions" ("id" SERIAL NOT NULL, "post_id" integer NOT NULL, "editor_id" integer, "kind" character varying(16) NOT NULL DEFAULT 'SAVE', ` +
        `"pinned" boolean NOT NULL DEFAULT false, "title" character varying(200) NOT NULL, "summary" character varying(1000), "content" text NOT NULL, "word_count" integer NOT NULL DEFAULT 0, ` +
        `"tag_slugs" jsonb NOT NULL DEFAULT '[]', "thumbnail" character varying(500), "seo" jsonb NOT NULL, ` +
        `"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), ` +
        `CONSTRAINT "CHK_post_revisions_kind" CHECK ("kind" IN ('SAVE', 'SUBMITTED', 'APPROVED', 'REJECTED', 'RESTORED')), ` +
        `CONSTRAINT "PK_post_revisions" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_post_revisions_post_created" ON "post_revisions" ("post_id", "created_at" DESC, "id" DESC) `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_post_revisions_editor" ON "post_revisions" ("editor_id") `);
    await queryRunner.query(
      `ALTER TABLE "post_revisions" ADD CONSTRAINT "FK_post_revisions_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "post_revisions" ADD CONSTRAINT "FK_post_revisions_editor" FOREIGN KEY ("editor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`
      INSERT INTO post_revisions (post_id, editor_id, kind, pinned, title, summary, content, word_count, tag_slugs, thumbnail, seo, created_at, updated_at)
      SELECT p.id, p.author_id, 'SAVE', false, p.title, p.summary, p.content, p.word_count,
             COALESCE((SELECT jsonb_agg(t.slug ORDER BY t.slug) FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id), '[]'::jsonb),
             p.thumbnail,
             jsonb_build_object('metaTitle', NULL, 'metaDescription', NULL, 'canonicalUrl', NULL, 'noindex', false, 'socialImage', NULL),
             p.updated_at, p.updated_at
        FROM posts p`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "post_revisions"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "social_image"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "noindex"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "canonical_url"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "meta_description"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "meta_title"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "version"`);
  }
}

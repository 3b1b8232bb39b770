import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shareable preview links: one row per link; the token itself is never stored (it is
 * an HMAC over the row's id and expiry), so the row is what revocation and expiry are checked
 * against. A post's live links are listed by (post_id, created_at).
 */
export class CreatePostPreviewLinks1795900000000 implements MigrationInterface {
  name = 'CreatePostPreviewLinks1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "post_preview_links" ("id" SERIAL NOT NULL, "post_id" integer NOT NULL, "created_by" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_post_preview_links" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_post_preview_links_post" ON "post_preview_links" ("post_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "post_preview_links" ADD CONSTRAINT "FK_post_preview_links_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "post_preview_links" ADD CONSTRAINT "FK_post_preview_links_creator" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "post_preview_links" DROP CONSTRAINT "FK_post_preview_links_creator"`);
    await queryRunner.query(`ALTER TABLE "post_preview_links" DROP CONSTRAINT "FK_post_preview_links_post"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_post_preview_links_post"`);
    await queryRunner.query(`DROP TABLE "post_preview_links"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateComments1795447435829 implements MigrationInterface {
  name = 'CreateComments1795447435829';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "comments" ("id" SERIAL NOT NULL, "post_id" integer NOT NULL, "user_id" integer, "parent_id" integer, "content" character varying(200) NOT NULL, "level" smallint NOT NULL DEFAULT '0', "reply_count" integer NOT NULL DEFAULT '0', "deleted_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_comments_reply_count" CHECK ("reply_count" >= 0), CONSTRAINT "CHK_comments_parent_level" CHECK (("parent_id" IS NULL) = ("level" = 0)), CONSTRAINT "CHK_comments_level" CHECK ("level" >= 0 AND "level" <= 3), CONSTRAINT "PK_comments" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_comments_live_created" ON "comments"  ("created_at", "id") WHERE "deleted_at" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_comments_user_created" ON "comments"  ("user_id", "created_at", "id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_comments_parent_created" ON "comments"  ("parent_id", "created_at", "id") WHERE "parent_id" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_comments_post_created" ON "comments"  ("post_id", "created_at", "id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_comments_post_root_created" ON "comments"  ("post_id", "created_at", "id") WHERE "parent_id" IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_comments_content_fts" ON "comments" USING GIN (to_tsvector('simple', "content"))`);
    await queryRunner.query(
      `ALTER TABLE "comments" ADD CONSTRAINT "FK_comments_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "comments" ADD CONSTRAINT "FK_comments_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "comments" ADD CONSTRAINT "FK_comments_parent" FOREIGN KEY ("parent_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "comments" DROP CONSTRAINT "FK_comments_parent"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP CONSTRAINT "FK_comments_user"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP CONSTRAINT "FK_comments_post"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_content_fts"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_post_root_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_post_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_parent_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_user_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_live_created"`);
    await queryRunner.query(`DROP TABLE "comments"`);
  }
}

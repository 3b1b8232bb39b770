import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The slugs posts and tags had before a change, one table per kind: `/blog/{old}` and
 * `/blog/tag/{old}` answer 301 to the current address. A slug is in history at most once (the
 * latest owner wins) and leaves it when a post or tag takes it as its current slug; the rows go
 * with their post or tag.
 */
export class CreateSlugHistory1795460000000 implements MigrationInterface {
  name = 'CreateSlugHistory1795460000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "post_slug_history" ("slug" character varying(200) NOT NULL, "post_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_post_slug_history" PRIMARY KEY ("slug"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_post_slug_history_post" ON "post_slug_history" ("post_id") `);
    await queryRunner.query(
      `ALTER TABLE "post_slug_history" ADD CONSTRAINT "FK_post_slug_history_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "tag_slug_history" ("slug" character varying(100) NOT NULL, "tag_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_tag_slug_history" PRIMARY KEY ("slug"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_tag_slug_history_tag" ON "tag_slug_history" ("tag_id") `);
    await queryRunner.query(
      `ALTER TABLE "tag_slug_history" ADD CONSTRAINT "FK_tag_slug_history_tag" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "tag_slug_history"`);
    await queryRunner.query(`DROP TABLE "post_slug_history"`);
  }
}

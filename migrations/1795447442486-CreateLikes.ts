import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateLikes1795447442486 implements MigrationInterface {
  name = 'CreateLikes1795447442486';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "likes" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "post_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_likes" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_likes_created" ON "likes"  ("created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_likes_post" ON "likes"  ("post_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_likes_user_created" ON "likes"  ("user_id", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_likes_user_post" ON "likes"  ("user_id", "post_id") `);
    await queryRunner.query(
      `ALTER TABLE "likes" ADD CONSTRAINT "FK_likes_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "likes" ADD CONSTRAINT "FK_likes_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "likes" DROP CONSTRAINT "FK_likes_post"`);
    await queryRunner.query(`ALTER TABLE "likes" DROP CONSTRAINT "FK_likes_user"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_likes_user_post"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_likes_user_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_likes_post"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_likes_created"`);
    await queryRunner.query(`DROP TABLE "likes"`);
  }
}

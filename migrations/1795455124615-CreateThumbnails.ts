import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateThumbnails1795455124615 implements MigrationInterface {
  name = 'CreateThumbnails1795455124615';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "thumbnails" ("id" SERIAL NOT NULL, "name" character varying(64) NOT NULL, "owner_id" integer, "width" integer NOT NULL, "height" integer NOT NULL, "variant_widths" integer array NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_thumbnails" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_thumbnails_owner" ON "thumbnails"  ("owner_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_thumbnails_created" ON "thumbnails"  ("created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_thumbnails_name" ON "thumbnails"  ("name") `);
    await queryRunner.query(
      `ALTER TABLE "thumbnails" ADD CONSTRAINT "FK_thumbnails_owner" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "thumbnails" DROP CONSTRAINT "FK_thumbnails_owner"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_thumbnails_name"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_thumbnails_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_thumbnails_owner"`);
    await queryRunner.query(`DROP TABLE "thumbnails"`);
  }
}

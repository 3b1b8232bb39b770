import { MigrationInterface, QueryRunner } from 'typeorm';

/** Site-wide settings chosen by admins (a row per key; a missing row means the code's default). */
export class CreateSiteSettings1796030000000 implements MigrationInterface {
  name = 'CreateSiteSettings1796030000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "site_settings" ("key" character varying(64) NOT NULL, "value" jsonb NOT NULL, "updated_by" integer, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_site_settings" PRIMARY KEY ("key"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "site_settings"`);
  }
}

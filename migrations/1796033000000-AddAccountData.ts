import { MigrationInterface, QueryRunner } from 'typeorm';

/** Pending deletions and the placeholder accounts on users, and the data exports. */
export class AddAccountData1796033000000 implements MigrationInterface {
  name = 'AddAccountData1796033000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "account_exports" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "status" character varying(8) NOT NULL DEFAULT 'QUEUED', "progress" smallint NOT NULL DEFAULT '0', "token" character varying(64), "file_name" character varying(80), "size_bytes" bigint, "expires_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_account_exports_progress" CHECK ("progress" >= 0 AND "progress" <= 100), CONSTRAINT "CHK_account_exports_status" CHECK ("status" IN ('QUEUED', 'RUNNING', 'READY', 'FAILED', 'EXPIRED')), CONSTRAINT "PK_account_exports" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_account_exports_token" ON "account_exports"  ("token") WHERE "token" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_account_exports_user_created" ON "account_exports"  ("user_id", "created_at") `);
    await queryRunner.query(`ALTER TABLE "users" ADD "deletion_due_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "users" ADD "deletion_via" character varying(8)`);
    await queryRunner.query(`ALTER TABLE "users" ADD "placeholder" character varying(20)`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_users_placeholder" ON "users"  ("placeholder") WHERE "placeholder" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "users" ADD CONSTRAINT "CHK_users_deletion_via" CHECK ("deletion_via" IN ('self', 'admin'))`);
    await queryRunner.query(
      `ALTER TABLE "account_exports" ADD CONSTRAINT "FK_account_exports_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "account_exports" DROP CONSTRAINT "FK_account_exports_user"`);
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "CHK_users_deletion_via"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_users_placeholder"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "placeholder"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "deletion_via"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "deletion_due_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_account_exports_user_created"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_account_exports_token"`);
    await queryRunner.query(`DROP TABLE "account_exports"`);
  }
}

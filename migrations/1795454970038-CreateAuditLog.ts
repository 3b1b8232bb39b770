import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAuditLog1795454970038 implements MigrationInterface {
  name = 'CreateAuditLog1795454970038';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_log" ("id" SERIAL NOT NULL, "type" character varying(40) NOT NULL, "actor_id" integer, "target_type" character varying(16) NOT NULL, "target_id" integer NOT NULL, "title" character varying(200) NOT NULL, "description" character varying(1000) NOT NULL DEFAULT '', "link" character varying(500), "details" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_audit_log_target_type" CHECK ("target_type" IN ('user', 'post', 'tag', 'comment')), CONSTRAINT "PK_audit_log" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_created" ON "audit_log" ("created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_target" ON "audit_log" ("target_type", "target_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_actor" ON "audit_log" ("actor_id", "created_at", "id") `);
    await queryRunner.query(
      `ALTER TABLE "audit_log" ADD CONSTRAINT "FK_audit_log_actor" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_log" DROP CONSTRAINT "FK_audit_log_actor"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_actor"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_target"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_created"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
  }
}

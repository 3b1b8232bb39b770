import { MigrationInterface, QueryRunner } from 'typeorm';

/** Changes to webhooks are audit-logged, with the webhook as their target. */
export class AuditWebhooks1796037000000 implements MigrationInterface {
  name = 'AuditWebhooks1796037000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_log" DROP CONSTRAINT "CHK_audit_log_target_type"`);
    await queryRunner.query(
      `ALTER TABLE "audit_log" ADD CONSTRAINT "CHK_audit_log_target_type" CHECK ("target_type" IN ('user', 'post', 'tag', 'comment', 'webhook'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "audit_log" WHERE "target_type" = 'webhook'`);
    await queryRunner.query(`ALTER TABLE "audit_log" DROP CONSTRAINT "CHK_audit_log_target_type"`);
    await queryRunner.query(
      `ALTER TABLE "audit_log" ADD CONSTRAINT "CHK_audit_log_target_type" CHECK ("target_type" IN ('user', 'post', 'tag', 'comment'))`,
    );
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Comment moderation: a moderation state on comments (VISIBLE, HIDDEN with reason, by
 * whom and when, HELD) and an open-report count; readers' reports (one per comment per reader);
 * muted users. Existing comments are all VISIBLE, so every counter stays exact.
 */
export class AddCommentModeration1795695450622 implements MigrationInterface {
  name = 'AddCommentModeration1795695450622';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "comment_reports" ("id" SERIAL NOT NULL, "comment_id" integer NOT NULL, "reporter_id" integer NOT NULL, "reason" character varying(20) NOT NULL, "details" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "dismissed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_comment_reports" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_comment_reports_reporter_created" ON "comment_reports"  ("reporter_id", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_comment_reports_reporter" ON "comment_reports"  ("comment_id", "reporter_id") `);
    await queryRunner.query(
      `CREATE TABLE "user_mutes" ("user_id" integer NOT NULL, "muted_until" TIMESTAMP WITH TIME ZONE, "reason" character varying(500) NOT NULL, "muted_by" integer, "muted_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_user_mutes" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(`ALTER TABLE "comments" ADD "moderation" character varying(10) NOT NULL DEFAULT 'VISIBLE'`);
    await queryRunner.query(`ALTER TABLE "comments" ADD "hidden_reason" character varying(500)`);
    await queryRunner.query(`ALTER TABLE "comments" ADD "hidden_by" integer`);
    await queryRunner.query(`ALTER TABLE "comments" ADD "hidden_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "comments" ADD "report_count" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(
      `CREATE INDEX "IDX_comments_moderated_created" ON "comments"  ("moderation", "created_at", "id") WHERE "moderation" <> 'VISIBLE'`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_comments_reported" ON "comments"  ("report_count", "id") WHERE "report_count" > 0`);
    await queryRunner.query(
      `ALTER TABLE "comments" ADD CONSTRAINT "CHK_comments_moderation" CHECK ("moderation" IN ('VISIBLE', 'HIDDEN', 'HELD'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "comments" ADD CONSTRAINT "FK_comments_hidden_by" FOREIGN KEY ("hidden_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "comment_reports" ADD CONSTRAINT "FK_comment_reports_comment" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "comment_reports" ADD CONSTRAINT "FK_comment_reports_reporter" FOREIGN KEY ("reporter_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_mutes" ADD CONSTRAINT "FK_user_mutes_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_mutes" ADD CONSTRAINT "FK_user_mutes_muted_by" FOREIGN KEY ("muted_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user_mutes" DROP CONSTRAINT "FK_user_mutes_muted_by"`);
    await queryRunner.query(`ALTER TABLE "user_mutes" DROP CONSTRAINT "FK_user_mutes_user"`);
    await queryRunner.query(`ALTER TABLE "comment_reports" DROP CONSTRAINT "FK_comment_reports_reporter"`);
    await queryRunner.query(`ALTER TABLE "comment_reports" DROP CONSTRAINT "FK_comment_reports_comment"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP CONSTRAINT "FK_comments_hidden_by"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP CONSTRAINT "CHK_comments_moderation"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_reported"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comments_moderated_created"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP COLUMN "report_count"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP COLUMN "hidden_at"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP COLUMN "hidden_by"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP COLUMN "hidden_reason"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP COLUMN "moderation"`);
    await queryRunner.query(`DROP TABLE "user_mutes"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_comment_reports_reporter"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_comment_reports_reporter_created"`);
    await queryRunner.query(`DROP TABLE "comment_reports"`);
  }
}

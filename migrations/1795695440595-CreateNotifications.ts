import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications: the in-app rows, per-type preferences, per-user mail settings (the
 * digest), and the e-mail deliveries the job queue sends. The list index is written by hand
 * (newest first within unread, then read: one index scan); TypeORM cannot describe DESC columns.
 * pg-boss keeps its own tables in the schema `pgboss`, created by pg-boss itself at start.
 */
export class CreateNotifications1795695440595 implements MigrationInterface {
  name = 'CreateNotifications1795695440595';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "notifications" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "type" character varying(32) NOT NULL, "actor_id" integer, "post_id" integer, "comment_id" integer, "reason" character varying(1000), "read" boolean NOT NULL DEFAULT false, "in_app" boolean NOT NULL DEFAULT true, "digest_pending" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_notifications" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_notifications_digest" ON "notifications"  ("user_id", "id") WHERE "digest_pending"`);
    await queryRunner.query(`CREATE INDEX "IDX_notifications_user_unread" ON "notifications"  ("user_id") WHERE "in_app" AND NOT "read"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_notifications_user_list" ON "notifications"  ("user_id", "read", "created_at" DESC, "id" DESC) WHERE "in_app"`,
    );
    await queryRunner.query(
      `CREATE TABLE "notification_deliveries" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "notification_id" integer, "notification_ids" integer array NOT NULL DEFAULT '{}', "status" character varying(16) NOT NULL DEFAULT 'PENDING', "attempts" integer NOT NULL DEFAULT '0', "last_error" character varying(1000), "sent_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_notification_deliveries_status" CHECK ("status" IN ('PENDING', 'SENT', 'FAILED', 'SKIPPED')), CONSTRAINT "PK_notification_deliveries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_notification_deliveries_user" ON "notification_deliveries"  ("user_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_notification_deliveries_notification" ON "notification_deliveries"  ("notification_id") `);
    await queryRunner.query(
      `CREATE TABLE "notification_preferences" ("user_id" integer NOT NULL, "type" character varying(32) NOT NULL, "in_app" boolean NOT NULL, "email" boolean NOT NULL, CONSTRAINT "PK_notification_preferences" PRIMARY KEY ("user_id", "type"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "notification_settings" ("user_id" integer NOT NULL, "digest" boolean NOT NULL DEFAULT false, "last_digest_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_notification_settings" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifications" ADD CONSTRAINT "FK_notifications_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifications" ADD CONSTRAINT "FK_notifications_actor" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifications" ADD CONSTRAINT "FK_notifications_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifications" ADD CONSTRAINT "FK_notifications_comment" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" ADD CONSTRAINT "FK_notification_deliveries_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" ADD CONSTRAINT "FK_notification_deliveries_notification" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_preferences" ADD CONSTRAINT "FK_notification_preferences_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_settings" ADD CONSTRAINT "FK_notification_settings_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_settings" DROP CONSTRAINT "FK_notification_settings_user"`);
    await queryRunner.query(`ALTER TABLE "notification_preferences" DROP CONSTRAINT "FK_notification_preferences_user"`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" DROP CONSTRAINT "FK_notification_deliveries_notification"`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" DROP CONSTRAINT "FK_notification_deliveries_user"`);
    await queryRunner.query(`ALTER TABLE "notifications" DROP CONSTRAINT "FK_notifications_comment"`);
    await queryRunner.query(`ALTER TABLE "notifications" DROP CONSTRAINT "FK_notifications_post"`);
    await queryRunner.query(`ALTER TABLE "notifications" DROP CONSTRAINT "FK_notifications_actor"`);
    await queryRunner.query(`ALTER TABLE "notifications" DROP CONSTRAINT "FK_notifications_user"`);
    await queryRunner.query(`DROP TABLE "notification_settings"`);
    await queryRunner.query(`DROP TABLE "notification_preferences"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notification_deliveries_notification"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notification_deliveries_user"`);
    await queryRunner.query(`DROP TABLE "notification_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notifications_user_list"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notifications_user_unread"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notifications_digest"`);
    await queryRunner.query(`DROP TABLE "notifications"`);
  }
}

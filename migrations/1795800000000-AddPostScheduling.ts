import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scheduled publishing: an approved post waiting for its time stays PENDING_REVIEW with
 * `scheduled_at` set (the spec's statuses are untouched); `requested_publish_at` is the time its
 * author asked for on submit; `scheduled_by` the admin who set the time. The scheduler's sweep
 * reads the due posts through the partial index, which holds only the waiting ones.
 * `notifications.publish_at`: the time an approval notification names ('scheduled for …').
 */
export class AddPostScheduling1795800000000 implements MigrationInterface {
  name = 'AddPostScheduling1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "posts" ADD "scheduled_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "posts" ADD "requested_publish_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "posts" ADD "scheduled_by" integer`);
    await queryRunner.query(
      `ALTER TABLE "posts" ADD CONSTRAINT "FK_posts_scheduled_by" FOREIGN KEY ("scheduled_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_posts_scheduled_due" ON "posts" ("scheduled_at") WHERE "status" = 'PENDING_REVIEW' AND "scheduled_at" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "notifications" ADD "publish_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notifications" DROP COLUMN "publish_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_posts_scheduled_due"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP CONSTRAINT "FK_posts_scheduled_by"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "scheduled_by"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "requested_publish_at"`);
    await queryRunner.query(`ALTER TABLE "posts" DROP COLUMN "scheduled_at"`);
  }
}

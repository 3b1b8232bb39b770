import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAttemptCounters1795444543349 implements MigrationInterface {
  name = 'CreateAttemptCounters1795444543349';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "attempt_counters" ("key_hash" character(64) NOT NULL, "count" integer NOT NULL, "window_ends_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_attempt_counters" PRIMARY KEY ("key_hash"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_attempt_counters_window_ends_at" ON "attempt_counters"  ("window_ends_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_attempt_counters_window_ends_at"`);
    await queryRunner.query(`DROP TABLE "attempt_counters"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `inkwell_meta`: facts about the data itself, such as the Inkwell version that last started on it
 * (an older version refuses to start on data a newer one wrote). `backup_runs`: each scheduled
 * or command-line backup's time, size and result (shown on /admin/settings).
 */
export class CreateInkwellMetaAndBackupRuns1796070000000 implements MigrationInterface {
  name = 'CreateInkwellMetaAndBackupRuns1796070000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "inkwell_meta" ("key" character varying(64) NOT NULL, "value" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_inkwell_meta" PRIMARY KEY ("key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "backup_runs" ("id" SERIAL NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, "trigger" character varying(16) NOT NULL, "ok" boolean, "file" character varying(500), "bytes" bigint, "error" text, CONSTRAINT "PK_backup_runs" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_backup_runs_started" ON "backup_runs" ("started_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "backup_runs"`);
    await queryRunner.query(`DROP TABLE "inkwell_meta"`);
  }
}

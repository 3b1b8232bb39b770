import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddRefreshSuccessor1795444400316 implements MigrationInterface {
  name = 'AddRefreshSuccessor1795444400316';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "refresh_sessions" ADD "successor_token" character varying(255)`);
    await queryRunner.query(
      `CREATE INDEX "IDX_refresh_sessions_successor_rotated" ON "refresh_sessions"  ("rotated_at") WHERE "successor_token" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_refresh_sessions_successor_rotated"`);
    await queryRunner.query(`ALTER TABLE "refresh_sessions" DROP COLUMN "successor_token"`);
  }
}

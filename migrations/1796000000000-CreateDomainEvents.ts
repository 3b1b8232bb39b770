import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stored domain event stream (docs/events.md): one row per event, written in the transaction
 * of its change. Read in id order (webhooks, exports) and by subject (a post's history).
 */
export class CreateDomainEvents1796000000000 implements MigrationInterface {
  name = 'CreateDomainEvents1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "domain_events" ("id" BIGSERIAL NOT NULL, "name" character varying(60) NOT NULL, "subject_type" character varying(20) NOT NULL, "subject_id" integer NOT NULL, "actor_id" integer, "data" jsonb NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_domain_events" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_domain_events_subject" ON "domain_events" ("subject_type", "subject_id", "id") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_domain_events_subject"`);
    await queryRunner.query(`DROP TABLE "domain_events"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (README 'Webhooks'): the receivers admins configure, one delivery per event and
 * webhook (written with its job in the change's transaction), and the attempts of the delivery log.
 */
export class CreateWebhooks1796035000000 implements MigrationInterface {
  name = 'CreateWebhooks1796035000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhooks" ("id" SERIAL NOT NULL, "url" character varying(2000) NOT NULL, "events" character varying(40) array NOT NULL, "secret_sealed" character varying(300) NOT NULL, "active" boolean NOT NULL DEFAULT true, "include_emails" boolean NOT NULL DEFAULT false, "failing_since" TIMESTAMP WITH TIME ZONE, "disabled_reason" character varying(500), "created_by" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_webhooks" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" SERIAL NOT NULL, "delivery_key" uuid NOT NULL, "webhook_id" integer NOT NULL, "event" character varying(40) NOT NULL, "body" text NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'PENDING', "attempts" integer NOT NULL DEFAULT '0', "generation" integer NOT NULL DEFAULT '0', "retrying_since" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "next_attempt_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_webhook_deliveries_status" CHECK ("status" IN ('PENDING', 'DELIVERED', 'FAILED')), CONSTRAINT "PK_webhook_deliveries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_webhook_deliveries_webhook" ON "webhook_deliveries"  ("webhook_id", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_webhook_deliveries_key" ON "webhook_deliveries"  ("delivery_key") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_attempts" ("id" SERIAL NOT NULL, "webhook_id" integer NOT NULL, "delivery_id" integer NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "duration_ms" integer NOT NULL, "ok" boolean NOT NULL, "status_code" integer, "error" character varying(500), "response_excerpt" character varying(500), CONSTRAINT "PK_webhook_attempts" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_webhook_attempts_delivery" ON "webhook_attempts"  ("delivery_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_webhook_attempts_webhook" ON "webhook_attempts"  ("webhook_id", "id") `);
    await queryRunner.query(
      `ALTER TABLE "webhooks" ADD CONSTRAINT "FK_webhooks_created_by" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_webhook_deliveries_webhook" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_webhook_attempts_webhook" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_webhook_attempts_delivery" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_webhook_attempts_delivery"`);
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_webhook_attempts_webhook"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_webhook_deliveries_webhook"`);
    await queryRunner.query(`ALTER TABLE "webhooks" DROP CONSTRAINT "FK_webhooks_created_by"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_attempts_webhook"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_attempts_delivery"`);
    await queryRunner.query(`DROP TABLE "webhook_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_webhook_deliveries_key"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_webhook_deliveries_webhook"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
  }
}

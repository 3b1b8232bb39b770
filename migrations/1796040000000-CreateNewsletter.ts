import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The newsletter (docs/newsletter.md): subscribers (an account's own, or a visitor's after double
 * opt-in) and what they follow (the publication, an author, a tag), the suppression list, each
 * post's send, and one delivery row per (post, subscriber) and per (subscriber, week) for the
 * weekly digest: their unique keys are what make every e-mail go out exactly once.
 */
export class CreateNewsletter1796040000000 implements MigrationInterface {
  name = 'CreateNewsletter1796040000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "newsletter_subscribers" ("id" SERIAL NOT NULL, "email" character varying(254) NOT NULL, "name" character varying(100), "user_id" integer, "status" character varying(16) NOT NULL, "confirm_token_hash" character varying(64), "confirm_expires_at" TIMESTAMP WITH TIME ZONE, "cadence" character varying(8) NOT NULL DEFAULT 'instant', "digest_weekday" smallint, "soft_bounces" integer NOT NULL DEFAULT '0', "source" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "confirmed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_newsletter_subscribers_weekday" CHECK ("digest_weekday" IS NULL OR "digest_weekday" BETWEEN 0 AND 6), CONSTRAINT "CHK_newsletter_subscribers_source" CHECK ("source" IN ('page', 'account', 'import')), CONSTRAINT "CHK_newsletter_subscribers_cadence" CHECK ("cadence" IN ('instant', 'weekly')), CONSTRAINT "CHK_newsletter_subscribers_status" CHECK ("status" IN ('pending', 'active', 'unsubscribed')), CONSTRAINT "PK_newsletter_subscribers" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_newsletter_subscribers_email" ON "newsletter_subscribers" ("email") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_newsletter_subscribers_user" ON "newsletter_subscribers" ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "newsletter_follows" ("id" SERIAL NOT NULL, "subscriber_id" integer NOT NULL, "kind" character varying(16) NOT NULL, "target_id" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_newsletter_follows_kind" CHECK ("kind" IN ('publication', 'author', 'tag')), CONSTRAINT "PK_newsletter_follows" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_newsletter_follows_kind_target" ON "newsletter_follows" ("kind", "target_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_newsletter_follows_target" ON "newsletter_follows" ("subscriber_id", "kind", "target_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "newsletter_suppressions" ("email" character varying(254) NOT NULL, "reason" character varying(16) NOT NULL, "detail" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_newsletter_suppressions_reason" CHECK ("reason" IN ('hard_bounce', 'soft_bounces', 'complaint', 'manual')), CONSTRAINT "PK_newsletter_suppressions" PRIMARY KEY ("email"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "newsletter_post_sends" ("post_id" integer NOT NULL, "send_email" boolean NOT NULL DEFAULT true, "state" character varying(16) NOT NULL DEFAULT 'pending', "recipients" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_newsletter_post_sends_state" CHECK ("state" IN ('pending', 'queued', 'sending', 'done', 'off')), CONSTRAINT "PK_newsletter_post_sends" PRIMARY KEY ("post_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "newsletter_deliveries" ("id" BIGSERIAL NOT NULL, "post_id" integer NOT NULL, "subscriber_id" integer NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'queued', "attempts" integer NOT NULL DEFAULT '0', "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "sent_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_newsletter_deliveries_state" CHECK ("state" IN ('queued', 'sending', 'sent', 'failed', 'bounced', 'suppressed', 'skipped')), CONSTRAINT "PK_newsletter_deliveries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_newsletter_deliveries_subscriber" ON "newsletter_deliveries" ("subscriber_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_newsletter_deliveries_post_state" ON "newsletter_deliveries" ("post_id", "state") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_newsletter_deliveries_post_subscriber" ON "newsletter_deliveries" ("post_id", "subscriber_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "newsletter_digest_deliveries" ("id" BIGSERIAL NOT NULL, "subscriber_id" integer NOT NULL, "week_start" date NOT NULL, "post_ids" integer array NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'queued', "attempts" integer NOT NULL DEFAULT '0', "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "sent_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_newsletter_digest_deliveries_state" CHECK ("state" IN ('queued', 'sending', 'sent', 'failed', 'bounced', 'suppressed', 'skipped')), CONSTRAINT "PK_newsletter_digest_deliveries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_newsletter_digest_deliveries_week" ON "newsletter_digest_deliveries" ("subscriber_id", "week_start") `,
    );
    await queryRunner.query(
      `ALTER TABLE "newsletter_subscribers" ADD CONSTRAINT "FK_newsletter_subscribers_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "newsletter_follows" ADD CONSTRAINT "FK_newsletter_follows_subscriber" FOREIGN KEY ("subscriber_id") REFERENCES "newsletter_subscribers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "newsletter_post_sends" ADD CONSTRAINT "FK_newsletter_post_sends_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "newsletter_deliveries" ADD CONSTRAINT "FK_newsletter_deliveries_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "newsletter_deliveries" ADD CONSTRAINT "FK_newsletter_deliveries_subscriber" FOREIGN KEY ("subscriber_id") REFERENCES "newsletter_subscribers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "newsletter_digest_deliveries" ADD CONSTRAINT "FK_newsletter_digest_deliveries_subscriber" FOREIGN KEY ("subscriber_id") REFERENCES "newsletter_subscribers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "newsletter_digest_deliveries"`);
    await queryRunner.query(`DROP TABLE "newsletter_deliveries"`);
    await queryRunner.query(`DROP TABLE "newsletter_post_sends"`);
    await queryRunner.query(`DROP TABLE "newsletter_suppressions"`);
    await queryRunner.query(`DROP TABLE "newsletter_follows"`);
    await queryRunner.query(`DROP TABLE "newsletter_subscribers"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The social web (docs/federation.md): Fedify's key-value store, the actors' key pairs (private
 * keys sealed), remote actors and their follows, the activities sent and one delivery row per
 * (activity, inbox), blocks, fediverse likes and boosts per post, and a comment's remote origin.
 */
export class CreateFederation1796050000000 implements MigrationInterface {
  name = 'CreateFederation1796050000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "federation_kv" (
      "key" text NOT NULL, "value" jsonb NOT NULL, "expires_at" timestamptz,
      CONSTRAINT "PK_federation_kv" PRIMARY KEY ("key"))`);
    await queryRunner.query(`CREATE INDEX "IDX_federation_kv_expires" ON "federation_kv" ("expires_at") WHERE "expires_at" IS NOT NULL`);
    await queryRunner.query(`CREATE TABLE "federation_settings" (
      "key" varchar(40) NOT NULL, "value" jsonb NOT NULL, "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_federation_settings" PRIMARY KEY ("key"))`);
    await queryRunner.query(`CREATE TABLE "federation_keys" (
      "actor" varchar(40) NOT NULL, "algorithm" varchar(20) NOT NULL, "public_jwk" jsonb NOT NULL, "private_sealed" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_federation_keys" PRIMARY KEY ("actor", "algorithm"))`);
    await queryRunner.query(`CREATE TABLE "federation_remote_actors" (
      "id" SERIAL NOT NULL, "uri" text NOT NULL, "host" varchar(255) NOT NULL, "inbox" text NOT NULL, "shared_inbox" text,
      "handle" varchar(300), "name" varchar(300), "avatar" text, "url" text, "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_federation_remote_actors" PRIMARY KEY ("id"), CONSTRAINT "UQ_federation_remote_actors_uri" UNIQUE ("uri"))`);
    await queryRunner.query(`CREATE INDEX "IDX_federation_remote_actors_host" ON "federation_remote_actors" ("host")`);
    await queryRunner.query(`CREATE TABLE "federation_followers" (
      "actor" varchar(40) NOT NULL, "remote_actor_id" int NOT NULL, "follow_uri" text, "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_federation_followers" PRIMARY KEY ("actor", "remote_actor_id"),
      CONSTRAINT "FK_federation_followers_remote" FOREIGN KEY ("remote_actor_id") REFERENCES "federation_remote_actors"("id") ON DELETE CASCADE)`);
    await queryRunner.query(`CREATE INDEX "IDX_federation_followers_remote" ON "federation_followers" ("remote_actor_id")`);
    await queryRunner.query(`CREATE TABLE "federation_activities" (
      "id" BIGSERIAL NOT NULL, "uri" text NOT NULL, "sender" varchar(40) NOT NULL, "type" varchar(20) NOT NULL, "body" jsonb NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_federation_activities" PRIMARY KEY ("id"), CONSTRAINT "UQ_federation_activities_uri" UNIQUE ("uri"))`);
    await queryRunner.query(`CREATE TABLE "federation_deliveries" (
      "id" BIGSERIAL NOT NULL, "activity_id" bigint NOT NULL, "inbox" text NOT NULL, "recipient" text NOT NULL,
      "status" varchar(10) NOT NULL DEFAULT 'PENDING', "attempts" int NOT NULL DEFAULT 0, "last_error" varchar(500),
      "claimed_at" timestamptz, "delivered_at" timestamptz, "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_federation_deliveries" PRIMARY KEY ("id"),
      CONSTRAINT "UQ_federation_deliveries_activity_inbox" UNIQUE ("activity_id", "inbox"),
      CONSTRAINT "CHK_federation_deliveries_status" CHECK ("status" IN ('PENDING', 'SENDING', 'DELIVERED', 'FAILED')),
      CONSTRAINT "FK_federation_deliveries_activity" FOREIGN KEY ("activity_id") REFERENCES "federation_activities"("id") ON DELETE CASCADE)`);
    await queryRunner.query(`CREATE INDEX "IDX_federation_deliveries_created" ON "federation_deliveries" ("created_at", "id")`);
    await queryRunner.query(`CREATE TABLE "federation_blocks" (
      "id" SERIAL NOT NULL, "kind" varchar(10) NOT NULL, "value" text NOT NULL, "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_federation_blocks" PRIMARY KEY ("id"), CONSTRAINT "UQ_federation_blocks_kind_value" UNIQUE ("kind", "value"),
      CONSTRAINT "CHK_federation_blocks_kind" CHECK ("kind" IN ('instance', 'actor')))`);
    await queryRunner.query(`CREATE TABLE "federation_reactions" (
      "post_id" int NOT NULL, "remote_actor_id" int NOT NULL, "kind" varchar(10) NOT NULL, "activity_uri" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_federation_reactions" PRIMARY KEY ("post_id", "remote_actor_id", "kind"),
      CONSTRAINT "CHK_federation_reactions_kind" CHECK ("kind" IN ('like', 'announce')),
      CONSTRAINT "FK_federation_reactions_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_federation_reactions_remote" FOREIGN KEY ("remote_actor_id") REFERENCES "federation_remote_actors"("id") ON DELETE CASCADE)`);
    await queryRunner.query(`CREATE INDEX "IDX_federation_reactions_activity" ON "federation_reactions" ("activity_uri")`);
    // A reply from the fediverse: no local author (user_id null), its Note's id and who wrote it.
    await queryRunner.query(`ALTER TABLE "comments" ADD "remote_uri" text`);
    await queryRunner.query(`ALTER TABLE "comments" ADD "remote_author" jsonb`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_comments_remote_uri" ON "comments" ("remote_uri") WHERE "remote_uri" IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "comments" WHERE "remote_uri" IS NOT NULL`);
    await queryRunner.query(`DROP INDEX "UQ_comments_remote_uri"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP COLUMN "remote_author"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP COLUMN "remote_uri"`);
    for (const table of [
      'federation_reactions',
      'federation_blocks',
      'federation_deliveries',
      'federation_activities',
      'federation_followers',
      'federation_remote_actors',
      'federation_keys',
      'federation_settings',
      'federation_kv',
    ])
      await queryRunner.query(`DROP TABLE "${table}"`);
  }
}

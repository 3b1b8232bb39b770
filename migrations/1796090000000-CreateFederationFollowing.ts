import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts of the fediverse an Inkwell author follows (docs/federation.md#following): the Follow
 * sent (its id), PENDING until the remote server's Accept arrives, then ACCEPTED.
 */
export class CreateFederationFollowing1796090000000 implements MigrationInterface {
  name = 'CreateFederationFollowing1796090000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "federation_following" (
      "actor" varchar(40) NOT NULL, "remote_actor_id" int NOT NULL, "follow_uri" text NOT NULL,
      "state" varchar(10) NOT NULL DEFAULT 'PENDING', "created_at" timestamptz NOT NULL DEFAULT now(), "accepted_at" timestamptz,
      CONSTRAINT "PK_federation_following" PRIMARY KEY ("actor", "remote_actor_id"),
      CONSTRAINT "UQ_federation_following_follow_uri" UNIQUE ("follow_uri"),
      CONSTRAINT "CHK_federation_following_state" CHECK ("state" IN ('PENDING', 'ACCEPTED')),
      CONSTRAINT "FK_federation_following_remote" FOREIGN KEY ("remote_actor_id") REFERENCES "federation_remote_actors"("id") ON DELETE CASCADE)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "federation_following"`);
  }
}

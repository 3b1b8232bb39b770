import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * User administration: ban history (user_bans, at most one open ban per user) and the indexes of
 * the admin user list: trigram GIN indexes for ILIKE '%fragment%' search on full name and
 * e-mail, (status, created_at, id) for the status filter, (created_at, id) for the default sort
 * (replacing (created_at), so the page's ids come from an index-only scan), and one index per
 * other sort: (lower(full_name), id) INCLUDE (full_name), (updated_at, id) and
 * (last_login_at NULLS FIRST, id).
 *
 * pg_trgm ships with PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13, so a
 * database owner may create it. Where it still cannot be created the search works without the
 * two indexes (sequential scans), and the migration says so instead of stopping start-up.
 */
export class CreateUserBansAndUserSearch1795455169617 implements MigrationInterface {
  name = 'CreateUserBansAndUserSearch1795455169617';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "user_bans" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "reason" character varying(500) NOT NULL, "admin_note" character varying(1000), "banned_by" integer, "banned_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "unbanned_at" TIMESTAMP WITH TIME ZONE, "unbanned_by" integer, "unban_reason" character varying(500), "unban_note" character varying(1000), CONSTRAINT "PK_user_bans" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_user_bans_user_banned" ON "user_bans"  ("user_id", "banned_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_user_bans_open" ON "user_bans"  ("user_id") WHERE "unbanned_at" IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "user_bans" ADD CONSTRAINT "FK_user_bans_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_bans" ADD CONSTRAINT "FK_user_bans_banned_by" FOREIGN KEY ("banned_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_bans" ADD CONSTRAINT "FK_user_bans_unbanned_by" FOREIGN KEY ("unbanned_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    // Users banned before this table existed get an open ban without details, so ban-status and unban agree with status.
    await queryRunner.query(
      `INSERT INTO "user_bans" ("user_id", "reason", "banned_at") SELECT "id", 'Banned before ban details were kept', "updated_at" FROM "users" WHERE "status" = 'BANNED'`,
    );

    await queryRunner.query(`DROP INDEX "public"."IDX_users_created_at"`);
    await queryRunner.query(`CREATE INDEX "IDX_users_created_at" ON "users"  ("created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_users_status_created" ON "users"  ("status", "created_at", "id") `);
    // The list sorted by name (case-insensitive); full_name included so the page's ids come from an index-only scan.
    await queryRunner.query(`CREATE INDEX "IDX_users_name_lower" ON "users" (lower("full_name"), "id") INCLUDE ("full_name")`);
    // The sorts by last update and last sign-in (never signed in = the earliest, so one index serves both directions).
    await queryRunner.query(`CREATE INDEX "IDX_users_updated_at" ON "users"  ("updated_at", "id") `);
    await queryRunner.query(`CREATE INDEX "IDX_users_last_login" ON "users" ("last_login_at" ASC NULLS FIRST, "id")`);
    await queryRunner.query(`DO $$
      BEGIN
        BEGIN
          CREATE EXTENSION IF NOT EXISTS pg_trgm;
        EXCEPTION WHEN OTHERS THEN
          RAISE WARNING 'pg_trgm could not be created (%): the admin user search runs without its trigram indexes', SQLERRM;
        END;
        IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          EXECUTE 'CREATE INDEX "IDX_users_full_name_trgm" ON "users" USING gin ("full_name" gin_trgm_ops)';
          EXECUTE 'CREATE INDEX "IDX_users_email_trgm" ON "users" USING gin ("email" gin_trgm_ops)';
        END IF;
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // The extension stays: other objects may use it.
    await queryRunner.query(`DROP INDEX IF EXISTS "public"."IDX_users_email_trgm"`);
    await queryRunner.query(`DROP INDEX IF EXISTS "public"."IDX_users_full_name_trgm"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_users_last_login"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_users_updated_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_users_name_lower"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_users_status_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_users_created_at"`);
    await queryRunner.query(`CREATE INDEX "IDX_users_created_at" ON "users"  ("created_at") `);
    await queryRunner.query(`ALTER TABLE "user_bans" DROP CONSTRAINT "FK_user_bans_unbanned_by"`);
    await queryRunner.query(`ALTER TABLE "user_bans" DROP CONSTRAINT "FK_user_bans_banned_by"`);
    await queryRunner.query(`ALTER TABLE "user_bans" DROP CONSTRAINT "FK_user_bans_user"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_user_bans_open"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_user_bans_user_banned"`);
    await queryRunner.query(`DROP TABLE "user_bans"`);
  }
}

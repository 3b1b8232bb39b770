import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAuthTokens1795336604900 implements MigrationInterface {
  name = 'CreateAuthTokens1795336604900';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "email_verification_codes" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "code_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "consumed_at" TIMESTAMP WITH TIME ZONE, "resent_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_email_verification_codes" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_email_verification_codes_user" ON "email_verification_codes"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "password_reset_tokens" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_password_reset_tokens" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_password_reset_tokens_token_hash" ON "password_reset_tokens"  ("token_hash") `);
    await queryRunner.query(`CREATE INDEX "IDX_password_reset_tokens_user" ON "password_reset_tokens"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "refresh_sessions" ("id" uuid NOT NULL, "user_id" integer NOT NULL, "token_hash" character(64) NOT NULL, "family_id" uuid NOT NULL, "parent_id" uuid, "remember_me" boolean NOT NULL DEFAULT false, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "rotated_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, "user_agent" character varying(255), "ip" character varying(64), CONSTRAINT "PK_refresh_sessions" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_refresh_sessions_token_hash" ON "refresh_sessions"  ("token_hash") `);
    await queryRunner.query(`CREATE INDEX "IDX_refresh_sessions_family" ON "refresh_sessions"  ("family_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_refresh_sessions_user" ON "refresh_sessions"  ("user_id") `);
    await queryRunner.query(
      `ALTER TABLE "email_verification_codes" ADD CONSTRAINT "FK_email_verification_codes_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "FK_password_reset_tokens_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "refresh_sessions" ADD CONSTRAINT "FK_refresh_sessions_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "refresh_sessions" DROP CONSTRAINT "FK_refresh_sessions_user"`);
    await queryRunner.query(`ALTER TABLE "password_reset_tokens" DROP CONSTRAINT "FK_password_reset_tokens_user"`);
    await queryRunner.query(`ALTER TABLE "email_verification_codes" DROP CONSTRAINT "FK_email_verification_codes_user"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_refresh_sessions_user"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_refresh_sessions_family"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_refresh_sessions_token_hash"`);
    await queryRunner.query(`DROP TABLE "refresh_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_password_reset_tokens_user"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_password_reset_tokens_token_hash"`);
    await queryRunner.query(`DROP TABLE "password_reset_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_email_verification_codes_user"`);
    await queryRunner.query(`DROP TABLE "email_verification_codes"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/** Two-factor sign-in: the sealed authenticator secret, recovery codes (hashed) and sign-in challenges. */
export class CreateTwoFactor1796031000000 implements MigrationInterface {
  name = 'CreateTwoFactor1796031000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "user_two_factor" ("user_id" integer NOT NULL, "secret_sealed" character varying(200) NOT NULL, "enabled_at" TIMESTAMP WITH TIME ZONE, "last_used_step" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_user_two_factor" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "two_factor_recovery_codes" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "code_hash" character(64) NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_two_factor_recovery_codes" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_two_factor_recovery_codes_user_hash" ON "two_factor_recovery_codes" ("user_id", "code_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "two_factor_challenges" ("id" uuid NOT NULL, "user_id" integer NOT NULL, "token_hash" character(64) NOT NULL, "remember_me" boolean NOT NULL DEFAULT false, "failed_attempts" integer NOT NULL DEFAULT '0', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_two_factor_challenges" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_two_factor_challenges_user" ON "two_factor_challenges" ("user_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_two_factor_challenges_token_hash" ON "two_factor_challenges" ("token_hash") `);
    await queryRunner.query(
      `ALTER TABLE "user_two_factor" ADD CONSTRAINT "FK_user_two_factor_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "two_factor_recovery_codes" ADD CONSTRAINT "FK_two_factor_recovery_codes_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "two_factor_challenges" ADD CONSTRAINT "FK_two_factor_challenges_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "two_factor_challenges"`);
    await queryRunner.query(`DROP TABLE "two_factor_recovery_codes"`);
    await queryRunner.query(`DROP TABLE "user_two_factor"`);
  }
}

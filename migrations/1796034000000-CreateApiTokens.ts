import { MigrationInterface, QueryRunner } from 'typeorm';

/** Personal API tokens: only the SHA-256 of each token is kept. */
export class CreateApiTokens1796034000000 implements MigrationInterface {
  name = 'CreateApiTokens1796034000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_tokens" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "name" character varying(100) NOT NULL, "token_hash" character(64) NOT NULL, "scopes" character varying(32) array NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_api_tokens" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_tokens_token_hash" ON "api_tokens" ("token_hash")`);
    await queryRunner.query(`CREATE INDEX "IDX_api_tokens_user" ON "api_tokens" ("user_id")`);
    await queryRunner.query(
      `ALTER TABLE "api_tokens" ADD CONSTRAINT "FK_api_tokens_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "api_tokens"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateUsersAndRoles1795336336857 implements MigrationInterface {
  name = 'CreateUsersAndRoles1795336336857';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "roles" ("id" SERIAL NOT NULL, "name" character varying(20) NOT NULL, "display_name" character varying(50) NOT NULL, "description" character varying(255) NOT NULL DEFAULT '', CONSTRAINT "PK_roles" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_roles_name" ON "roles"  ("name") `);
    await queryRunner.query(
      `CREATE TABLE "users" ("id" SERIAL NOT NULL, "full_name" character varying(100) NOT NULL, "email" character varying(254) NOT NULL, "password_hash" character varying(100) NOT NULL, "avatar" character varying(255), "bio" character varying(500), "website" character varying(255), "location" character varying(100), "status" character varying(16) NOT NULL DEFAULT 'PENDING', "is_verified" boolean NOT NULL DEFAULT false, "email_verified_at" TIMESTAMP WITH TIME ZONE, "last_login_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_users_status" CHECK ("status" IN ('PENDING', 'ACTIVE', 'INACTIVE', 'BANNED')), CONSTRAINT "PK_users" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_users_email" ON "users"  ("email") `);
    await queryRunner.query(`CREATE INDEX "IDX_users_created_at" ON "users"  ("created_at") `);
    await queryRunner.query(
      `CREATE TABLE "user_roles" ("user_id" integer NOT NULL, "role_id" integer NOT NULL, "assigned_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "assigned_by" integer, CONSTRAINT "PK_user_roles" PRIMARY KEY ("user_id", "role_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_user_roles_role" ON "user_roles"  ("role_id") `);
    await queryRunner.query(
      `ALTER TABLE "user_roles" ADD CONSTRAINT "FK_user_roles_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_roles" ADD CONSTRAINT "FK_user_roles_role" FOREIGN KEY ("role_id") REFERENCES "roles"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `INSERT INTO "roles" ("name", "display_name", "description") VALUES
        ('ADMIN', 'Administrator', 'Manages users, posts, tags and reviews'),
        ('AUTHOR', 'Author', 'Writes posts and submits them for review'),
        ('USER', 'User', 'Reads, likes and comments')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user_roles" DROP CONSTRAINT "FK_user_roles_role"`);
    await queryRunner.query(`ALTER TABLE "user_roles" DROP CONSTRAINT "FK_user_roles_user"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_user_roles_role"`);
    await queryRunner.query(`DROP TABLE "user_roles"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_users_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_users_email"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_roles_name"`);
    await queryRunner.query(`DROP TABLE "roles"`);
  }
}

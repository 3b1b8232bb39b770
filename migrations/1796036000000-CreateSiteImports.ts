import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSiteImports1796036000000 implements MigrationInterface {
  name = 'CreateSiteImports1796036000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "post_path_redirects" ("path" character varying(300) NOT NULL, "post_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_post_path_redirects" PRIMARY KEY ("path"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_post_path_redirects_post" ON "post_path_redirects"  ("post_id") `);
    await queryRunner.query(
      `CREATE TABLE "import_items" ("origin" character varying(300) NOT NULL, "kind" character varying(16) NOT NULL, "source_id" character varying(200) NOT NULL, "local_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_import_items" PRIMARY KEY ("origin", "kind", "source_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "site_imports" ("id" SERIAL NOT NULL, "source" character varying(16) NOT NULL, "state" character varying(16) NOT NULL DEFAULT 'QUEUED', "file_name" character varying(255) NOT NULL, "file_path" character varying(500), "media_path" character varying(500), "total" integer, "processed" integer NOT NULL DEFAULT '0', "counts" jsonb NOT NULL DEFAULT '{"users":0,"tags":0,"posts":0,"comments":0,"images":0,"redirects":0}', "skipped_count" integer NOT NULL DEFAULT '0', "skipped" jsonb NOT NULL DEFAULT '[]', "renamed_count" integer NOT NULL DEFAULT '0', "renamed" jsonb NOT NULL DEFAULT '[]', "error" character varying(1000), "cancel_requested" boolean NOT NULL DEFAULT false, "created_by" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_site_imports_state" CHECK ("state" IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED')), CONSTRAINT "PK_site_imports" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_site_imports_created" ON "site_imports"  ("created_at", "id") `);
    await queryRunner.query(
      `ALTER TABLE "post_path_redirects" ADD CONSTRAINT "FK_post_path_redirects_post" FOREIGN KEY ("post_id") REFERENCES "posts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "site_imports" ADD CONSTRAINT "FK_site_imports_created_by" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "site_imports" DROP CONSTRAINT "FK_site_imports_created_by"`);
    await queryRunner.query(`ALTER TABLE "post_path_redirects" DROP CONSTRAINT "FK_post_path_redirects_post"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_site_imports_created"`);
    await queryRunner.query(`DROP TABLE "site_imports"`);
    await queryRunner.query(`DROP TABLE "import_items"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_post_path_redirects_post"`);
    await queryRunner.query(`DROP TABLE "post_path_redirects"`);
  }
}

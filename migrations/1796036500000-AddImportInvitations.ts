import { MigrationInterface, QueryRunner } from 'typeorm';

/** An import may invite the author accounts it creates; its report counts the invitations. */
export class AddImportInvitations1796036500000 implements MigrationInterface {
  name = 'AddImportInvitations1796036500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "site_imports" ADD "invite_authors" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `ALTER TABLE "site_imports" ALTER COLUMN "counts" SET DEFAULT '{"users":0,"tags":0,"posts":0,"comments":0,"images":0,"redirects":0,"invitations":0}'`,
    );
    // Earlier imports invited nobody.
    await queryRunner.query(
      `UPDATE "site_imports" SET "counts" = "counts" || '{"invitations":0}'::jsonb WHERE NOT "counts" ? 'invitations'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "site_imports" SET "counts" = "counts" - 'invitations'`);
    await queryRunner.query(
      `ALTER TABLE "site_imports" ALTER COLUMN "counts" SET DEFAULT '{"users":0,"tags":0,"posts":0,"comments":0,"images":0,"redirects":0}'`,
    );
    await queryRunner.query(`ALTER TABLE "site_imports" DROP COLUMN "invite_authors"`);
  }
}

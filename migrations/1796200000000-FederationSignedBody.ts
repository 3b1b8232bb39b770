import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The signed body of an outgoing activity (docs/federation.md#delivery): its JSON-LD with the
 * Object Integrity Proof and the Linked Data Signature, made once on its first delivery and sent
 * byte for byte to every inbox (each request gets only its own HTTP signature).
 */
export class FederationSignedBody1796200000000 implements MigrationInterface {
  name = 'FederationSignedBody1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "federation_activities" ADD "signed_body" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "federation_activities" DROP COLUMN "signed_body"`);
  }
}

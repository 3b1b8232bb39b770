import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The new-device alert: the devices (browser family + OS) each user signed in from,
 * and whether they want the 'New sign-in to your account' e-mail (no row: yes).
 */
export class CreateSessionDevices1796032000000 implements MigrationInterface {
  name = 'CreateSessionDevices1796032000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "known_devices" ("user_id" integer NOT NULL, "device_key" character varying(120) NOT NULL, "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_known_devices" PRIMARY KEY ("user_id", "device_key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "sign_in_alert_settings" ("user_id" integer NOT NULL, "new_device_email" boolean NOT NULL DEFAULT true, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_sign_in_alert_settings" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "known_devices" ADD CONSTRAINT "FK_known_devices_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sign_in_alert_settings" ADD CONSTRAINT "FK_sign_in_alert_settings_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "sign_in_alert_settings"`);
    await queryRunner.query(`DROP TABLE "known_devices"`);
  }
}

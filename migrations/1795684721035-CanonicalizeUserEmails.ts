import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-mails are now stored NFKC-normalised (full-width 'ａdmin' is 'admin'), as sign-up, sign-in and
 * every other form look them up. Existing addresses with compatibility characters (only
 * non-ASCII ones can have them) are rewritten so their owners keep signing in with what they type;
 * one whose normal form another account already has is left as it is (an admin decides).
 */
export class CanonicalizeUserEmails1795684721035 implements MigrationInterface {
  name = 'CanonicalizeUserEmails1795684721035';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const rows = (await queryRunner.query(`SELECT id, email FROM users WHERE email ~ '[^\\x01-\\x7f]' ORDER BY id`)) as {
      id: number;
      email: string;
    }[];
    for (const { id, email } of rows) {
      const canonical = email.normalize('NFKC').trim().toLowerCase();
      if (canonical === email) continue;
      await queryRunner.query(`UPDATE users SET email = $1 WHERE id = $2 AND NOT EXISTS (SELECT 1 FROM users WHERE email = $1)`, [
        canonical,
        id,
      ]);
    }
  }

  public async down(): Promise<void> {
    // The original spellings are not kept; the normalised ones work with the older code too.
  }
}

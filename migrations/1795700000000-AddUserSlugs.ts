import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every user gets a unique, stable `slug` for the public author page `/authors/{slug}`. The
 * database assigns it on insert (trigger `TRG_users_slug`), so every way a user is created
 * (register, admin create, the admin seed, seed:demo's bulk SQL, tests' raw inserts) gets one by
 * the same rule, and existing rows are backfilled here in id order (the oldest keeps the bare slug):
 * - `user_slug_base(name)`: docs/requirements.md#slugs post-slug rules (common/validation/slug.ts `slugify`) on
 *   the NFKD form: đ→d, diacritics dropped, lower-case, spaces → hyphens, only a-z 0-9 -;
 *   'user' when nothing is left (a name in another script).
 * - collisions get -2, -3… (one past the highest suffix taken); one transaction-scoped advisory
 *   lock makes concurrent sign-ups with one name wait for each other instead of colliding. One key
 *   for every name, not one per name: a lock per name would take a lock-table slot per distinct
 *   name, and a bulk insert (seed:demo --users, this backfill) of thousands of names would run
 *   out of them ('out of shared memory'); sign-ups are short, so they queue only for milliseconds.
 * The slug never follows a later name change (links and feed subscriptions stay valid).
 * COLLATE "C" makes `base-…` a contiguous range of the unique index, which the suffix lookup scans.
 */
export class AddUserSlugs1795700000000 implements MigrationInterface {
  name = 'AddUserSlugs1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION user_slug_base(name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
        SELECT coalesce(nullif(rtrim(left(
          trim(both '-' from regexp_replace(regexp_replace(regexp_replace(
            lower(regexp_replace(normalize(translate(name, 'đĐ', 'dD'), NFKD), '[\\u0300-\\u036f]', '', 'g')),
            '[[:space:]_]+', '-', 'g'), '[^a-z0-9-]', '', 'g'), '-+', '-', 'g')),
          100), '-'), ''), 'user')
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION user_slug_next(name text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        base text := user_slug_base(name);
        highest bigint;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('users.slug'));
        IF NOT EXISTS (SELECT 1 FROM users WHERE slug = base) THEN
          RETURN base;
        END IF;
        SELECT max(substring(slug FROM length(base) + 2)::bigint) INTO highest
          FROM users
         WHERE slug > base || '-' AND slug < base || '.' AND substring(slug FROM length(base) + 2) ~ '^[1-9][0-9]{0,8}$';
        RETURN base || '-' || greatest(coalesce(highest, 1) + 1, 2);
      END
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION users_assign_slug() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.slug IS NULL THEN
          NEW.slug := user_slug_next(NEW.full_name);
        END IF;
        RETURN NEW;
      END
      $$`);
    await queryRunner.query(`ALTER TABLE "users" ADD "slug" character varying(112) COLLATE "C"`);
    // Before the backfill: each row's lookups read the index instead of scanning every user.
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_users_slug" ON "users" ("slug") `);
    await queryRunner.query(`
      DO $$
      DECLARE row record;
      BEGIN
        FOR row IN SELECT id, full_name FROM users ORDER BY id LOOP
          UPDATE users SET slug = user_slug_next(row.full_name) WHERE id = row.id;
        END LOOP;
      END
      $$`);
    await queryRunner.query(`ALTER TABLE "users" ALTER COLUMN "slug" SET NOT NULL`);
    await queryRunner.query(`CREATE TRIGGER "TRG_users_slug" BEFORE INSERT ON "users" FOR EACH ROW EXECUTE FUNCTION users_assign_slug()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_users_slug" ON "users"`);
    await queryRunner.query(`DROP INDEX "UQ_users_slug"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "slug"`);
    await queryRunner.query(`DROP FUNCTION users_assign_slug()`);
    await queryRunner.query(`DROP FUNCTION user_slug_next(text)`);
    await queryRunner.query(`DROP FUNCTION user_slug_base(text)`);
  }
}

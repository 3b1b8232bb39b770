import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-user notification counts (`listed`: in-app rows; `unread`: in-app rows not read), kept by
 * statement-level triggers on `notifications` in the transaction of each change, so the bell and
 * the list's total read one row instead of counting up to thousands:
 * - INSERT adds each statement's rows per user (upsert: the first notification creates the row);
 * - UPDATE applies the difference of each user's rows before and after (a read flag, in_app);
 * - DELETE (cascades from a post, a comment or the user) subtracts; it only updates rows that
 *   exist, since a user's own deletion removes their counter row by its foreign key as well;
 * - TRUNCATE zeroes every count.
 * Counter rows are locked in user id order (the upsert's ORDER BY, the DELETE's FOR UPDATE), so
 * two statements touching several users never wait on each other in a circle. Existing rows are
 * counted here once.
 */
export class CreateNotificationCounters1796026300000 implements MigrationInterface {
  name = 'CreateNotificationCounters1796026300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "notification_counters" ("user_id" integer NOT NULL, "listed" integer NOT NULL DEFAULT 0, "unread" integer NOT NULL DEFAULT 0, CONSTRAINT "PK_notification_counters" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_counters" ADD CONSTRAINT "FK_notification_counters_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`
      CREATE FUNCTION notification_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          UPDATE notification_counters SET listed = 0, unread = 0 WHERE listed <> 0 OR unread <> 0;
        ELSIF TG_OP = 'DELETE' THEN
          PERFORM 1 FROM notification_counters c WHERE c.user_id IN (SELECT user_id FROM removed_rows WHERE in_app) ORDER BY c.user_id FOR UPDATE;
          UPDATE notification_counters c SET listed = c.listed - d.listed, unread = c.unread - d.unread
            FROM (SELECT user_id, count(*)::int AS listed, count(*) FILTER (WHERE NOT read)::int AS unread
                    FROM removed_rows WHERE in_app GROUP BY user_id) d
           WHERE c.user_id = d.user_id;
        ELSIF TG_OP = 'INSERT' THEN
          INSERT INTO notification_counters AS c (user_id, listed, unread)
          SELECT user_id, count(*)::int, count(*) FILTER (WHERE NOT read)::int FROM added_rows WHERE in_app GROUP BY user_id ORDER BY user_id
          ON CONFLICT (user_id) DO UPDATE SET listed = c.listed + EXCLUDED.listed, unread = c.unread + EXCLUDED.unread;
        ELSE
          INSERT INTO notification_counters AS c (user_id, listed, unread)
          SELECT user_id, sum(listed)::int, sum(unread)::int
            FROM (SELECT user_id, 1 AS listed, CASE WHEN read THEN 0 ELSE 1 END AS unread FROM added_rows WHERE in_app
                  UNION ALL
                  SELECT user_id, -1, CASE WHEN read THEN 0 ELSE -1 END FROM removed_rows WHERE in_app) changes
           GROUP BY user_id HAVING sum(listed) <> 0 OR sum(unread) <> 0 ORDER BY user_id
          ON CONFLICT (user_id) DO UPDATE SET listed = c.listed + EXCLUDED.listed, unread = c.unread + EXCLUDED.unread;
        END IF;
        RETURN NULL;
      END
      $f$`);
    await queryRunner.query(
      `CREATE TRIGGER "TRG_notification_counters_insert" AFTER INSERT ON "notifications" REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_counters_apply()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_notification_counters_update" AFTER UPDATE ON "notifications" REFERENCING OLD TABLE AS removed_rows NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_counters_apply()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_notification_counters_delete" AFTER DELETE ON "notifications" REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_counters_apply()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_notification_counters_truncate" AFTER TRUNCATE ON "notifications" FOR EACH STATEMENT EXECUTE FUNCTION notification_counters_apply()`,
    );
    await queryRunner.query(`
      INSERT INTO notification_counters (user_id, listed, unread)
      SELECT user_id, count(*)::int, count(*) FILTER (WHERE NOT read)::int FROM notifications WHERE in_app GROUP BY user_id`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_notification_counters_truncate" ON "notifications"`);
    await queryRunner.query(`DROP TRIGGER "TRG_notification_counters_delete" ON "notifications"`);
    await queryRunner.query(`DROP TRIGGER "TRG_notification_counters_update" ON "notifications"`);
    await queryRunner.query(`DROP TRIGGER "TRG_notification_counters_insert" ON "notifications"`);
    await queryRunner.query(`DROP FUNCTION notification_counters_apply()`);
    await queryRunner.query(`ALTER TABLE "notification_counters" DROP CONSTRAINT "FK_notification_counters_user"`);
    await queryRunner.query(`DROP TABLE "notification_counters"`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cookie-free page-view analytics (docs/analytics.md): raw view rows (kept ANALYTICS_RAW_DAYS,
 * found by a BRIN index on their time: rows arrive in time order), the rollups that outlive them
 * (hourly per post, source and device; daily per post; daily per author for sources, devices and
 * unique visitors, author 0 being the site's own pages and the whole-site figures living under
 * scope -1), the daily salts of the visitor hash (each deleted once its day is over) and the
 * rollup's progress. No row names an account, an address or a user agent.
 */
export class CreateAnalytics1796060000000 implements MigrationInterface {
  name = 'CreateAnalytics1796060000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "analytics_views" (
      "ts" timestamptz NOT NULL,
      "post_id" int,
      "author_id" int,
      "page_kind" varchar(16) NOT NULL,
      "visitor" bigint,
      "source" varchar(16) NOT NULL,
      "source_host" varchar(253) NOT NULL DEFAULT '',
      "device" varchar(8) NOT NULL
    )`);
    await queryRunner.query(`CREATE INDEX "IDX_analytics_views_ts" ON "analytics_views" USING brin ("ts") WITH (pages_per_range = 32)`);
    await queryRunner.query(`CREATE TABLE "analytics_hourly" (
      "hour" timestamptz NOT NULL,
      "post_id" int NOT NULL,
      "author_id" int NOT NULL,
      "source" varchar(16) NOT NULL,
      "source_host" varchar(253) NOT NULL,
      "device" varchar(8) NOT NULL,
      "views" int NOT NULL,
      CONSTRAINT "PK_analytics_hourly" PRIMARY KEY ("post_id", "hour", "source", "source_host", "device")
    )`);
    await queryRunner.query(`CREATE TABLE "analytics_daily" (
      "day" date NOT NULL,
      "post_id" int NOT NULL,
      "author_id" int NOT NULL,
      "views" int NOT NULL,
      "visitors" int NOT NULL,
      CONSTRAINT "PK_analytics_daily" PRIMARY KEY ("post_id", "day")
    )`);
    await queryRunner.query(`CREATE INDEX "IDX_analytics_daily_author_day" ON "analytics_daily" ("author_id", "day")`);
    await queryRunner.query(`CREATE INDEX "IDX_analytics_daily_day" ON "analytics_daily" ("day")`);
    await queryRunner.query(`CREATE TABLE "analytics_daily_scope" (
      "day" date NOT NULL,
      "scope" int NOT NULL,
      "views" int NOT NULL,
      "visitors" int NOT NULL,
      CONSTRAINT "PK_analytics_daily_scope" PRIMARY KEY ("scope", "day")
    )`);
    await queryRunner.query(`CREATE TABLE "analytics_daily_sources" (
      "day" date NOT NULL,
      "scope" int NOT NULL,
      "kind" varchar(8) NOT NULL,
      "name" varchar(253) NOT NULL,
      "host" varchar(253) NOT NULL,
      "views" int NOT NULL,
      CONSTRAINT "PK_analytics_daily_sources" PRIMARY KEY ("scope", "day", "kind", "name", "host")
    )`);
    await queryRunner.query(`CREATE TABLE "analytics_salts" ("day" date PRIMARY KEY, "salt" bytea NOT NULL)`);
    await queryRunner.query(`CREATE TABLE "analytics_rollup_state" (
      "id" smallint PRIMARY KEY CHECK ("id" = 1),
      "hourly_until" timestamptz NOT NULL,
      "daily_until" date NOT NULL
    )`);
    await queryRunner.query(
      `INSERT INTO "analytics_rollup_state" ("id", "hourly_until", "daily_until") VALUES (1, date_trunc('hour', now()), (now() AT TIME ZONE 'UTC')::date)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'analytics_rollup_state',
      'analytics_salts',
      'analytics_daily_sources',
      'analytics_daily_scope',
      'analytics_daily',
      'analytics_hourly',
      'analytics_views',
    ])
      await queryRunner.query(`DROP TABLE "${table}"`);
  }
}

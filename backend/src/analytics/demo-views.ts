import type { DataSource } from 'typeorm';
import { AnalyticsRollup } from './analytics-rollup.service';

const DAY_MS = 86_400_000;
/** The demo views' span, ending now. */
export const DEMO_VIEW_DAYS = 90;

/**
 * `seed:demo --views N`: N page views spread evenly over the last 90 days (in time order, as the
 * recorder writes them, so the BRIN index on ts stays tight), written in SQL with generate_series
 * one day per statement, then rolled up as the rollup job would (raw rows past ANALYTICS_RAW_DAYS
 * deleted). Replaces every analytics row there was. 80 % post pages, drawn skewed toward the newest
 * published posts; the rest home, list, tag and author pages. Sources, devices and a visitor pool of
 * about a third of each day's views are drawn with fixed weights; setseed() makes a --seed repeat.
 */
export async function seedDemoViews(
  dataSource: DataSource,
  views: number,
  seed: number,
  rawDays: number,
  log: (line: string) => void,
): Promise<{ rawRows: number; seconds: number }> {
  const started = Date.now();
  for (const table of [
    'analytics_views',
    'analytics_hourly',
    'analytics_daily',
    'analytics_daily_scope',
    'analytics_daily_sources',
    'analytics_salts',
  ])
    await dataSource.query(`TRUNCATE ${table}`);
  const now = Date.now();
  const first = now - DEMO_VIEW_DAYS * DAY_MS;
  await dataSource.transaction(async (manager) => {
    await manager.query(`SELECT setseed($1)`, [((seed % 1000) / 1000) * 2 - 1]);
    for (let day = 0; day < DEMO_VIEW_DAYS; day++) {
      const count = Math.floor(((day + 1) * views) / DEMO_VIEW_DAYS) - Math.floor((day * views) / DEMO_VIEW_DAYS);
      if (!count) continue;
      await manager.query(
        `WITH p AS (
           SELECT array_agg(id ORDER BY published_at DESC, id) AS ids, array_agg(author_id ORDER BY published_at DESC, id) AS authors, count(*)::int AS n
           FROM posts WHERE status = 'PUBLISHED'
         ),
         g AS (
           SELECT to_timestamp(($2::float8 + random() * 86400000) / 1000) AS ts, random() AS page, random() AS pick, random() AS src,
                  random() AS dev, floor(random() * greatest($1::int / 3, 1))::bigint AS visitor
           FROM generate_series(1, $1::int)
         ),
         v AS (
           SELECT g.*, 1 + floor(p.n * power(g.pick, 3))::int AS k, p.ids, p.authors, p.n FROM g, p
         )
         INSERT INTO analytics_views (ts, post_id, author_id, page_kind, visitor, source, source_host, device)
         SELECT ts,
                CASE WHEN page < 0.8 AND n > 0 THEN ids[k] END,
                CASE WHEN page < 0.8 AND n > 0 THEN authors[k] END,
                CASE WHEN page < 0.8 AND n > 0 THEN 'post' WHEN page < 0.9 THEN 'home' WHEN page < 0.94 THEN 'list' WHEN page < 0.97 THEN 'tag' ELSE 'author' END,
                CASE WHEN dev < 0.9 THEN $3::bigint * 100000000 + visitor END,
                CASE WHEN src < 0.4 THEN 'direct' WHEN src < 0.65 THEN 'search' WHEN src < 0.75 THEN 'social' WHEN src < 0.83 THEN 'fediverse'
                     WHEN src < 0.9 THEN 'newsletter' WHEN src < 0.95 THEN 'internal' ELSE 'other' END,
                CASE WHEN src < 0.4 THEN '' WHEN src < 0.55 THEN 'google.com' WHEN src < 0.62 THEN 'duckduckgo.com' WHEN src < 0.65 THEN 'bing.com'
                     WHEN src < 0.7 THEN 'news.ycombinator.com' WHEN src < 0.75 THEN 'reddit.com' WHEN src < 0.8 THEN 'mastodon.social'
                     WHEN src < 0.83 THEN 'fosstodon.org' WHEN src < 0.95 THEN '' WHEN src < 0.98 THEN 'example-blog.net' ELSE 'lists.example.org' END,
                CASE WHEN dev < 0.55 THEN 'desktop' WHEN dev < 0.95 THEN 'mobile' ELSE 'tablet' END
         FROM v ORDER BY ts`,
        [count, first + day * DAY_MS, day],
      );
      if ((day + 1) % 15 === 0) log(`views: ${day + 1}/${DEMO_VIEW_DAYS} days written`);
    }
  });
  await AnalyticsRollup.rewind(dataSource, new Date(first));
  const rollup = await AnalyticsRollup.run(dataSource, new Date(now), rawDays);
  for (const table of ['analytics_views', 'analytics_hourly', 'analytics_daily', 'analytics_daily_scope', 'analytics_daily_sources'])
    await dataSource.query(`VACUUM ANALYZE ${table}`);
  const [{ n }] = (await dataSource.query(`SELECT count(*)::int AS n FROM analytics_views`)) as { n: number }[];
  log(`${views} views over ${DEMO_VIEW_DAYS} days, rolled up (${rollup.deletedRaw} raw rows past ${rawDays} days deleted, ${n} kept)`);
  return { rawRows: n, seconds: (Date.now() - started) / 1000 };
}

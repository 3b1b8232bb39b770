import 'reflect-metadata';
import { hash } from 'bcrypt';
import { loadConfig } from '../config/env';
import { createDataSource, ensureDatabase } from '../database/data-source';
import { EmbeddedDatabase, startEmbeddedPostgres } from '../database/embedded-postgres';
import { readingTimeOf, renderMarkdown } from '../posts/markdown';
import { slugify } from '../common/validation/slug';

/**
 * `npm run seed:demo -- --posts 10000 [--reset] [--seed 42]`: a realistic demo data set on the
 * configured database (DATABASE_URL, or the embedded one in DATA_DIR, as the app uses it; pending
 * migrations run first). 50 authors (verified, ACTIVE, AUTHOR, e-mails @demo.inkwell.test,
 * password printed), ~40 tags, N PUBLISHED posts of ~1,200 words spread over two years with 1–4
 * tags, some featured, random views and likes. Deterministic for a given --seed.
 *
 * Bodies are Markdown made of an intro paragraph and six sections drawn from a pool; every piece
 * goes through the real pipeline (renderMarkdown) once and a post's HTML is the concatenation of
 * its pieces' HTML (block-level pieces separated by blank lines render the same alone or joined;
 * section headings are distinct, so heading ids stay unique). Rows go in with multi-row INSERTs
 * of 500 per transaction.
 */
const DEMO_DOMAIN = 'demo.inkwell.test';
const DEMO_PASSWORD = 'Demo-pass-2026!';
const AUTHORS = 50;
const BATCH = 500;
const SECTION_POOL = 400;
const SECTIONS_PER_POST = 6;

const WORDS = `time person year way day thing man world life hand part child eye woman place work week case point government
company number group problem fact code system data server client browser request response cache query index table column
schema migration deploy release build test bug fix feature design pattern module service function method class object
array string value type error stream buffer thread process memory storage network latency throughput metric trace log
event queue message worker job task batch page route layout component island style theme color font image thumbnail
reader author editor review draft story post comment like share search filter sort tag topic idea note guide lesson
simple clear fast slow small large quiet careful honest brave modern classic practical elegant robust fragile
write read learn teach build ship measure improve refactor explore discover explain compare choose avoid prefer
because however although therefore meanwhile instead perhaps usually rarely often always never together alone`
  .split(/\s+/)
  .filter(Boolean);

const FIRST = ['An', 'Bao', 'Chi', 'Dung', 'Giang', 'Hanh', 'Huy', 'Khanh', 'Linh', 'Minh', 'Nam', 'Ngoc', 'Phuong', 'Quang', 'Thao', 'Trang', 'Tuan', 'Vy',
  'Alice', 'Ben', 'Clara', 'David', 'Elena', 'Felix', 'Grace', 'Hugo', 'Iris', 'Jonas', 'Kira', 'Liam', 'Maya', 'Noah', 'Olga', 'Paul'];
const LAST = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Vũ', 'Đặng', 'Bùi', 'Đỗ', 'Hồ', 'Ngô', 'Dương', 'Smith', 'Garcia', 'Müller', 'Rossi', 'Dubois', 'Kowalski', 'Silva', 'Tanaka'];
const TAGS = ['JavaScript', 'TypeScript', 'Node.js', 'React', 'Astro', 'NestJS', 'PostgreSQL', 'Databases', 'DevOps', 'Docker', 'Kubernetes', 'Linux',
  'Security', 'Performance', 'Testing', 'Accessibility', 'CSS', 'Design', 'UX', 'Career', 'Productivity', 'Open Source', 'Architecture', 'APIs',
  'Rust', 'Go', 'Python', 'Machine Learning', 'Data Science', 'Cloud', 'Networking', 'Mobile', 'Web Performance', 'Tutorials', 'Opinion',
  'Writing', 'Startups', 'Management', 'Du lịch', 'Ẩm thực'];
const COLORS = ['#2563eb', '#16a34a', '#dc2626', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777', '#4f46e5', '#059669'];

/** mulberry32: a small deterministic PRNG. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Options {
  posts: number;
  reset: boolean;
  seed: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { posts: 1000, reset: false, seed: 42 };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--reset') options.reset = true;
    else if (arg === '--posts' || arg === '--seed') {
      const value = Number(argv[(i += 1)]);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${arg} needs a whole number`);
      if (arg === '--posts') options.posts = value;
      else options.seed = value;
    } else throw new Error(`unknown option ${arg}; usage: seed-demo [--posts N] [--reset] [--seed S]`);
  }
  return options;
}

class Text {
  constructor(private readonly random: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }
  words(n: number): string {
    return Array.from({ length: n }, () => this.pick(WORDS)).join(' ');
  }
  sentence(): string {
    const s = this.words(this.int(8, 18));
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  }
  paragraph(sentences: number): string {
    return Array.from({ length: sentences }, () => this.sentence()).join(' ');
  }
  title(): string {
    const s = this.words(this.int(4, 8));
    return s.replace(/\b\w/g, (c) => c.toUpperCase());
  }
}

/** One self-contained Markdown section (~190 words) with a heading, paragraphs, a list, a link and sometimes code. */
function section(text: Text, heading: string, index: number): string {
  const parts = [`## ${heading}`, text.paragraph(5), `${text.paragraph(3)} See [${text.words(2)}](https://example.com/guide/${index}) for more.`];
  parts.push(Array.from({ length: text.int(3, 5) }, () => `- ${text.words(text.int(4, 9))}`).join('\n'));
  if (index % 2 === 0) parts.push('```ts\n' + `const ${text.pick(['total', 'count', 'result', 'page'])} = await ${text.pick(['load', 'fetch', 'compute'])}(${index});\nconsole.log(${index});\n` + '```');
  else parts.push(`> ${text.sentence()}`);
  parts.push(text.paragraph(4));
  return parts.join('\n\n');
}

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  if (config.databaseUrl) return work(config.databaseUrl);
  let embedded: EmbeddedDatabase | undefined;
  try {
    embedded = await startEmbeddedPostgres(config.dataDir, (line) => process.stdout.write(`${line}\n`));
    return await work(await ensureDatabase(embedded.url, 'inkwell'));
  } finally {
    await embedded?.stop();
  }
}

async function seed(options: Options): Promise<void> {
  const started = Date.now();
  const log = (line: string) => process.stdout.write(`[seed:demo ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
  await withDatabase(async (url) => {
    const dataSource = createDataSource(url);
    await dataSource.initialize();
    try {
      const applied = await dataSource.runMigrations();
      if (applied.length) log(`applied migrations: ${applied.map((m) => m.name).join(', ')}`);

      const existing = (await dataSource.query(`SELECT count(*)::int AS n FROM users WHERE email LIKE $1`, [`%@${DEMO_DOMAIN}`])) as { n: number }[];
      if (existing[0].n > 0) {
        if (!options.reset) {
          log(`demo data is already there (${existing[0].n} demo users); run with --reset to replace it`);
          return;
        }
        await dataSource.transaction(async (manager) => {
          // Their posts (and those posts' tags, reviews, likes, comments) go with them (FK cascade).
          await manager.query(`DELETE FROM users WHERE email LIKE $1`, [`%@${DEMO_DOMAIN}`]);
          await manager.query(`DELETE FROM tags t WHERE t.slug = ANY($1::varchar[]) AND NOT EXISTS (SELECT 1 FROM post_tags pt WHERE pt.tag_id = t.id)`, [
            TAGS.map((name) => slugify(name, 100)),
          ]);
        });
        log('removed the previous demo data');
      }

      const random = rng(options.seed);
      const text = new Text(random);
      const passwordHash = await hash(DEMO_PASSWORD, 12);

      // Authors
      const names = Array.from({ length: AUTHORS }, (_v, i) => `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`);
      const authorIds = await dataSource.transaction(async (manager) => {
        const rows = (await manager.query(
          `INSERT INTO users (full_name, email, password_hash, status, is_verified, email_verified_at, bio, created_at)
           SELECT n, e, $3, 'ACTIVE', true, now(), b, now() - interval '800 days'
             FROM unnest($1::varchar[], $2::varchar[], $4::varchar[]) AS v(n, e, b)
           RETURNING id`,
          [names, names.map((_n, i) => `author-${i + 1}@${DEMO_DOMAIN}`), passwordHash, names.map(() => text.paragraph(2).slice(0, 480))],
        )) as { id: number }[];
        const ids = rows.map((row) => row.id);
        await manager.query(`INSERT INTO user_roles (user_id, role_id) SELECT u, r.id FROM unnest($1::int[]) AS u, roles r WHERE r.name = 'AUTHOR'`, [ids]);
        return ids;
      });
      log(`${authorIds.length} authors (author-1..${AUTHORS}@${DEMO_DOMAIN}, password ${DEMO_PASSWORD})`);

      // Tags (existing ones with the same slug are reused)
      const tagSlugs = TAGS.map((name) => slugify(name, 100));
      await dataSource.query(
        `INSERT INTO tags (name, slug, description, color, is_active)
         SELECT n, s, d, c, true FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[]) AS v(n, s, d, c)
         ON CONFLICT DO NOTHING`,
        [TAGS, tagSlugs, TAGS.map((name) => `Posts about ${name}.`), TAGS.map((_n, i) => COLORS[i % COLORS.length])],
      );
      const tagIds = ((await dataSource.query(`SELECT id FROM tags WHERE slug = ANY($1::varchar[]) AND is_active`, [tagSlugs])) as { id: number }[]).map(
        (row) => row.id,
      );
      log(`${tagIds.length} tags`);

      // A pool of rendered sections with distinct headings
      const headings = new Set<string>();
      while (headings.size < SECTION_POOL) headings.add(text.title());
      const pool = [...headings].map((heading, i) => {
        const markdown = section(text, heading, i);
        return { markdown, html: renderMarkdown(markdown) };
      });
      log(`rendered ${pool.length} sections`);

      const now = Date.now();
      const twoYears = 730 * 24 * 3600 * 1000;
      let inserted = 0;
      while (inserted < options.posts) {
        const count = Math.min(BATCH, options.posts - inserted);
        const cols = {
          title: [] as string[], slug: [] as string[], summary: [] as string[], content: [] as string[], html: [] as string[],
          featured: [] as boolean[], author: [] as number[], published: [] as string[], created: [] as string[], updated: [] as string[],
          views: [] as number[], likes: [] as number[], reading: [] as number[],
        };
        const postTags: number[][] = [];
        for (let i = 0; i < count; i += 1) {
          const n = inserted + i + 1;
          const title = text.title();
          const intro = text.paragraph(4);
          const chosen = new Set<number>();
          while (chosen.size < SECTIONS_PER_POST) chosen.add(text.int(0, pool.length - 1));
          const parts = [...chosen].map((k) => pool[k]);
          const markdown = [intro, ...parts.map((p) => p.markdown)].join('\n\n');
          const html = renderMarkdown(intro) + parts.map((p) => p.html).join('');
          const publishedAt = now - Math.floor(random() * twoYears);
          const views = Math.floor(Math.pow(random(), 3) * 20000);
          cols.title.push(title);
          cols.slug.push(`${slugify(title, 180)}-${n.toString(36)}`);
          cols.summary.push(text.paragraph(2).slice(0, 900));
          cols.content.push(markdown);
          cols.html.push(html);
          cols.featured.push(random() < 0.03);
          cols.author.push(authorIds[Math.floor(Math.pow(random(), 1.5) * authorIds.length)]);
          cols.published.push(new Date(publishedAt).toISOString());
          cols.created.push(new Date(publishedAt - text.int(1, 240) * 3600 * 1000).toISOString());
          cols.updated.push(new Date(Math.min(now, publishedAt + text.int(0, 72) * 3600 * 1000)).toISOString());
          cols.views.push(views);
          cols.likes.push(Math.floor(views * random() * 0.08));
          cols.reading.push(readingTimeOf(markdown));
          const tags = new Set<number>();
          const wanted = text.int(1, Math.min(4, tagIds.length));
          while (tags.size < wanted) tags.add(tagIds[Math.floor(Math.pow(random(), 1.3) * tagIds.length)]);
          postTags.push([...tags]);
        }
        await dataSource.transaction(async (manager) => {
          const rows = (await manager.query(
            `INSERT INTO posts (title, slug, summary, content, content_html, status, is_featured, author_id, published_at, created_at, updated_at,
                                view_count, like_count, reading_time)
             SELECT t, s, su, c, h, 'PUBLISHED', f, a, p, cr, up, v, l, r
               FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::text[], $5::text[], $6::boolean[], $7::int[],
                           $8::timestamptz[], $9::timestamptz[], $10::timestamptz[], $11::int[], $12::int[], $13::int[])
                    WITH ORDINALITY AS v(t, s, su, c, h, f, a, p, cr, up, v, l, r, ord)
              ORDER BY ord
             RETURNING id`,
            [cols.title, cols.slug, cols.summary, cols.content, cols.html, cols.featured, cols.author, cols.published, cols.created, cols.updated,
              cols.views, cols.likes, cols.reading],
          )) as { id: number }[];
          const postIds: number[] = [];
          const tagRefs: number[] = [];
          rows.forEach((row, i) => {
            for (const tagId of postTags[i]) {
              postIds.push(row.id);
              tagRefs.push(tagId);
            }
          });
          await manager.query(`INSERT INTO post_tags (post_id, tag_id) SELECT * FROM unnest($1::int[], $2::int[])`, [postIds, tagRefs]);
        });
        inserted += count;
        log(`${inserted}/${options.posts} posts`);
      }
      // Fresh statistics and visibility maps: the planner picks the list indexes, index-only scans work.
      await dataSource.query('VACUUM ANALYZE posts');
      await dataSource.query('VACUUM ANALYZE post_tags');
      await dataSource.query('VACUUM ANALYZE tags');
      await dataSource.query('VACUUM ANALYZE users');
      log('done');
    } finally {
      await dataSource.destroy();
    }
  });
}

seed(parseArgs(process.argv.slice(2))).catch((error: unknown) => {
  process.stderr.write(`seed:demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

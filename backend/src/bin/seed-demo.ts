import 'reflect-metadata';
import { DataSource, EntityManager } from 'typeorm';
import { PasswordHasher } from '../auth/password-hasher';
import { loadConfig } from '../config/env';
import { createDataSource, ensureDatabase } from '../database/data-source';
import { EmbeddedDatabase, runningEmbeddedPostgres, startEmbeddedPostgres } from '../database/embedded-postgres';
import { readingTimeOfWords, renderMarkdown, wordCountOf } from '../common/markdown';
import { slugify } from '../../../isomorphic/slug';
import { countedComment } from '../comments/visibility/counted-comment';
import { RoleName } from '../users/roles';
import { UserStatus } from '../users/entities/user.entity';
import { insertUsers, NewUserRow } from '../users/users.repository';
import { DEMO_ARTICLES } from './demo-articles';
import { seedDemoViews } from '../analytics/demo-views';

/**
 * `npm run seed:demo -- --posts 10000 [--readers 2000] [--likes 200000] [--comments 50000] [--users 100000] [--views 10000000] [--reset] [--seed 42]`:
 * a realistic demo data set on the configured database (DATABASE_URL, or the embedded one in
 * DATA_DIR, as the app uses it, through the running server's PostgreSQL when a server holds DATA_DIR,
 * which is then told to drop its caches; pending migrations run first). 50 authors (verified, ACTIVE,
 * AUTHOR, e-mails @demo.inkwell.test, password printed), ~40 tags, N posts of ~1,200 words spread
 * over two years with 1–4 tags, some featured, random views, in a mix of statuses (STATUS_MIX:
 * 80 % PUBLISHED; drafts, posts waiting for review, rejected ones with their rejecting review,
 * archived and private ones); readers (USER, same password) who like and comment on the
 * published posts; with --users, a back-office population: that many members with varied
 * Vietnamese and Western names, mixed statuses, verification and roles, joined over three years
 * (10,000 per statement), and a demo admin (admin@demo.inkwell.test, same password). Every
 * account (authors, readers, members, the demo admin) is written by the users module's
 * insertUsers, the function UsersService.create writes with. With --views, that many page views
 * over the last 90 days, rolled up (analytics/demo-views.ts); on a site already seeded, --views
 * alone replaces the views and keeps the rest. Deterministic for a given --seed.
 *
 * The first posts are the hand-written articles of demo-articles.ts (English and Vietnamese, their
 * own slugs and tags, published; min(--posts, their count)): the search bench's judged queries
 * look them up by slug. The rest are generated:
 * bodies are Markdown made of an intro paragraph and six sections drawn from a pool; every piece
 * goes through the real pipeline (renderMarkdown) once and a post's HTML is the concatenation of
 * its pieces' HTML (block-level pieces separated by blank lines render the same alone or joined;
 * section headings are distinct, so heading ids stay unique). Rows go in with multi-row INSERTs
 * of 500 per transaction.
 *
 * Likes and comments are set-based (INSERT ... SELECT over generate_series, random() seeded with
 * setseed() on one connection), readers and posts drawn with a skew: the first readers (who joined
 * first) are the most active, likes go to the most viewed posts, comments to the newest posts.
 * Likes are unique per (reader, post): draws that hit an existing pair are skipped (ON CONFLICT
 * DO NOTHING) and drawn again until the count is reached. Comments: about 60 % top level, then
 * replies to a random comment one level up, to level 3; a few comments with replies become
 * deleted placeholders ('', deleted_at), a few are edited. Every row is dated after its post was
 * published, its reader joined and (replies) its parent was written, up to now. At the end one
 * UPDATE from aggregates sets each demo comment's reply_count and each demo post's like_count and
 * comment_count (live comments), and every reader's count of liked published posts
 * (reader_like_counts), as LikesService, CommentsService and the post lifecycle keep them.
 */
const DEMO_DOMAIN = 'demo.inkwell.test';
const DEMO_PASSWORD = 'Demo-pass-2026!';
const AUTHORS = 50;
const BATCH = 500;
const SECTION_POOL = 400;
const SECTIONS_PER_POST = 6;
const COMMENT_TEXTS = 600;
/** Shares of the comments by level (0 = top level; replies to level 3, docs/requirements.md#constants-comments 'reply maxLevel 3'). */
const LEVEL_SHARES = [0.6, 0.25, 0.1, 0.05];
/** Shares of the comments with replies that become deleted placeholders, and of comments edited later. */
const DELETED_SHARE = 0.02;
const EDITED_SHARE = 0.04;
/** Post statuses by share (the rest PUBLISHED): the back-office lists and the author dashboards see every status. */
const STATUS_MIX: [string, number][] = [
  ['DRAFT', 0.07],
  ['PENDING_REVIEW', 0.05],
  ['REJECTED', 0.03],
  ['ARCHIVED', 0.03],
  ['PRIVATE', 0.02],
];
const REJECTION_REASONS = [
  'Please add sources for the figures.',
  'The title does not match the content.',
  'Too short: expand the examples.',
  'Duplicate of an earlier post.',
];
const BAN_REASONS = [
  'Spam in comments.',
  'Abusive language towards other readers.',
  'Impersonating another author.',
  'Repeated copyright violations.',
];
/** Back-office members per INSERT statement. */
const USER_BATCH = 10_000;
const DEMO_ADMIN = `admin@${DEMO_DOMAIN}`;

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

const FIRST = [
  'An',
  'Bao',
  'Chi',
  'Dung',
  'Giang',
  'Hanh',
  'Huy',
  'Khanh',
  'Linh',
  'Minh',
  'Nam',
  'Ngoc',
  'Phuong',
  'Quang',
  'Thao',
  'Trang',
  'Tuan',
  'Vy',
  'Alice',
  'Ben',
  'Clara',
  'David',
  'Elena',
  'Felix',
  'Grace',
  'Hugo',
  'Iris',
  'Jonas',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Paul',
];
const LAST = [
  'Nguyễn',
  'Trần',
  'Lê',
  'Phạm',
  'Hoàng',
  'Vũ',
  'Đặng',
  'Bùi',
  'Đỗ',
  'Hồ',
  'Ngô',
  'Dương',
  'Smith',
  'Garcia',
  'Müller',
  'Rossi',
  'Dubois',
  'Kowalski',
  'Silva',
  'Tanaka',
];
/** Members' names (--users): Vietnamese (family, middle, given) and Western (given, family), with the ASCII forms for e-mails. */
const VI_FAMILY = [
  'Nguyễn',
  'Trần',
  'Lê',
  'Phạm',
  'Hoàng',
  'Huỳnh',
  'Phan',
  'Vũ',
  'Võ',
  'Đặng',
  'Bùi',
  'Đỗ',
  'Hồ',
  'Ngô',
  'Dương',
  'Lý',
  'Đinh',
  'Trương',
  'Lâm',
  'Mai',
];
const VI_MIDDLE = [
  'Văn',
  'Thị',
  'Minh',
  'Hữu',
  'Đức',
  'Thanh',
  'Ngọc',
  'Quốc',
  'Gia',
  'Xuân',
  'Thu',
  'Kim',
  'Bảo',
  'Anh',
  'Hoài',
  'Phương',
];
const VI_GIVEN = [
  'An',
  'Bình',
  'Châu',
  'Dũng',
  'Giang',
  'Hà',
  'Hạnh',
  'Hiếu',
  'Hùng',
  'Huy',
  'Khánh',
  'Khoa',
  'Lan',
  'Linh',
  'Long',
  'Mai',
  'Minh',
  'Nam',
  'Nga',
  'Ngân',
  'Nhung',
  'Phong',
  'Phúc',
  'Quân',
  'Quỳnh',
  'Sơn',
  'Tâm',
  'Thảo',
  'Thắng',
  'Thủy',
  'Trang',
  'Trung',
  'Tú',
  'Tuấn',
  'Uyên',
  'Việt',
  'Vy',
  'Yến',
];
const WE_GIVEN = [
  'Alice',
  'Amelia',
  'Ben',
  'Carlos',
  'Chloe',
  'Clara',
  'Daniel',
  'David',
  'Elena',
  'Emma',
  'Felix',
  'Grace',
  'Hannah',
  'Hugo',
  'Iris',
  'Isabel',
  'Jack',
  'Jonas',
  'Julia',
  'Kira',
  'Lars',
  'Laura',
  'Liam',
  'Lucas',
  'Maya',
  'Marco',
  'Nina',
  'Noah',
  'Olga',
  'Oscar',
  'Paul',
  'Priya',
  'Rafael',
  'Sara',
  'Sofia',
  'Tom',
  'Victor',
  'Yuki',
  'Zoe',
];
const WE_FAMILY = [
  'Smith',
  'Johnson',
  'Garcia',
  'Martinez',
  'Müller',
  'Schmidt',
  'Rossi',
  'Russo',
  'Dubois',
  'Moreau',
  'Kowalski',
  'Nowak',
  'Silva',
  'Santos',
  'Tanaka',
  'Suzuki',
  'Kim',
  'Park',
  'Jensen',
  'Larsen',
  'Novak',
  'Horvat',
  'Papadopoulos',
  "O'Brien",
  'Fischer',
  'Weber',
  'Costa',
  'Ferreira',
  'Patel',
  'Singh',
];
const ascii = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

/** The demo articles' tags that TAGS lacks: only those articles carry them. */
const ARTICLE_TAGS = [...new Set(DEMO_ARTICLES.flatMap((article) => article.tags))];
const TAGS = [
  'JavaScript',
  'TypeScript',
  'Node.js',
  'React',
  'Astro',
  'NestJS',
  'PostgreSQL',
  'Databases',
  'DevOps',
  'Docker',
  'Kubernetes',
  'Linux',
  'Security',
  'Performance',
  'Testing',
  'Accessibility',
  'CSS',
  'Design',
  'UX',
  'Career',
  'Productivity',
  'Open Source',
  'Architecture',
  'APIs',
  'Rust',
  'Go',
  'Python',
  'Machine Learning',
  'Data Science',
  'Cloud',
  'Networking',
  'Mobile',
  'Web Performance',
  'Tutorials',
  'Opinion',
  'Writing',
  'Startups',
  'Management',
  'Du lịch',
  'Ẩm thực',
];
const COLORS = ['#2563eb', '#16a34a', '#dc2626', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777', '#4f46e5', '#059669'];

/** A post's status for a draw u in [0, 1): STATUS_MIX's shares, the rest PUBLISHED. */
function postStatus(u: number): string {
  let edge = 0;
  for (const [status, share] of STATUS_MIX) {
    edge += share;
    if (u < edge) return status;
  }
  return 'PUBLISHED';
}

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
  /** Demo readers (reader-N@demo.inkwell.test); default posts / 5 (at least 50). */
  readers: number;
  /** Likes by the readers on the demo posts; default 20 per post. */
  likes: number;
  /** Comments and replies by the readers on the demo posts; default 5 per post. */
  comments: number;
  /** Back-office members (varied names, statuses, roles) and the demo admin; default 0. */
  users: number;
  /** Page views over the last 90 days (analytics), replacing any; default 0. */
  views: number;
  reset: boolean;
  seed: number;
}

const USAGE = 'usage: seed-demo [--posts N] [--readers N] [--likes N] [--comments N] [--users N] [--views N] [--reset] [--seed S]';

function parseArgs(argv: string[]): Options {
  const given: Partial<Record<'posts' | 'readers' | 'likes' | 'comments' | 'users' | 'views' | 'seed', number>> = {};
  let reset = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--reset') reset = true;
    else if (['--posts', '--readers', '--likes', '--comments', '--users', '--views', '--seed'].includes(arg)) {
      const value = Number(argv[(i += 1)]);
      if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${arg} needs a whole number`);
      given[arg.slice(2) as keyof typeof given] = value;
    } else throw new Error(`unknown option ${arg}; ${USAGE}`);
  }
  const posts = given.posts ?? 1000;
  const options: Options = {
    posts,
    readers: given.readers ?? Math.max(50, Math.round(posts / 5)),
    likes: given.likes ?? posts * 20,
    comments: given.comments ?? posts * 5,
    users: given.users ?? 0,
    views: given.views ?? 0,
    reset,
    seed: given.seed ?? 42,
  };
  // Likes are unique per (reader, post); past half of the pairs the skewed draws would mostly miss.
  if (options.likes > 0.5 * options.readers * options.posts) {
    throw new Error(
      `--likes ${options.likes} is more than half of readers x posts (${options.readers} x ${options.posts}); add --readers or --posts`,
    );
  }
  if ((options.likes > 0 || options.comments > 0) && (options.readers === 0 || options.posts === 0)) {
    throw new Error('likes and comments need --readers and --posts above 0');
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
  const parts = [
    `## ${heading}`,
    text.paragraph(5),
    `${text.paragraph(3)} See [${text.words(2)}](https://example.com/guide/${index}) for more.`,
  ];
  parts.push(Array.from({ length: text.int(3, 5) }, () => `- ${text.words(text.int(4, 9))}`).join('\n'));
  if (index % 2 === 0)
    parts.push(
      '```ts\n' +
        `const ${text.pick(['total', 'count', 'result', 'page'])} = await ${text.pick(['load', 'fetch', 'compute'])}(${index});\nconsole.log(${index});\n` +
        '```',
    );
  else parts.push(`> ${text.sentence()}`);
  parts.push(text.paragraph(4));
  return parts.join('\n\n');
}

/**
 * The hand-written articles (demo-articles.ts), published by the first authors in turn, one every
 * 19 days back from today, with their tags (created when missing). Deterministic: no draws, so
 * the generated posts that follow get the same draws whatever the articles say.
 */
async function insertArticles(
  dataSource: DataSource,
  articles: readonly (typeof DEMO_ARTICLES)[number][],
  authorIds: number[],
): Promise<number> {
  if (articles.length === 0) return 0;
  const tagNames = [...new Set(articles.flatMap((article) => article.tags))];
  return dataSource.transaction(async (manager) => {
    await manager.query(
      `INSERT INTO tags (name, slug, description, color, is_active)
       SELECT n, s, 'Posts about ' || n || '.', $3, true FROM unnest($1::varchar[], $2::varchar[]) AS v(n, s)
       ON CONFLICT DO NOTHING`,
      [tagNames, tagNames.map((name) => slugify(name, 100)), COLORS[0]],
    );
    const day = 24 * 3600 * 1000;
    const now = Date.now();
    const published = articles.map((_article, i) => new Date(now - (i * 19 + 5) * day));
    const rows = (await manager.query(
      `INSERT INTO posts (title, slug, summary, content, content_html, status, is_featured, author_id, published_at, created_at, updated_at,
                          view_count, reading_time, word_count)
       SELECT t, s, su, c, h, 'PUBLISHED', false, a, p, p - interval '2 hours', p, v, r, w
         FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::text[], $5::text[], $6::int[], $7::timestamptz[], $8::int[], $9::int[], $10::int[])
              WITH ORDINALITY AS v(t, s, su, c, h, a, p, v, r, w, ord)
        ORDER BY ord
       RETURNING id`,
      [
        articles.map((article) => article.title),
        articles.map((article) => article.slug),
        articles.map((article) => article.summary),
        articles.map((article) => article.markdown),
        articles.map((article) => renderMarkdown(article.markdown)),
        articles.map((_article, i) => authorIds[i % authorIds.length]),
        published.map((date) => date.toISOString()),
        articles.map((_article, i) => 400 + ((i * 733) % 5000)),
        articles.map((article) => readingTimeOfWords(wordCountOf(article.markdown))),
        articles.map((article) => wordCountOf(article.markdown)),
      ],
    )) as { id: number }[];
    await manager.query(
      `INSERT INTO post_tags (post_id, tag_id)
       SELECT v.p, t.id FROM unnest($1::int[], $2::varchar[]) AS v(p, s) JOIN tags t ON t.slug = v.s`,
      [
        articles.flatMap((article, i) => article.tags.map(() => rows[i].id)),
        articles.flatMap((article) => article.tags.map((name) => slugify(name, 100))),
      ],
    );
    return rows.length;
  });
}

const DAY_MS = 24 * 3600 * 1000;

/** Every reader's count of liked PUBLISHED posts from the rows, as LikesService and the post lifecycle keep it (reader_like_counts). */
async function rebuildReaderLikeCounts(manager: EntityManager): Promise<void> {
  await manager.query(`DELETE FROM reader_like_counts`);
  await manager.query(
    `INSERT INTO reader_like_counts (user_id, published_likes)
     SELECT l.user_id, count(*)::int FROM likes l JOIN posts p ON p.id = l.post_id AND p.status = 'PUBLISHED' GROUP BY l.user_id`,
  );
}

/** Readers: verified, ACTIVE, role USER, joined over the last two years (reader-1 first). */
async function insertReaders(dataSource: DataSource, count: number, passwordHash: string, text: Text): Promise<number[]> {
  if (count === 0) return [];
  const now = Date.now();
  const rows = Array.from({ length: count }, (_v, k): NewUserRow => {
    // reader k joined (790 - 760 k / count) days ago: the first readers are the oldest members.
    const joined = new Date(now - (790 - (760 * k) / count) * DAY_MS);
    return {
      fullName: `${FIRST[(k * 5 + 3) % FIRST.length]} ${LAST[(k + Math.floor(k / FIRST.length)) % LAST.length]}`,
      email: `reader-${k + 1}@${DEMO_DOMAIN}`,
      passwordHash,
      status: UserStatus.ACTIVE,
      isVerified: true,
      emailVerifiedAt: joined,
      bio: k % 3 === 0 ? text.sentence().slice(0, 480) : null,
      roles: [RoleName.USER],
      createdAt: joined,
      updatedAt: joined,
      lastLoginAt: new Date(now - (k % 30) * DAY_MS),
    };
  });
  return dataSource.transaction(async (manager) => {
    const ids: number[] = [];
    for (let start = 0; start < count; start += USER_BATCH)
      ids.push(...(await insertUsers(manager, rows.slice(start, start + USER_BATCH))));
    return ids;
  });
}

/**
 * Back-office members: `count` users drawn with the seeded PRNG (so a --seed repeats), written
 * USER_BATCH at a time through the users module's insertUsers. Half Vietnamese names (family
 * middle given), half Western (given family); e-mails `given.family.N@demo.inkwell.test` in
 * ASCII. Statuses: 78 % ACTIVE (verified), 12 % PENDING (not verified), 5 % INACTIVE (70 %
 * verified), 5 % BANNED (verified, with an open ban and its reason). Roles: 1.5 % none (shown as
 * USER), then USER, 5 % AUTHOR, 0.1 % ADMIN. Joined over the last three years, more of them
 * recently (now - 1095 days x u^1.6); ACTIVE members signed in since.
 */
async function insertMembers(
  dataSource: DataSource,
  count: number,
  passwordHash: string,
  seed: number,
  log: (line: string) => void,
): Promise<number> {
  if (count === 0) return 0;
  const random = rng(seed ^ 0x5eed);
  const pick = <T>(list: readonly T[], u: number): T => list[Math.floor(u * list.length)];
  const now = Date.now();
  const member = (i: number): NewUserRow => {
    const [kind, a, b, c, st, ver, role, joined, seen] = Array.from({ length: 9 }, random);
    const vietnamese = kind < 0.5;
    const fullName = vietnamese
      ? `${pick(VI_FAMILY, a)} ${pick(VI_MIDDLE, b)} ${pick(VI_GIVEN, c)}`
      : `${pick(WE_GIVEN, a)} ${pick(WE_FAMILY, b)}`;
    const local = vietnamese
      ? `${ascii(pick(VI_GIVEN, c))}.${ascii(pick(VI_FAMILY, a))}`
      : `${ascii(pick(WE_GIVEN, a))}.${ascii(pick(WE_FAMILY, b))}`;
    const status = st < 0.78 ? UserStatus.ACTIVE : st < 0.9 ? UserStatus.PENDING : st < 0.95 ? UserStatus.INACTIVE : UserStatus.BANNED;
    const verified = status === UserStatus.ACTIVE || status === UserStatus.BANNED || (status === UserStatus.INACTIVE && ver < 0.7);
    const roles = role < 0.015 ? [] : role < 0.949 ? [RoleName.USER] : role < 0.999 ? [RoleName.AUTHOR] : [RoleName.ADMIN];
    const created = now - Math.pow(joined, 1.6) * 1095 * DAY_MS;
    const lastSeen = new Date(created + seen * (now - created));
    return {
      fullName,
      email: `${local}.${i}@${DEMO_DOMAIN}`,
      passwordHash,
      status,
      isVerified: verified,
      emailVerifiedAt: verified ? new Date(created + 3 * 60_000) : null,
      roles,
      // Banned members carry an open ban with its reason, as the admin area keeps bans.
      ban: status === UserStatus.BANNED ? { reason: BAN_REASONS[i % BAN_REASONS.length], at: lastSeen } : undefined,
      createdAt: new Date(created),
      updatedAt: lastSeen,
      lastLoginAt: status === UserStatus.ACTIVE ? lastSeen : null,
    };
  };
  return dataSource.transaction(async (manager) => {
    let inserted = 0;
    for (let start = 1; start <= count; start += USER_BATCH) {
      const end = Math.min(count, start + USER_BATCH - 1);
      const rows = Array.from({ length: end - start + 1 }, (_v, k) => member(start + k)).sort(
        (x, y) => Number(x.createdAt) - Number(y.createdAt),
      );
      inserted += (await insertUsers(manager, rows)).length;
      if (end % 50_000 === 0 || end === count) log(`${inserted}/${count} members`);
    }
    return inserted;
  });
}

interface Activity {
  likes: number;
  likesSeconds: number;
  comments: number;
  deleted: number;
  commentsSeconds: number;
  countersSeconds: number;
}

/**
 * The readers' likes and comments on the demo posts, set-based on one connection (the caller's
 * transaction), so that setseed() makes random() repeat for a given --seed. Draws are skewed with
 * powers of random(): reader k = floor(R * u^2) (the first readers are the busiest), liked post =
 * the k-th most viewed with k = floor(P * u^1.5), commented post = the k-th newest with
 * k = floor(P * u^3). A row is dated between max(post published, reader joined[, parent written])
 * and now (replies soon after their parent). Ends with the counters from aggregates.
 */
async function insertActivity(
  manager: EntityManager,
  options: Options,
  authorIds: number[],
  readerIds: number[],
  commentTexts: string[],
  log: (line: string) => void,
): Promise<Activity> {
  const count = async (sql: string, params: unknown[]): Promise<number> => ((await manager.query(sql, params)) as { n: number }[])[0].n;
  await manager.query(`SELECT setseed($1)`, [((options.seed % 2000) - 1000) / 1000]);
  await manager.query(
    `CREATE TEMP TABLE seed_readers ON COMMIT DROP AS
       SELECT (ord - 1)::int AS k, u.id, u.created_at FROM unnest($1::int[]) WITH ORDINALITY AS v(id, ord) JOIN users u ON u.id = v.id`,
    [readerIds],
  );
  await manager.query(
    `CREATE TEMP TABLE seed_posts ON COMMIT DROP AS
       SELECT id, published_at,
              (row_number() OVER (ORDER BY view_count DESC, id) - 1)::int AS by_views,
              (row_number() OVER (ORDER BY published_at DESC, id) - 1)::int AS by_recency
         FROM posts WHERE author_id = ANY($1::int[]) AND status = 'PUBLISHED'`,
    [authorIds],
  );
  await manager.query(`CREATE UNIQUE INDEX ON seed_readers (k)`);
  await manager.query(`CREATE UNIQUE INDEX ON seed_posts (by_views)`);
  await manager.query(`CREATE UNIQUE INDEX ON seed_posts (by_recency)`);
  await manager.query(`ANALYZE seed_readers`);
  await manager.query(`ANALYZE seed_posts`);
  const readers = readerIds.length;
  const posts = await count(`SELECT count(*)::int AS n FROM seed_posts`, []);

  // Likes: draw the missing number again until every like is in (a drawn pair that exists is skipped).
  const likesStarted = Date.now();
  let likes = 0;
  let rounds = 0;
  for (; likes < options.likes && posts > 0 && readers > 0; rounds += 1) {
    if (rounds === 50)
      throw new Error(`only ${likes} of ${options.likes} likes after 50 rounds: too many likes for ${readers} readers x ${posts} posts`);
    likes += await count(
      `WITH drawn AS (
         SELECT floor(power(random(), 2) * $2)::int AS rk, floor(power(random(), 1.5) * $3)::int AS pk, random() AS u
           FROM generate_series(1, $1)),
       ins AS (
         INSERT INTO likes (user_id, post_id, created_at)
         SELECT r.id, p.id, greatest(p.published_at, r.created_at) + d.u * (now() - greatest(p.published_at, r.created_at)) AS at
           FROM drawn d JOIN seed_readers r ON r.k = d.rk JOIN seed_posts p ON p.by_views = d.pk
          ORDER BY at
         ON CONFLICT DO NOTHING
         RETURNING 1)
       SELECT count(*)::int AS n FROM ins`,
      [options.likes - likes, readers, posts],
    );
  }
  // Statistics for the statements below (autovacuum cannot see this transaction's rows).
  await manager.query(`ANALYZE likes`);
  const likesSeconds = (Date.now() - likesStarted) / 1000;
  log(`${likes} likes in ${likesSeconds.toFixed(1)} s (${rounds} draws)`);

  // Comments: top level on the demo posts, then each level replies to the one above.
  const commentsStarted = Date.now();
  const perLevel = LEVEL_SHARES.map((share) => Math.floor(options.comments * share));
  perLevel[0] += options.comments - perLevel.reduce((sum, n) => sum + n, 0);
  // updated_at: a few comments were edited a little later ('(edited)'), never after now.
  const edited = `CASE WHEN d.e < ${EDITED_SHARE} THEN least(now(), x.at + (1 + d.e * 1000) * interval '1 minute') ELSE x.at END`;
  let comments = 0;
  if (posts > 0 && readers > 0 && perLevel[0] > 0) {
    comments += await count(
      `WITH drawn AS (
         SELECT floor(power(random(), 2) * $2)::int AS rk, floor(power(random(), 3) * $3)::int AS pk,
                1 + floor(random() * cardinality($4::varchar[]))::int AS c, random() AS u, random() AS e
           FROM generate_series(1, $1)),
       ins AS (
         INSERT INTO comments (post_id, user_id, parent_id, content, level, created_at, updated_at)
         SELECT x.post_id, x.user_id, NULL, x.content, 0, x.at, ${edited}
           FROM drawn d
           JOIN seed_readers r ON r.k = d.rk
           JOIN seed_posts p ON p.by_recency = d.pk
           CROSS JOIN LATERAL (SELECT p.id AS post_id, r.id AS user_id, ($4::varchar[])[d.c] AS content,
                                      greatest(p.published_at, r.created_at) + d.u * (now() - greatest(p.published_at, r.created_at)) AS at) x
          ORDER BY x.at
         RETURNING 1)
       SELECT count(*)::int AS n FROM ins`,
      [perLevel[0], readers, posts, commentTexts],
    );
    for (let level = 1; level < perLevel.length && perLevel[level] > 0; level += 1) {
      await manager.query(`ANALYZE comments`);
      await manager.query(`DROP TABLE IF EXISTS seed_parents`);
      await manager.query(
        `CREATE TEMP TABLE seed_parents ON COMMIT DROP AS
           SELECT (row_number() OVER (ORDER BY c.id) - 1)::int AS k, c.id, c.post_id, c.created_at
             FROM comments c JOIN seed_posts p ON p.id = c.post_id WHERE c.level = $1`,
        [level - 1],
      );
      await manager.query(`CREATE UNIQUE INDEX ON seed_parents (k)`);
      await manager.query(`ANALYZE seed_parents`);
      const parents = await count(`SELECT count(*)::int AS n FROM seed_parents`, []);
      if (parents === 0) break;
      comments += await count(
        `WITH drawn AS (
           SELECT floor(random() * $3)::int AS pk, floor(power(random(), 2) * $2)::int AS rk,
                  1 + floor(random() * cardinality($4::varchar[]))::int AS c, random() AS u, random() AS e
             FROM generate_series(1, $1)),
         ins AS (
           INSERT INTO comments (post_id, user_id, parent_id, content, level, created_at, updated_at)
           SELECT x.post_id, x.user_id, x.parent_id, x.content, $5, x.at, ${edited}
             FROM drawn d
             JOIN seed_parents pa ON pa.k = d.pk
             JOIN seed_readers r ON r.k = d.rk
             CROSS JOIN LATERAL (SELECT pa.post_id, r.id AS user_id, pa.id AS parent_id, ($4::varchar[])[d.c] AS content,
                                        greatest(pa.created_at, r.created_at) + power(d.u, 4) * (now() - greatest(pa.created_at, r.created_at)) AS at) x
            ORDER BY x.at
           RETURNING 1)
         SELECT count(*)::int AS n FROM ins`,
        [perLevel[level], readers, parents, commentTexts, level],
      );
    }
  }
  await manager.query(`ANALYZE comments`);
  // reply_count: the reply rows right under each comment (placeholders included, as rows stay).
  await manager.query(
    `UPDATE comments c SET reply_count = s.n
       FROM (SELECT r.parent_id, count(*)::int AS n FROM comments r JOIN seed_posts p ON p.id = r.post_id WHERE r.parent_id IS NOT NULL GROUP BY r.parent_id) s
      WHERE c.id = s.parent_id AND c.reply_count <> s.n`,
  );
  // Deleted placeholders: a few comments with replies, content wiped (CommentsService.remove).
  const deleted = await count(
    `WITH gone AS (
       UPDATE comments c SET content = '', deleted_at = c.created_at + random() * (now() - c.created_at)
        WHERE c.id IN (SELECT c2.id FROM comments c2 JOIN seed_posts p ON p.id = c2.post_id WHERE c2.reply_count > 0 AND random() < $1)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [DELETED_SHARE],
  );
  const commentsSeconds = (Date.now() - commentsStarted) / 1000;
  log(`${comments} comments (levels ${perLevel.join('/')}, ${deleted} deleted placeholders) in ${commentsSeconds.toFixed(1)} s`);

  // The posts' counters in one UPDATE from aggregates: likes, and the comments that count (not deleted, VISIBLE).
  const countersStarted = Date.now();
  await manager.query(
    `UPDATE posts p SET like_count = a.likes, comment_count = a.comments
       FROM (SELECT sp.id, coalesce(l.n, 0) AS likes, coalesce(c.n, 0) AS comments
               FROM seed_posts sp
               LEFT JOIN (SELECT post_id, count(*)::int AS n FROM likes GROUP BY post_id) l ON l.post_id = sp.id
               LEFT JOIN (SELECT post_id, count(*)::int AS n FROM comments WHERE ${countedComment()} GROUP BY post_id) c ON c.post_id = sp.id) a
      WHERE p.id = a.id AND (p.like_count, p.comment_count) IS DISTINCT FROM (a.likes, a.comments)`,
  );
  await rebuildReaderLikeCounts(manager);
  const countersSeconds = (Date.now() - countersStarted) / 1000;
  log(`like_count, comment_count, reply_count and the readers' like counts from aggregates in ${countersSeconds.toFixed(1)} s`);
  return { likes, likesSeconds, comments, deleted, commentsSeconds, countersSeconds };
}

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  if (config.databaseUrl) return work(config.databaseUrl);
  // A server running on DATA_DIR holds its PostgreSQL: seed through it, then have it drop its caches.
  const running = runningEmbeddedPostgres(config.dataDir);
  if (running) {
    process.stdout.write(`DATA_DIR ${config.dataDir} belongs to the running Inkwell (pid ${running.serverPid}): seeding its database\n`);
    const result = await work(await ensureDatabase(running.url, 'inkwell'));
    process.kill(running.serverPid, running.resyncSignal);
    process.stdout.write(`told the running Inkwell (pid ${running.serverPid}) to drop its caches\n`);
    return result;
  }
  let embedded: EmbeddedDatabase | undefined;
  try {
    embedded = await startEmbeddedPostgres(config.dataDir, (line) => process.stdout.write(`${line}\n`));
    return await work(await ensureDatabase(embedded.url, 'inkwell'));
  } finally {
    await embedded?.stop();
  }
}

/**
 * The search triggers (migration CreatePostSearch) would build a new post's document on INSERT
 * and rewrite it when its tags go in (post_tags' trigger: a second head and row version). A batch
 * turns them off in its own transaction (ALTER TABLE is transactional and locks both tables until
 * commit: no other session writes while they are off), builds each document once after the tags
 * with the migration's own function, and turns them on again before it commits. Same documents;
 * 500 posts in 0.79 s instead of 0.93 s (database side, best of six).
 */
async function setSearchTriggers(manager: EntityManager, enabled: boolean): Promise<void> {
  const action = enabled ? 'ENABLE' : 'DISABLE';
  await manager.query(`ALTER TABLE posts ${action} TRIGGER "TRG_posts_search_document"`);
  await manager.query(`ALTER TABLE post_tags ${action} TRIGGER "TRG_post_tags_search_insert"`);
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

      const existing = (await dataSource.query(`SELECT count(*)::int AS n FROM users WHERE email LIKE $1`, [`%@${DEMO_DOMAIN}`])) as {
        n: number;
      }[];
      if (existing[0].n > 0) {
        if (!options.reset) {
          log(`demo data is already there (${existing[0].n} demo users); run with --reset to replace it`);
          // --views alone on a seeded site: the views are replaced, the rest kept.
          if (options.views > 0)
            await seedDemoViews(
              dataSource,
              options.views,
              options.seed,
              loadConfig({ ...process.env, LOG_LEVEL: 'silent' }).analytics.rawDays,
              log,
            );
          return;
        }
        await dataSource.transaction(async (manager) => {
          const demoUsers = `SELECT id FROM users WHERE email LIKE $1`;
          // Set-based first (the FK cascades would go row by row): the demo readers' likes (on
          // any post) and the likes and comments on the demo posts.
          const unliked = (await manager.query(
            `WITH gone AS (
               DELETE FROM likes l
                WHERE l.user_id IN (${demoUsers}) OR l.post_id IN (SELECT p.id FROM posts p WHERE p.author_id IN (${demoUsers}))
                RETURNING l.post_id)
             SELECT DISTINCT post_id FROM gone`,
            [`%@${DEMO_DOMAIN}`],
          )) as { post_id: number }[];
          await manager.query(`DELETE FROM comments WHERE post_id IN (SELECT p.id FROM posts p WHERE p.author_id IN (${demoUsers}))`, [
            `%@${DEMO_DOMAIN}`,
          ]);
          // Their posts (and those posts' tags and reviews) go with them (FK cascade); their
          // comments on other posts stay, without an author, as for any removed account.
          await manager.query(`DELETE FROM users WHERE email LIKE $1`, [`%@${DEMO_DOMAIN}`]);
          await manager.query(
            `DELETE FROM tags t WHERE t.slug = ANY($1::varchar[]) AND NOT EXISTS (SELECT 1 FROM post_tags pt WHERE pt.tag_id = t.id)`,
            [[...TAGS, ...ARTICLE_TAGS].map((name) => slugify(name, 100))],
          );
          // Other posts the demo readers liked count their remaining likes.
          await manager.query(
            `UPDATE posts p SET like_count = (SELECT count(*) FROM likes l WHERE l.post_id = p.id) WHERE p.id = ANY($1::int[])`,
            [unliked.map((row) => row.post_id)],
          );
          // Other readers' likes of the demo posts went with them.
          await rebuildReaderLikeCounts(manager);
        });
        log('removed the previous demo data');
      }

      const random = rng(options.seed);
      const text = new Text(random);
      // The server's pepper (PASSWORD_PEPPER or DATA_DIR/secrets.json), so the demo accounts can sign in.
      const passwordHash = await new PasswordHasher(loadConfig({ ...process.env, LOG_LEVEL: 'silent' })).hash(DEMO_PASSWORD);

      // Authors
      const names = Array.from({ length: AUTHORS }, (_v, i) => `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`);
      const authorsJoined = new Date(Date.now() - 800 * DAY_MS);
      const authorIds = await dataSource.transaction((manager) =>
        insertUsers(
          manager,
          names.map((fullName, i) => ({
            fullName,
            email: `author-${i + 1}@${DEMO_DOMAIN}`,
            passwordHash,
            status: UserStatus.ACTIVE,
            isVerified: true,
            emailVerifiedAt: new Date(),
            bio: text.paragraph(2).slice(0, 480),
            roles: [RoleName.AUTHOR],
            createdAt: authorsJoined,
            updatedAt: new Date(),
          })),
        ),
      );
      log(`${authorIds.length} authors (author-1..${AUTHORS}@${DEMO_DOMAIN}, password ${DEMO_PASSWORD})`);

      // Tags (existing ones with the same slug are reused)
      const tagSlugs = TAGS.map((name) => slugify(name, 100));
      await dataSource.query(
        `INSERT INTO tags (name, slug, description, color, is_active)
         SELECT n, s, d, c, true FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[]) AS v(n, s, d, c)
         ON CONFLICT DO NOTHING`,
        [TAGS, tagSlugs, TAGS.map((name) => `Posts about ${name}.`), TAGS.map((_n, i) => COLORS[i % COLORS.length])],
      );
      const tagIds = (
        (await dataSource.query(`SELECT id FROM tags WHERE slug = ANY($1::varchar[]) AND is_active`, [tagSlugs])) as { id: number }[]
      ).map((row) => row.id);
      log(`${tagIds.length} tags`);

      // A pool of rendered sections with distinct headings
      const headings = new Set<string>();
      while (headings.size < SECTION_POOL) headings.add(text.title());
      const pool = [...headings].map((heading, i) => {
        const markdown = section(text, heading, i);
        return { markdown, html: renderMarkdown(markdown) };
      });
      log(`rendered ${pool.length} sections`);

      const articles = await insertArticles(dataSource, DEMO_ARTICLES.slice(0, options.posts), authorIds);
      log(`${articles} hand-written articles (demo-articles.ts)`);
      const generatedPosts = options.posts - articles;

      const now = Date.now();
      const twoYears = 730 * 24 * 3600 * 1000;
      const postsStarted = Date.now();
      let inserted = 0;
      while (inserted < generatedPosts) {
        const count = Math.min(BATCH, generatedPosts - inserted);
        const cols = {
          title: [] as string[],
          slug: [] as string[],
          summary: [] as string[],
          content: [] as string[],
          html: [] as string[],
          featured: [] as boolean[],
          author: [] as number[],
          published: [] as (string | null)[],
          created: [] as string[],
          updated: [] as string[],
          views: [] as number[],
          reading: [] as number[],
          words: [] as number[],
          status: [] as string[],
          reason: [] as (string | null)[],
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
          const status = postStatus(random());
          // Drafts, posts waiting for review and rejected ones were never published: no views, no publishedAt.
          const wasPublished = status === 'PUBLISHED' || status === 'ARCHIVED' || status === 'PRIVATE';
          const views = wasPublished ? Math.floor(Math.pow(random(), 3) * 20000) : 0;
          cols.title.push(title);
          cols.slug.push(`${slugify(title, 180)}-${n.toString(36)}`);
          cols.summary.push(text.paragraph(2).slice(0, 900));
          cols.content.push(markdown);
          cols.html.push(html);
          cols.featured.push(random() < 0.03 && status === 'PUBLISHED');
          cols.author.push(authorIds[Math.floor(Math.pow(random(), 1.5) * authorIds.length)]);
          cols.published.push(wasPublished ? new Date(publishedAt).toISOString() : null);
          cols.status.push(status);
          cols.reason.push(status === 'REJECTED' ? text.pick(REJECTION_REASONS) : null);
          cols.created.push(new Date(publishedAt - text.int(1, 240) * 3600 * 1000).toISOString());
          cols.updated.push(new Date(Math.min(now, publishedAt + text.int(0, 72) * 3600 * 1000)).toISOString());
          cols.views.push(views);
          const words = wordCountOf(markdown);
          cols.words.push(words);
          cols.reading.push(readingTimeOfWords(words));
          const tags = new Set<number>();
          const wanted = text.int(1, Math.min(4, tagIds.length));
          while (tags.size < wanted) tags.add(tagIds[Math.floor(Math.pow(random(), 1.3) * tagIds.length)]);
          postTags.push([...tags]);
        }
        await dataSource.transaction(async (manager) => {
          await setSearchTriggers(manager, false);
          const rows = (await manager.query(
            `INSERT INTO posts (title, slug, summary, content, content_html, status, is_featured, author_id, published_at, created_at, updated_at,
                                view_count, reading_time, word_count)
             SELECT t, s, su, c, h, st, f, a, p, cr, up, v, r, w
               FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::text[], $5::text[], $6::boolean[], $7::int[],
                           $8::timestamptz[], $9::timestamptz[], $10::timestamptz[], $11::int[], $12::int[], $13::varchar[], $14::int[])
                    WITH ORDINALITY AS v(t, s, su, c, h, f, a, p, cr, up, v, r, st, w, ord)
              ORDER BY ord
             RETURNING id`,
            [
              cols.title,
              cols.slug,
              cols.summary,
              cols.content,
              cols.html,
              cols.featured,
              cols.author,
              cols.published,
              cols.created,
              cols.updated,
              cols.views,
              cols.reading,
              cols.status,
              cols.words,
            ],
          )) as { id: number }[];
          // A rejected post carries the review that rejected it (the author sees the reason).
          const rejected = rows
            .map((row, i) => ({ id: row.id, reason: cols.reason[i], at: cols.updated[i] }))
            .filter((row) => row.reason !== null);
          if (rejected.length) {
            await manager.query(
              `INSERT INTO post_reviews (post_id, status, rejection_reason, created_at, updated_at) SELECT p, 'REJECTED', r, t, t FROM unnest($1::int[], $2::varchar[], $3::timestamptz[]) AS v(p, r, t)`,
              [rejected.map((row) => row.id), rejected.map((row) => row.reason), rejected.map((row) => row.at)],
            );
          }
          const postIds: number[] = [];
          const tagRefs: number[] = [];
          rows.forEach((row, i) => {
            for (const tagId of postTags[i]) {
              postIds.push(row.id);
              tagRefs.push(tagId);
            }
          });
          await manager.query(`INSERT INTO post_tags (post_id, tag_id) SELECT * FROM unnest($1::int[], $2::int[])`, [postIds, tagRefs]);
          // Each document once, tags included (migration CreatePostSearch's own backfill function).
          await manager.query(`SELECT inkwell_refresh_post_documents($1::int[])`, [rows.map((row) => row.id)]);
          await setSearchTriggers(manager, true);
        });
        inserted += count;
        if (inserted % 2500 === 0 || inserted === generatedPosts) log(`${inserted}/${generatedPosts} generated posts`);
      }
      const postsSeconds = (Date.now() - postsStarted) / 1000;

      // Readers, their likes and comments, then the counters from aggregates.
      const readersStarted = Date.now();
      const readerIds = await insertReaders(dataSource, options.readers, passwordHash, text);
      const readersSeconds = (Date.now() - readersStarted) / 1000;
      log(
        `${readerIds.length} readers (reader-1..${options.readers}@${DEMO_DOMAIN}, password ${DEMO_PASSWORD}) in ${readersSeconds.toFixed(1)} s`,
      );
      // The back-office population (--users) and the demo admin who looks after it.
      const membersStarted = Date.now();
      const members = await insertMembers(dataSource, options.users, passwordHash, options.seed, log);
      if (options.users > 0) {
        const joined = new Date(Date.now() - 800 * DAY_MS);
        await dataSource.transaction((manager) =>
          insertUsers(manager, [
            {
              fullName: 'Demo Admin',
              email: DEMO_ADMIN,
              passwordHash,
              status: UserStatus.ACTIVE,
              isVerified: true,
              emailVerifiedAt: joined,
              roles: [RoleName.ADMIN],
              createdAt: joined,
              updatedAt: new Date(),
            },
          ]),
        );
      }
      const membersSeconds = (Date.now() - membersStarted) / 1000;
      if (options.users > 0)
        log(`${members} members and the demo admin (${DEMO_ADMIN}, password ${DEMO_PASSWORD}) in ${membersSeconds.toFixed(1)} s`);
      const commentTexts = Array.from({ length: COMMENT_TEXTS }, () => text.paragraph(text.int(1, 3)).slice(0, 200).trim());
      const activity = await dataSource.transaction((manager) => insertActivity(manager, options, authorIds, readerIds, commentTexts, log));

      // Fresh statistics and visibility maps: the planner picks the list indexes, index-only scans work.
      const vacuumStarted = Date.now();
      for (const table of ['posts', 'post_tags', 'post_reviews', 'tags', 'users', 'user_roles', 'likes', 'comments'])
        await dataSource.query(`VACUUM ANALYZE ${table}`);
      const vacuumSeconds = (Date.now() - vacuumStarted) / 1000;
      log(`VACUUM ANALYZE in ${vacuumSeconds.toFixed(1)} s`);
      if (options.views > 0)
        await seedDemoViews(
          dataSource,
          options.views,
          options.seed,
          loadConfig({ ...process.env, LOG_LEVEL: 'silent' }).analytics.rawDays,
          log,
        );
      log(
        `done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${options.posts} posts (${postsSeconds.toFixed(1)} s), ${readerIds.length} readers ` +
          `(${readersSeconds.toFixed(1)} s), ${members} members (${membersSeconds.toFixed(1)} s), ${activity.likes} likes (${activity.likesSeconds.toFixed(1)} s), ${activity.comments} comments ` +
          `(${activity.deleted} deleted placeholders; ${activity.commentsSeconds.toFixed(1)} s), counters (${activity.countersSeconds.toFixed(1)} s)`,
      );
    } finally {
      await dataSource.destroy();
    }
  });
}

Promise.resolve()
  .then(() => seed(parseArgs(process.argv.slice(2))))
  .catch((error: unknown) => {
    process.stderr.write(`seed:demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });

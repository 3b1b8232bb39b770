import { DataSource } from 'typeorm';
import { DemotePostBodyHeadings1795444368112 } from '../../migrations/1795444368112-DemotePostBodyHeadings';
import { AddPostWordCount1795458037891 } from '../../migrations/1795458037891-AddPostWordCount';
import { createDataSource } from '../src/database/data-source';
import { renderMarkdown, wordCountOf } from '../src/common/markdown';
import { createFreshDatabase } from './helpers/fresh-database';

/** Data migrations, run again by hand on rows written the way the code before them wrote them. */
describe('DemotePostBodyHeadings (stored post bodies: headings one level down)', () => {
  let dataSource: DataSource;
  let authorId: number;

  beforeAll(async () => {
    dataSource = createDataSource(await createFreshDatabase('inkwell_migration_headings'));
    await dataSource.initialize();
    const [user] = (await dataSource.query(
      `INSERT INTO users (full_name, email, password_hash, status, is_verified) VALUES ('Migration Author', 'migration-author@example.com', 'x', 'ACTIVE', true) RETURNING id`,
    )) as { id: number }[];
    authorId = user.id;
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function insertPost(slug: string, html: string): Promise<number> {
    const [post] = (await dataSource.query(
      `INSERT INTO posts (title, slug, content, content_html, author_id, updated_at) VALUES ($1, $1, 'source', $2, $3, '2020-01-02T03:04:05Z') RETURNING id`,
      [slug, html, authorId],
    )) as { id: number }[];
    return post.id;
  }

  async function stored(id: number): Promise<{ html: string; updatedAt: Date }> {
    const [row] = (await dataSource.query(`SELECT content_html AS html, updated_at AS "updatedAt" FROM posts WHERE id = $1`, [id])) as {
      html: string;
      updatedAt: Date;
    }[];
    return row;
  }

  async function run(direction: 'up' | 'down'): Promise<void> {
    const runner = dataSource.createQueryRunner();
    try {
      await new DemotePostBodyHeadings1795444368112()[direction](runner);
    } finally {
      await runner.release();
    }
  }

  // What the renderer stored before the change: headings at their Markdown level.
  const before =
    '<h1 id="intro">Intro</h1>\n<p>Text with <code>&lt;h1&gt;</code> and <a href="/a" title="&lt;h2&gt;" rel="noopener noreferrer">a link</a></p>\n' +
    '<h2 id="setup">Setup</h2>\n<h3 id="npm-friends"><code>npm</code> &amp; friends</h3>\n<h4 id="d">D</h4>\n<h5 id="e">E</h5>\n';
  const after =
    '<h2 id="intro">Intro</h2>\n<p>Text with <code>&lt;h1&gt;</code> and <a href="/a" title="&lt;h2&gt;" rel="noopener noreferrer">a link</a></p>\n' +
    '<h3 id="setup">Setup</h3>\n<h4 id="npm-friends"><code>npm</code> &amp; friends</h4>\n<h5 id="d">D</h5>\n<h6 id="e">E</h6>\n';

  it('up moves every stored heading one level down, leaving text, ids and updated_at alone; down restores it', async () => {
    const id = await insertPost('old-headings', before);
    const plain = await insertPost('no-headings', '<p>Just text, <code>&lt;h1&gt;</code>.</p>\n');
    await run('up');
    const migrated = await stored(id);
    expect(migrated.html).toBe(after);
    expect(migrated.updatedAt.toISOString()).toBe('2020-01-02T03:04:05.000Z');
    expect((await stored(plain)).html).toBe('<p>Just text, <code>&lt;h1&gt;</code>.</p>\n');

    await run('down');
    expect((await stored(id)).html).toBe(before);
  });

  it('up gives stored rows what the renderer now writes on save', async () => {
    const source = '# Xin chào\n\n## Setup\n\n### `npm` & friends\n\n#### Four\n\n##### Five';
    // The old renderer's output is the new one's with every heading one level up.
    const rendered = renderMarkdown(source);
    const old = rendered.replace(/<(\/?)h([2-6])/g, (_m, slash: string, level: string) => `<${slash}h${Number(level) - 1}`);
    expect(old).toContain('<h1 id="xin-chao">');
    const id = await insertPost('render-parity', old);
    await run('up');
    expect((await stored(id)).html).toBe(rendered);
    await run('down');
  });

  it('leaves an h6 at h6 (no h7); down brings it back as h5, the one case it cannot tell apart', async () => {
    const id = await insertPost('deep-heading', '<h5 id="five">Five</h5>\n<h6 id="six">Six</h6>\n');
    await run('up');
    expect((await stored(id)).html).toBe('<h6 id="five">Five</h6>\n<h6 id="six">Six</h6>\n');
    await run('down');
    expect((await stored(id)).html).toBe('<h5 id="five">Five</h5>\n<h5 id="six">Six</h5>\n');
  });
});

describe('AddPostWordCount (posts.word_count backfilled in SQL)', () => {
  let dataSource: DataSource;
  let authorId: number;

  beforeAll(async () => {
    dataSource = createDataSource(await createFreshDatabase('inkwell_migration_words'));
    await dataSource.initialize();
    const [user] = (await dataSource.query(
      `INSERT INTO users (full_name, email, password_hash, status, is_verified) VALUES ('Word Author', 'word-author@example.com', 'x', 'ACTIVE', true) RETURNING id`,
    )) as { id: number }[];
    authorId = user.id;
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function run(direction: 'up' | 'down'): Promise<void> {
    const runner = dataSource.createQueryRunner();
    try {
      await new AddPostWordCount1795458037891()[direction](runner);
    } finally {
      await runner.release();
    }
  }

  // Every JavaScript whitespace character (what wordCountOf splits on), and look-alikes it does not split on.
  const sources = [
    'one',
    '  lead and trail  ',
    '# Heading\n\nA paragraph, with *emphasis* and `code`.\n\n- item one\n- item two',
    'tab\tnewline\nreturn\rvtab\u000bformfeed\fend',
    'nbsp\u00a0ogham\u1680en\u2000quad\u2001hair\u200anarrow\u202fmath\u205fideo\u3000bom\ufeffline\u2028para\u2029end',
    'not\u200bsplit\u180ehere\u0085either\u00adsoft',
    'Xin chào Đà Nẵng — 😀 emoji 👩‍👩‍👧 family',
    '\u3000\u00a0\t',
    `${'word '.repeat(450)}tail`,
  ];

  it('down drops the column; up adds it and counts every stored post as wordCountOf does, leaving updated_at alone', async () => {
    const ids: number[] = [];
    for (const [index, content] of sources.entries()) {
      const [post] = (await dataSource.query(
        `INSERT INTO posts (title, slug, content, content_html, author_id, updated_at) VALUES ($1, $1, $2, '', $3, '2020-01-02T03:04:05Z') RETURNING id`,
        [`words-${index}`, content, authorId],
      )) as { id: number }[];
      ids.push(post.id);
    }
    await run('down');
    expect(
      await dataSource.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'posts' AND column_name = 'word_count'`),
    ).toEqual([]);
    await run('up');
    const rows = (await dataSource.query(`SELECT id, word_count, updated_at FROM posts WHERE id = ANY($1) ORDER BY id`, [ids])) as {
      id: number;
      word_count: number;
      updated_at: Date;
    }[];
    expect(rows.map((row) => row.word_count)).toEqual(sources.map(wordCountOf));
    expect(rows.map((row) => row.word_count)).toEqual([1, 3, 14, 6, 12, 1, 9, 0, 451]);
    for (const row of rows) expect(row.updated_at.toISOString()).toBe('2020-01-02T03:04:05.000Z');
    await expect(dataSource.query(`UPDATE posts SET word_count = -1 WHERE id = $1`, [ids[0]])).rejects.toThrow(/CHK_posts_word_count/);
  });
});

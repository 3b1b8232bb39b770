import { ZipArchive } from 'archiver';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { heapAfterGc, heapSampler, postsAndPeakHeap } from '../../../test/helpers/heap';
import { ExportedPost, ExportedTag, ExportedUser, SITE_EXPORT_FORMAT, SITE_EXPORT_VERSION } from '../site-export-format';
import { readInkwell, surveyInkwell } from './inkwell-reader';
import { BadSourceFile, OVERSIZED_ITEM, SourceRecord } from './source-records';

const dir = mkdtempSync(join(tmpdir(), 'inkwell-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Part = 'header' | 'users' | 'tags' | 'posts';

/** site.json in pieces, its parts in the given order (Inkwell writes header, users, tags, posts). */
function* siteJson(options: {
  posts: number;
  order?: Part[];
  padding?: number;
  header?: Record<string, unknown>;
  huge?: { post: number; megabytes: number };
}): Generator<string> {
  const users: ExportedUser[] = [
    {
      id: 1,
      fullName: 'Nguyễn Thị Linh',
      email: 'linh@inkwell.example.com',
      bio: 'Viết về cà phê ☕',
      roles: ['AUTHOR', 'NOT_A_ROLE'],
      createdAt: '2024-01-01T00:00:00.000Z',
    },
    { id: 2, fullName: 'Omar', email: 'omar@inkwell.example.com', bio: null, roles: [], createdAt: '2024-01-02T00:00:00.000Z' },
  ];
  const tags: ExportedTag[] = [
    { id: 7, name: 'Cà phê', slug: 'ca-phe', description: 'Đồ uống', color: '#663300', icon: null, active: true },
    { id: 8, name: 'Old', slug: 'old', description: null, color: null, icon: null, active: false },
  ];
  const padding = options.padding
    ? `\n\n${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(Math.ceil(options.padding / 57)).slice(0, options.padding)}`
    : '';
  function* posts(): Generator<ExportedPost> {
    for (let n = 1; n <= options.posts; n += 1) {
      yield {
        id: 100 + n,
        title: `Bài ${n}`,
        slug: `bai-${n}`,
        summary: n % 2 ? `Tóm tắt ${n}` : null,
        content: `# Bài ${n}\n\nNội dung **${n}** 🎉${padding}`,
        status: n % 5 === 0 ? 'DRAFT' : 'PUBLISHED',
        authorId: (n % 2) + 1,
        tagIds: n % 3 ? [7] : [7, 8],
        thumbnail: null,
        isFeatured: n === 1,
        seo: { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null },
        createdAt: '2024-02-01T00:00:00.000Z',
        updatedAt: '2024-02-02T00:00:00.000Z',
        publishedAt: n % 5 === 0 ? null : '2024-02-01T01:00:00.000Z',
        scheduledAt: null,
        earlierSlugs: [],
        oldPaths: [],
        markdownFile: `posts/bai-${n}.md`,
        comments: [
          { id: n * 10, parentId: null, authorId: 1, content: 'Hay quá', createdAt: '2024-02-03T00:00:00.000Z', visibility: 'VISIBLE' },
          {
            id: n * 10 + 1,
            parentId: n * 10,
            authorId: null,
            content: 'Cảm ơn',
            createdAt: '2024-02-04T00:00:00.000Z',
            visibility: 'HELD',
          },
        ],
      };
    }
  }
  const header = options.header ?? {
    format: SITE_EXPORT_FORMAT,
    version: SITE_EXPORT_VERSION,
    exportedAt: '2026-11-28T00:00:00.000Z',
    site: 'https://Old.Inkwell.example.com/',
  };
  const parts: Record<Part, () => Generator<string>> = {
    *header() {
      yield JSON.stringify(header).slice(1, -1);
    },
    *users() {
      yield `"users":[${users.map((user) => JSON.stringify(user)).join(',\n')}]`;
    },
    *tags() {
      yield `"tags":[${tags.map((tag) => JSON.stringify(tag)).join(',\n')}]`;
    },
    *posts() {
      yield '"posts":[';
      let first = true;
      for (const post of posts()) {
        if (post.id === 100 + (options.huge?.post ?? 0)) {
          // Its content streamed a megabyte at a time, never one string.
          const [before, after] = JSON.stringify({ ...post, content: '@' }).split('"@"');
          yield `${first ? '' : ',\n'}${before}"`;
          const megabyte = 'Lorem ipsum dolor sit amet. '.repeat(Math.ceil((1024 * 1024) / 28)).slice(0, 1024 * 1024);
          for (let i = 0; i < options.huge!.megabytes; i += 1) yield megabyte;
          yield `"${after}`;
        } else {
          yield `${first ? '' : ',\n'}${JSON.stringify(post)}`;
        }
        first = false;
      }
      yield ']';
    },
  };
  yield '{';
  for (const [i, part] of (options.order ?? ['header', 'users', 'tags', 'posts']).entries()) {
    if (i) yield ',\n';
    yield* parts[part]();
  }
  yield '}';
}

/** A zip holding `site.json` (streamed into it, never one string) and a post's Markdown file. */
async function exportZip(name: string, site: Iterable<string> | null): Promise<string> {
  const path = join(dir, name);
  const zip = new ZipArchive({ zlib: { level: 1 } });
  const out = createWriteStream(path);
  zip.pipe(out);
  zip.append('# Bài 1\n', { name: 'posts/bai-1.md' });
  if (site) zip.append(Readable.from(site), { name: 'site.json' });
  await zip.finalize();
  if (!out.writableFinished) await once(out, 'finish');
  return path;
}

async function records(path: string): Promise<SourceRecord[]> {
  const all: SourceRecord[] = [];
  for await (const record of readInkwell(path)) all.push(record);
  return all;
}

describe('the Inkwell export reader', () => {
  it('gives the same records, users then tags then posts, whatever order site.json holds them in', async () => {
    const posts = 25;
    const usual = await exportZip('usual.zip', siteJson({ posts }));
    const postsFirst = await exportZip('posts-first.zip', siteJson({ posts, order: ['posts', 'tags', 'users', 'header'] }));
    const tagsFirst = await exportZip('tags-first.zip', siteJson({ posts, order: ['tags', 'header', 'users', 'posts'] }));

    expect(await surveyInkwell(usual)).toEqual({ origin: 'inkwell:https://old.inkwell.example.com', posts });
    expect(await surveyInkwell(postsFirst)).toEqual({ origin: 'inkwell:https://old.inkwell.example.com', posts });
    const expected = await records(usual);
    expect(expected.map((record) => record.type)).toEqual([
      ...Array(2).fill('user'),
      ...Array(2).fill('tag'),
      ...Array(posts).fill('post'),
    ]);
    expect(await records(postsFirst)).toEqual(expected);
    expect(await records(tagsFirst)).toEqual(expected);

    expect(expected[0]).toEqual({
      type: 'user',
      user: { sourceId: '1', fullName: 'Nguyễn Thị Linh', email: 'linh@inkwell.example.com', bio: 'Viết về cà phê ☕', roles: ['AUTHOR'] },
    });
    expect(expected[1]).toMatchObject({ type: 'user', user: { sourceId: '2', roles: ['USER'] } });
    expect(expected[3]).toEqual({
      type: 'tag',
      tag: { sourceId: '8', name: 'Old', slug: 'old', description: null, active: false, color: null, icon: null },
    });
    const third = expected.find((record) => record.type === 'post' && record.post.sourceId === '103');
    expect(third).toMatchObject({
      post: {
        slug: 'bai-3',
        markdown: '# Bài 3\n\nNội dung **3** 🎉',
        authorSourceId: '2',
        tagSourceIds: ['7', '8'],
        status: 'PUBLISHED',
        publishedAt: new Date('2024-02-01T01:00:00.000Z'),
        comments: [
          { sourceId: '30', parentSourceId: null, authorName: 'Nguyễn Thị Linh', authorEmail: 'linh@inkwell.example.com', approved: true },
          { sourceId: '31', parentSourceId: '30', authorName: 'Former reader', authorEmail: null, approved: false },
        ],
      },
    });
  });

  it('refuses what is not an Inkwell export of this version in the survey, with the same words as before', async () => {
    const notZip = join(dir, 'not.zip');
    writeFileSync(notZip, 'hello, this is text');
    await expect(surveyInkwell(notZip)).rejects.toThrow(/^This is not an Inkwell export: the file is not a zip archive \(/);
    await expect(surveyInkwell(await exportZip('empty.zip', null))).rejects.toThrow(
      'This is not an Inkwell export: the zip has no site.json.',
    );

    const whole = [...siteJson({ posts: 20 })].join('');
    const truncated = await exportZip('truncated.zip', [whole.slice(0, Math.floor(whole.length * 0.6))]);
    await expect(surveyInkwell(truncated)).rejects.toThrow(BadSourceFile);
    await expect(surveyInkwell(truncated)).rejects.toThrow(/^The export's site\.json is not JSON \(it ends before its JSON does: /);
    const broken = await exportZip('broken.zip', [whole.replace('"slug":"bai-15",', '"slug":"bai-15"')]);
    await expect(surveyInkwell(broken)).rejects.toThrow(/^The export's site\.json is not JSON \(expected .* at or before byte \d+\)\.$/);

    await expect(
      surveyInkwell(await exportZip('format.zip', siteJson({ posts: 1, header: { format: 'other', version: 1, site: 'x' } }))),
    ).rejects.toThrow("This is not an Inkwell export: site.json has no 'format: inkwell-site-export'.");
    await expect(surveyInkwell(await exportZip('array.zip', ['[1, 2]']))).rejects.toThrow(
      "This is not an Inkwell export: site.json has no 'format: inkwell-site-export'.",
    );
    await expect(
      surveyInkwell(await exportZip('version.zip', siteJson({ posts: 1, header: { format: SITE_EXPORT_FORMAT, version: 2, site: 'x' } }))),
    ).rejects.toThrow('This export is format version 2; this Inkwell reads version 1.');
    await expect(
      surveyInkwell(await exportZip('no-tags.zip', siteJson({ posts: 1, order: ['header', 'users', 'posts'] }))),
    ).rejects.toThrow("The export's site.json lacks its users, tags or posts.");
  });

  it('skips a post over the cap (60 MB of content) with the reason WordPress items get, reads the posts around it, and never holds it', async () => {
    const megabytes = 60;
    const path = await exportZip('oversized.zip', siteJson({ posts: 3, huge: { post: 2, megabytes } }));
    const size = megabytes * 1024 * 1024;

    const baseline = heapAfterGc();
    const sampler = heapSampler(baseline);
    expect((await surveyInkwell(path)).posts).toBe(3);
    const all = await records(path);
    const { highest, samples } = sampler.stop();

    expect(all.map((record) => record.type)).toEqual(['user', 'user', 'tag', 'tag', 'post', 'skip', 'post']);
    expect(all[4]).toMatchObject({ post: { sourceId: '101', markdown: '# Bài 1\n\nNội dung **1** 🎉' } });
    expect(all[5]).toEqual({ type: 'skip', skip: { kind: 'post', sourceId: '102', title: 'Bài 2', reason: OVERSIZED_ITEM } });
    expect(all[6]).toMatchObject({ post: { sourceId: '103', comments: [{ sourceId: '30' }, { sourceId: '31' }] } });
    // Looked at while the post streamed by: at most the cap's worth of it was held, never the post.
    expect(samples).toBeGreaterThan(0);
    expect(highest).toBeLessThan(size / 4);
    console.log(
      `Inkwell, one post of ${megabytes} MB: heap above the baseline at most ${(highest / 1024 / 1024).toFixed(1)} MB (${samples} samples)`,
    );
  }, 60_000);

  it('keeps the heap far below site.json while it reads a large export (one post at a time)', async () => {
    const posts = 3000;
    const padding = 16 * 1024;
    const path = await exportZip('large.zip', siteJson({ posts, padding }));
    const size = posts * padding;

    const baseline = heapAfterGc();
    expect((await surveyInkwell(path)).posts).toBe(posts);
    const { posts: read, highest } = await postsAndPeakHeap(readInkwell(path), 500, baseline);
    expect(read).toBe(posts);
    // Over 48 MB of posts; the reader keeps its users' e-mails and the post it is on.
    expect(highest).toBeLessThan(size / 5);
  }, 60_000);
});

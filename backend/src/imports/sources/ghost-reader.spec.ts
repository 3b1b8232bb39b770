import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ghostChunks, GhostFixtureOptions, ghostFixture } from '../../../test/fixtures/import-fixtures';
import { heapAfterGc, heapSampler, postsAndPeakHeap } from '../../../test/helpers/heap';
import { readGhost, surveyGhost } from './ghost-reader';
import { BadSourceFile, ITEM_TEXT_MAX, OVERSIZED_ITEM, SourceRecord } from './source-records';

const dir = mkdtempSync(join(tmpdir(), 'ghost-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function records(path: string): Promise<SourceRecord[]> {
  const all: SourceRecord[] = [];
  for await (const record of readGhost(path)) all.push(record);
  return all;
}

/** The Ghost export's ids, as the fixture makes them. */
const id = (prefix: string, n: number) => `${prefix}${String(n).padStart(24 - prefix.length, '0')}`;

describe('the Ghost reader', () => {
  it('gives the same records, users then tags then posts, whatever order the arrays come in', async () => {
    const posts = 40;
    const usual = file('usual.json', ghostFixture({ posts }));
    const odd = file('odd.json', ghostFixture({ posts, order: ['posts_tags', 'posts', 'tags', 'posts_authors', 'users'] }));
    const linksFirst = file('links-first.json', ghostFixture({ posts, order: ['posts_authors', 'posts_tags', 'users', 'tags', 'posts'] }));

    expect(await surveyGhost(odd)).toEqual({ origin: 'ghost', posts });
    const expected = await records(usual);
    expect(expected.map((record) => record.type)).toEqual([
      ...Array(2).fill('user'),
      ...Array(2).fill('tag'),
      ...Array(posts).fill('post'),
    ]);
    expect(await records(odd)).toEqual(expected);
    expect(await records(linksFirst)).toEqual(expected);

    // Post 10: its tags in sort order without the internal one, its first author, its Mobiledoc body.
    const ten = expected.find((record) => record.type === 'post' && record.post.sourceId === id('p', 10));
    expect(ten).toMatchObject({
      post: {
        slug: 'ghost-post-10',
        authorSourceId: id('u', 1),
        tagSourceIds: [id('t', 2)],
        markdown: '## Mobiledoc 10\n\nMarkdown card *text*.',
      },
    });
    expect(expected.filter((record) => record.type === 'tag').map((record) => record.type === 'tag' && record.tag.slug)).toEqual([
      'du-lich',
      'getting-started',
    ]);
  });

  it('takes authors and tags by sort_order, whatever their order in the file, and an export without users or tags', async () => {
    const post = (n: number) => ({
      id: `p${n}`,
      title: `Post ${n}`,
      slug: `post-${n}`,
      html: `<p>Body ${n}</p>`,
      status: 'published',
      published_at: '2020-01-01T00:00:00.000Z',
    });
    const path = file(
      'sorted.json',
      JSON.stringify({
        db: [
          {
            data: {
              posts: [post(1), post(2)],
              posts_authors: [
                { post_id: 'p1', author_id: 'second', sort_order: 1 },
                { post_id: 'p1', author_id: 'first', sort_order: 0 },
              ],
              posts_tags: [
                { post_id: 'p1', tag_id: 'b', sort_order: 2 },
                { post_id: 'p1', tag_id: 'a', sort_order: 0 },
                { post_id: 'p1', tag_id: 'c', sort_order: 1 },
              ],
            },
          },
        ],
      }),
    );
    expect(await surveyGhost(path)).toEqual({ origin: 'ghost', posts: 2 });
    const [first, second] = await records(path);
    expect(first).toMatchObject({
      type: 'post',
      post: { sourceId: 'p1', authorSourceId: 'first', tagSourceIds: ['a', 'c', 'b'], markdown: 'Body 1' },
    });
    expect(second).toMatchObject({ type: 'post', post: { sourceId: 'p2', authorSourceId: null, tagSourceIds: [] } });
  });

  it('fails in the survey on a file that breaks off or breaks part-way, and on one without posts', async () => {
    const whole = ghostFixture({ posts: 30 });
    const truncated = file('truncated.json', whole.slice(0, Math.floor(whole.length * 0.7)));
    await expect(surveyGhost(truncated)).rejects.toThrow(BadSourceFile);
    await expect(surveyGhost(truncated)).rejects.toThrow(
      /^This is not a Ghost export: the file is not JSON \(it ends before its JSON does: /,
    );

    // A syntax error deep in the file (after posts a reader could have written), then valid JSON again.
    const broken = file('broken.json', whole.replace('"slug":"ghost-post-20",', '"slug":"ghost-post-20";'));
    await expect(surveyGhost(broken)).rejects.toThrow(
      /^This is not a Ghost export: the file is not JSON \(expected .* at or before byte \d+\)\.$/,
    );
    await expect(surveyGhost(file('trailing.json', `${whole}}`))).rejects.toThrow(/the file is not JSON \(unexpected characters/);
    await expect(surveyGhost(file('text.txt', 'hello, this is text'))).rejects.toThrow(/^This is not a Ghost export: the file is not JSON/);
    await expect(surveyGhost(file('empty.json', ''))).rejects.toThrow(BadSourceFile);

    const noPosts = 'This is not a Ghost export: it has no db[0].data.posts (export it from Settings → Labs → Export in Ghost).';
    await expect(surveyGhost(file('no-data.json', JSON.stringify({ db: [{ data: {} }] })))).rejects.toThrow(noPosts);
    await expect(surveyGhost(file('posts-object.json', JSON.stringify({ db: [{ data: { posts: {} } }] })))).rejects.toThrow(noPosts);
    await expect(surveyGhost(file('second-db.json', JSON.stringify({ db: [{ data: {} }, { data: { posts: [] } }] })))).rejects.toThrow(
      noPosts,
    );
    await expect(surveyGhost(file('array.json', '[1, 2, 3]'))).rejects.toThrow(noPosts);
  });

  it('skips a post over the cap (60 MB of html) with the reason WordPress items get, reads the posts around it, and never holds it', async () => {
    const post = (n: number) => ({
      id: id('p', n),
      title: `Post ${n}`,
      slug: `post-${n}`,
      html: `<p>Body ${n}</p>`,
      status: 'published',
      published_at: '2020-01-01T00:00:00.000Z',
    });
    const path = join(dir, 'oversized.json');
    const out = createWriteStream(path);
    const megabyte = 'Lorem ipsum dolor sit amet. '.repeat(Math.ceil((1024 * 1024) / 28)).slice(0, 1024 * 1024);
    // The title comes after the body: what names the post is read past the cap too.
    const chunks = function* () {
      yield `{"db":[{"data":{"users":[{"id":"u1","name":"Hùng","email":"hung@ghost.example.com"}],"posts":[${JSON.stringify(post(1))},{"id":"${id('p', 2)}","slug":"huge","html":"<p>`;
      for (let i = 0; i < 60; i += 1) yield megabyte;
      yield `</p>","title":"Huge","status":"published","tags":[1,2,3]},${JSON.stringify(post(3))}],"posts_authors":[{"post_id":"${id('p', 3)}","author_id":"u1"}]}}]}`;
    };
    for (const chunk of chunks()) if (!out.write(chunk)) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    const size = 60 * 1024 * 1024;
    expect(statSync(path).size).toBeGreaterThan(size);

    const baseline = heapAfterGc();
    const sampler = heapSampler(baseline);
    expect(await surveyGhost(path)).toEqual({ origin: 'ghost', posts: 3 });
    const all = await records(path);
    const { highest, samples } = sampler.stop();

    expect(all.map((record) => record.type)).toEqual(['user', 'post', 'skip', 'post']);
    expect(all[1]).toMatchObject({ post: { sourceId: id('p', 1), markdown: 'Body 1' } });
    expect(all[2]).toEqual({ type: 'skip', skip: { kind: 'post', sourceId: id('p', 2), title: 'Huge', reason: OVERSIZED_ITEM } });
    expect(OVERSIZED_ITEM).toBe(`It holds more than ${ITEM_TEXT_MAX / 1024 / 1024} MB of text (the most one item may hold).`);
    expect(all[3]).toMatchObject({ post: { sourceId: id('p', 3), markdown: 'Body 3', authorSourceId: 'u1' } });
    // Looked at while the post streamed by: at most the cap's worth of it was held, never the post.
    expect(samples).toBeGreaterThan(0);
    expect(highest).toBeLessThan(size / 4);
    console.log(
      `Ghost, one post of ${size / 1024 / 1024} MB: heap above the baseline at most ${(highest / 1024 / 1024).toFixed(1)} MB (${samples} samples)`,
    );
  }, 60_000);

  it('keeps the heap far below the file while it reads a large export (one post at a time)', async () => {
    const options: GhostFixtureOptions = { posts: 5000, padding: 8 * 1024 };
    const path = join(dir, 'large.json');
    const out = createWriteStream(path);
    for (const chunk of ghostChunks(options)) if (!out.write(chunk)) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(40 * 1024 * 1024);

    const baseline = heapAfterGc();
    const survey = await surveyGhost(path);
    expect(survey.posts).toBe(options.posts);
    const { posts, highest } = await postsAndPeakHeap(readGhost(path), 1000, baseline);
    expect(posts).toBe(options.posts);
    // The run keeps maps of ids (a few MB at most); the whole-file reader held the text and its parse, over twice the size.
    expect(highest).toBeLessThan(size / 5);
  }, 60_000);
});

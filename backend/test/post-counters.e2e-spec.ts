import { DataSource } from 'typeorm';
import { PostsService } from '../src/posts/posts.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createAuthor, TestUser } from './helpers/users';

/** PostsService.adjustCounters: what likes and comments call inside their own transaction. */
describe('Post counters (PostsService.adjustCounters)', () => {
  let t: TestApp;
  let author: TestUser;
  let posts: PostsService;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    author = await createAuthor(t);
    posts = t.app.get(PostsService);
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  async function newPost(): Promise<{ id: number; updatedAt: string }> {
    const token = uid();
    const res = await t.http.post(api('/blog/posts/author/create')).set(author.auth).send({ title: `Counted ${token}`, content: 'x', slug: `counted-${token}` }).expect(201);
    return res.body.data;
  }

  const counts = async (id: number) =>
    ((await dataSource.query('SELECT like_count, comment_count, updated_at FROM posts WHERE id = $1', [id])) as { like_count: number; comment_count: number; updated_at: Date }[])[0];

  it('adds and subtracts in the caller’s transaction and returns the new counts, updated_at untouched', async () => {
    const post = await newPost();
    const before = await counts(post.id);
    const result = await dataSource.transaction((manager) => posts.adjustCounters(manager, post.id, { likes: 2, comments: 1 }));
    expect(result).toEqual({ likeCount: 2, commentCount: 1 });
    expect(await dataSource.transaction((manager) => posts.adjustCounters(manager, post.id, { likes: -1 }))).toEqual({ likeCount: 1, commentCount: 1 });
    const after = await counts(post.id);
    expect(after.updated_at.getTime()).toBe(before.updated_at.getTime());
  });

  it('never goes below 0', async () => {
    const post = await newPost();
    expect(await dataSource.transaction((manager) => posts.adjustCounters(manager, post.id, { likes: -1, comments: -5 }))).toEqual({ likeCount: 0, commentCount: 0 });
  });

  it('is rolled back with the caller’s transaction', async () => {
    const post = await newPost();
    await expect(
      dataSource.transaction(async (manager) => {
        await posts.adjustCounters(manager, post.id, { likes: 1 });
        throw new Error('the like row failed');
      }),
    ).rejects.toThrow('the like row failed');
    expect((await counts(post.id)).like_count).toBe(0);
  });

  it('loses no count under concurrent callers', async () => {
    const post = await newPost();
    await Promise.all(Array.from({ length: 20 }, () => dataSource.transaction((manager) => posts.adjustCounters(manager, post.id, { likes: 1, comments: 1 }))));
    expect(await counts(post.id)).toMatchObject({ like_count: 20, comment_count: 20 });
  });

  it('404 for a post that does not exist', async () => {
    await expect(dataSource.transaction((manager) => posts.adjustCounters(manager, 2_000_000_000, { likes: 1 }))).rejects.toMatchObject({
      status: 404,
      message: 'Post with id 2000000000 not found',
    });
  });
});

import { ContentChange, ContentEvents, isContentChange } from './content-events';

describe('ContentEvents', () => {
  const change: ContentChange = { kind: 'post', postId: 7, slugs: ['a-post'] };

  it('delivers a local change to every listener, then to the relay', () => {
    const events = new ContentEvents();
    const order: string[] = [];
    events.onChange(() => order.push('cache 1'));
    events.onChange(() => order.push('cache 2'));
    events.relayTo(async (relayed) => void order.push(`relay ${relayed.kind} ${relayed.kind === 'post' ? relayed.postId : ''}`));
    void events.changed(change);
    expect(order).toEqual(['cache 1', 'cache 2', 'relay post 7']);
  });

  it('settles only once the relay has (the other instances dropped theirs), having dropped locally at once', async () => {
    const events = new ContentEvents();
    const order: string[] = [];
    let relayDone!: () => void;
    events.onChange(() => order.push('local'));
    events.relayTo(() => new Promise<void>((done) => (relayDone = done)));
    const settled = events.changed(change).then(() => order.push('settled'));
    expect(order).toEqual(['local']);
    await Promise.resolve();
    expect(order).toEqual(['local']);
    order.push('others dropped');
    relayDone();
    await settled;
    expect(order).toEqual(['local', 'others dropped', 'settled']);
  });

  it('delivers a notice from another instance to the listeners only (never relayed back)', () => {
    const events = new ContentEvents();
    const seen: ContentChange[] = [];
    const relayed: ContentChange[] = [];
    events.onChange((c) => seen.push(c));
    events.relayTo(async (c) => void relayed.push(c));
    events.deliver(change);
    expect(seen).toEqual([change]);
    expect(relayed).toEqual([]);
  });

  it('stops relaying when asked, and works without a relay (no REDIS_URL)', () => {
    const events = new ContentEvents();
    const relayed: ContentChange[] = [];
    const stop = events.relayTo(async (c) => void relayed.push(c));
    stop();
    const seen: ContentChange[] = [];
    events.onChange((c) => seen.push(c));
    void events.changed(change);
    expect(seen).toEqual([change]);
    expect(relayed).toEqual([]);
  });

  describe('inBatches', () => {
    afterEach(() => jest.useRealTimers());

    it('tells each distinct change once per interval, and the rest as the work ends, to listeners and relay', async () => {
      jest.useFakeTimers({ now: 0, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
      const events = new ContentEvents();
      const seen: number[] = [];
      const relayed: number[] = [];
      events.onChange((c) => c.kind === 'post' && seen.push(c.postId));
      events.relayTo(async (c) => void (c.kind === 'post' && relayed.push(c.postId)));
      const post = (postId: number): ContentChange => ({ kind: 'post', postId, slugs: [`post-${postId}`] });

      const result = await events.inBatches(async () => {
        await events.changed(post(1));
        await events.changed(post(1));
        await events.changed(post(2));
        expect(seen).toEqual([]);
        jest.setSystemTime(1000);
        await events.changed(post(3));
        expect(seen).toEqual([1, 2, 3]);
        await events.changed(post(4));
        await events.changed(post(4));
        expect(seen).toEqual([1, 2, 3]);
        return 'done';
      }, 1000);

      expect(result).toBe('done');
      expect(seen).toEqual([1, 2, 3, 4]);
      expect(relayed).toEqual([1, 2, 3, 4]);
    });

    it('tells what is left when the work throws, and keeps its error', async () => {
      const events = new ContentEvents();
      const seen: ContentChange[] = [];
      events.onChange((c) => seen.push(c));
      await expect(
        events.inBatches(async () => {
          await events.changed(change);
          throw new Error('the file ends early');
        }, 60_000),
      ).rejects.toThrow('the file ends early');
      expect(seen).toEqual([change]);
    });

    it("tells changes made outside the batch (a reader's like during an import) at once", async () => {
      const events = new ContentEvents();
      const seen: ContentChange[] = [];
      events.onChange((c) => seen.push(c));
      let release!: () => void;
      const importing = events.inBatches(async () => {
        await events.changed({ kind: 'post', postId: 1, slugs: ['imported'] });
        await new Promise<void>((done) => (release = done));
      }, 60_000);
      const like: ContentChange = { kind: 'post-counters', postId: 9, slug: 'read', counter: 'likes' };
      await events.changed(like);
      expect(seen).toEqual([like]);
      release();
      await importing;
      expect(seen).toEqual([like, { kind: 'post', postId: 1, slugs: ['imported'] }]);
    });
  });

  it('recognises well-formed changes only (what the relay delivers from other instances)', () => {
    const good: ContentChange[] = [
      change,
      { kind: 'unpublished-post', postId: 4 },
      { kind: 'post-counters', postId: 3, slug: 'x', counter: 'likes' },
      { kind: 'post-comments', postId: 3, slug: 'x' },
      { kind: 'tag', tagId: 2, slugs: ['a', 'b'] },
      { kind: 'user', userId: 9, profileChanged: false },
      { kind: 'resync' },
    ];
    for (const value of good) expect(isContentChange(JSON.parse(JSON.stringify(value)))).toBe(true);
    for (const value of [
      null,
      'post',
      { kind: 'post' },
      { kind: 'post', postId: '7', slugs: [] },
      { kind: 'likes', id: 1 },
      { kind: 'post-counters', postId: 1, slug: 'x', counter: 'views' },
      { kind: 'user', userId: 1 },
      { kind: 'unpublished-post' },
    ]) {
      expect(isContentChange(value)).toBe(false);
    }
  });
});

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
    for (const value of [null, 'post', { kind: 'post' }, { kind: 'post', postId: '7', slugs: [] }, { kind: 'likes', id: 1 }, { kind: 'post-counters', postId: 1, slug: 'x', counter: 'views' }, { kind: 'user', userId: 1 }, { kind: 'unpublished-post' }]) {
      expect(isContentChange(value)).toBe(false);
    }
  });
});

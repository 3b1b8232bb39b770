import { DataSource } from 'typeorm';
import { DomainEvent } from '../src/events/domain-events';
import { DomainEvents } from '../src/events/domain-events.service';
import { createTestApp, TestApp } from './helpers/app';
import { uid } from './helpers/envelope';

/** The event stream's guarantees (docs/events.md): stored with the change, or not at all; after-commit subscribers only after a commit. */
describe('Domain events', () => {
  let t: TestApp;
  let events: DomainEvents;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    events = t.app.get(DomainEvents);
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t?.close());

  const tagEvent = (slug: string): DomainEvent<'tag.created'> => ({
    name: 'tag.created',
    actor: null,
    data: { tagId: 2_000_000_000, name: slug, slug, active: true },
  });
  const stored = async (slug: string): Promise<number> =>
    Number(
      (await dataSource.query(`SELECT count(*)::int AS n FROM domain_events WHERE name = 'tag.created' AND data->>'slug' = $1`, [slug]))[0]
        .n,
    );

  it('stores an event with its transaction and hands it to in-transaction, then after-commit subscribers, in that order', async () => {
    const slug = `ev-${uid()}`;
    const seen: string[] = [];
    events.onRecorded('tag.created', async (event, manager) => {
      if (event.data.slug !== slug) return;
      // In the change's own transaction: the event row is already visible to it.
      const [{ n }] = await manager.query(`SELECT count(*)::int AS n FROM domain_events WHERE data->>'slug' = $1`, [slug]);
      seen.push(`recorded:${n}`);
    });
    events.onCommitted('tag.created', async (event) => {
      if (event.data.slug === slug) seen.push(`committed:${await stored(slug)}`);
    });
    await events.transaction((tx) => tx.record(tagEvent(slug)));
    expect(seen).toEqual(['recorded:1', 'committed:1']);
    const [row] = await dataSource.query(`SELECT subject_type, subject_id, actor_id, data FROM domain_events WHERE data->>'slug' = $1`, [
      slug,
    ]);
    expect(row).toEqual({
      subject_type: 'tag',
      subject_id: 2_000_000_000,
      actor_id: null,
      data: { tagId: 2_000_000_000, name: slug, slug, active: true },
    });
  });

  it('a transaction that fails leaves no event, and after-commit subscribers never hear of it', async () => {
    const slug = `ev-${uid()}`;
    const committed: string[] = [];
    events.onCommitted('tag.created', async (event) => {
      if (event.data.slug === slug) committed.push(slug);
    });
    await expect(
      events.transaction(async (tx) => {
        await tx.record(tagEvent(slug));
        throw new Error('the change failed after its event');
      }),
    ).rejects.toThrow('the change failed after its event');
    expect(await stored(slug)).toBe(0);
    expect(committed).toEqual([]);
  });

  it('an event recorded inside asHistoric is stored and heard by every subscriber but the live-only ones, in either phase', async () => {
    const slug = `ev-${uid()}`;
    const heard: string[] = [];
    const note = (who: string) => async (event: DomainEvent<'tag.created'>) => {
      if (event.data.slug === slug) heard.push(who);
    };
    events.onRecorded('tag.created', note('recorded'));
    events.onRecorded('tag.created', note('recorded, live only'), { liveOnly: true });
    events.onCommitted('tag.created', note('committed'));
    events.onCommitted('tag.created', note('committed, live only'), { liveOnly: true });

    await events.asHistoric(() => events.transaction((tx) => tx.record(tagEvent(slug))));
    expect(heard).toEqual(['recorded', 'committed']);
    expect(await stored(slug)).toBe(1);

    // Outside the scope again, everyone hears.
    heard.length = 0;
    await events.transaction((tx) => tx.record(tagEvent(slug)));
    expect(heard).toEqual(['recorded', 'recorded, live only', 'committed', 'committed, live only']);
  });
});

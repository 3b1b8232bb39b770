import { jsonAnswer } from './json-answer';

describe('jsonAnswer', () => {
  class Card {
    constructor(
      readonly title: string,
      readonly publishedAt: Date,
      readonly hidden?: string,
    ) {}
  }

  it('answers what JSON.parse(JSON.stringify(body)) answers', () => {
    const body = {
      success: true,
      data: { content: [new Card('A', new Date('2026-01-05T10:00:00Z'))], total: 1, missing: undefined },
      message: 'OK',
      errors: null,
      skipped: undefined,
    };
    expect(jsonAnswer(body)).toEqual(JSON.parse(JSON.stringify(body)));
    expect(jsonAnswer([1, undefined, new Date(0)])).toEqual([1, null, '1970-01-01T00:00:00.000Z']);
    expect(jsonAnswer('text')).toBe('text');
    expect(jsonAnswer(Number.NaN)).toBeNull();
  });

  it('copies a held object once, frozen, and never lets a page change it for the next', () => {
    const held = { content: [{ title: 'A' }] };
    const first = jsonAnswer({ data: held }) as { data: { content: { title: string }[] } };
    const second = jsonAnswer({ data: held }) as { data: { content: { title: string }[] } };
    expect(second.data).toBe(first.data);
    expect(first.data).not.toBe(held);
    expect(() => {
      first.data.content[0].title = 'changed';
    }).toThrow(TypeError);
    expect(() => first.data.content.push({ title: 'B' })).toThrow(TypeError);
    // A new object (the cache let the old one go) gets a new copy.
    expect((jsonAnswer({ data: { content: [{ title: 'C' }] } }) as { data: unknown }).data).not.toBe(first.data);
  });
});

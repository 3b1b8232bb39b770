import { heapAfterGc } from '../../../test/helpers/heap';
import { ownCopy } from './source-records';

/** 40 chunks of about 1 MB as a reader gets them from a file, keeping a short id cut from each (as a run's maps and report do). */
function keepIdsOf(copy: (text: string) => string): string[] {
  const kept: string[] = [];
  for (let i = 0; i < 40; i += 1) {
    const chunk = `<wp:post_id>${i}</wp:post_id>${'x'.repeat(1024 * 1024)}<title>The title of post ${i}</title>`;
    kept.push(copy(chunk.slice(chunk.lastIndexOf('<title>') + '<title>'.length, chunk.lastIndexOf('</title>'))));
  }
  return kept;
}

describe('ownCopy', () => {
  it('is the same text, lone surrogates and all', () => {
    for (const text of ['', 'a', 'Bài viết số 1 — “quoted”', '\ud800 lone', 'emoji 🚀']) expect(ownCopy(text)).toBe(text);
  });

  it('keeps no part of the chunk its text was cut from alive (a plain substring keeps all of it)', () => {
    // What the kept ids hold: the heap with them, less the heap once they are let go (so whatever
    // else the shared test worker frees or allocates meanwhile hardly counts).
    const held = (copy: (text: string) => string): number => {
      const kept = keepIdsOf(copy);
      const withIds = heapAfterGc();
      expect(kept[3]).toBe('The title of post 3');
      kept.length = 0;
      return withIds - heapAfterGc();
    };
    // 40 × 1 MB held through the slices; the copies hold a few hundred bytes.
    expect(held((text) => text)).toBeGreaterThan(35 * 1024 * 1024);
    expect(held(ownCopy)).toBeLessThan(1024 * 1024);
  });
});

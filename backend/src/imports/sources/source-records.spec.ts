import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { ownCopy } from './source-records';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after a full collection. */
function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

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
    const baseline = heapAfterGc();
    const sliced = keepIdsOf((text) => text);
    const withSlices = heapAfterGc() - baseline;
    expect(sliced).toHaveLength(40);
    sliced.length = 0;

    const start = heapAfterGc();
    const copied = keepIdsOf(ownCopy);
    const withCopies = heapAfterGc() - start;
    expect(copied[3]).toBe('The title of post 3');

    // 40 × 1 MB held through the slices; the copies hold a few hundred bytes.
    expect(withSlices).toBeGreaterThan(30 * 1024 * 1024);
    expect(withCopies).toBeLessThan(2 * 1024 * 1024);
  });
});

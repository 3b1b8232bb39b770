import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Heap measurements for the tests that show a reader keeps no file whole. V8's `gc` is exposed to
 * this process (jest passes no flag to its workers); the collection runs twice so that what the
 * first one freed for finalisation is gone too.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after a full collection. */
export function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Reads `records` to the end, measuring the heap above `baseline` every `every` posts: how many posts, and the highest heap seen. */
export async function postsAndPeakHeap(
  records: AsyncIterable<{ type: string }>,
  every: number,
  baseline: number,
): Promise<{ posts: number; highest: number }> {
  let posts = 0;
  let highest = heapAfterGc() - baseline;
  for await (const record of records) {
    if (record.type !== 'post') continue;
    posts += 1;
    if (posts % every === 0) highest = Math.max(highest, heapAfterGc() - baseline);
  }
  return { posts, highest };
}

/**
 * Measures the heap above `baseline` until stopped, between the reads of a stream (a record boundary
 * alone would miss what one item held while it was read): at least `ms` apart, and ten times as far
 * apart as a collection takes, so the collections (slow in a jest worker's large heap) leave the
 * reading most of the time. The highest heap seen, and how many times it looked.
 */
export function heapSampler(baseline: number, ms = 100): { stop(): { highest: number; samples: number } } {
  let highest = heapAfterGc() - baseline;
  let samples = 1;
  let timer: NodeJS.Timeout;
  const sample = () => {
    const start = Date.now();
    highest = Math.max(highest, heapAfterGc() - baseline);
    samples += 1;
    timer = setTimeout(sample, Math.max(ms, 10 * (Date.now() - start)));
  };
  timer = setTimeout(sample, ms);
  return {
    stop() {
      clearTimeout(timer);
      return { highest: Math.max(highest, heapAfterGc() - baseline), samples };
    },
  };
}

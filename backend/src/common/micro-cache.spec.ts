import { MicroCache } from './micro-cache';

describe('MicroCache', () => {
  afterEach(() => jest.useRealTimers());

  it('shares one load between callers within the TTL, then loads again', async () => {
    jest.useFakeTimers({ now: 1_000 });
    const cache = new MicroCache<number>(5_000, 10);
    let loads = 0;
    const load = () => Promise.resolve((loads += 1));
    expect(await cache.remember('a', load)).toBe(1);
    jest.setSystemTime(5_999);
    expect(await cache.remember('a', load)).toBe(1);
    jest.setSystemTime(6_000);
    expect(await cache.remember('a', load)).toBe(2);
    expect(await cache.remember('b', load)).toBe(3);
  });

  it('drops failures at once, so the next caller asks again', async () => {
    const cache = new MicroCache<string>(5_000, 10);
    await expect(cache.remember('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await expect(cache.remember('a', () => Promise.resolve('up'))).resolves.toBe('up');
  });

  it('forgets everything on clear() and when it is full', async () => {
    const cache = new MicroCache<number>(60_000, 2);
    let loads = 0;
    const load = () => Promise.resolve((loads += 1));
    await cache.remember('a', load);
    cache.clear();
    expect(await cache.remember('a', load)).toBe(2);
    await cache.remember('b', load);
    // Full (a, b): a third key starts over, so 'a' is loaded again afterwards.
    expect(await cache.remember('c', load)).toBe(4);
    expect(await cache.remember('a', load)).toBe(5);
  });

  it('delete() forgets one key only', async () => {
    const cache = new MicroCache<number>(60_000, 10);
    let loads = 0;
    const load = () => Promise.resolve((loads += 1));
    await cache.remember('a', load);
    await cache.remember('b', load);
    cache.delete('a');
    expect(await cache.remember('a', load)).toBe(3);
    expect(await cache.remember('b', load)).toBe(2);
  });

  it('deleteWhere() drops the answers that match and every load still running', async () => {
    const cache = new MicroCache<number[]>(60_000, 10);
    await cache.remember('ab', () => Promise.resolve([1, 2]));
    await cache.remember('c', () => Promise.resolve([3]));
    let finish!: (value: number[]) => void;
    const running = cache.remember('pending', () => new Promise((resolve) => (finish = resolve)));
    cache.deleteWhere((_key, ids) => ids.includes(2));
    expect(cache.size).toBe(1);
    finish([9]);
    await expect(running).resolves.toEqual([9]);
    await expect(cache.remember('c', () => Promise.resolve([0]))).resolves.toEqual([3]);
    await expect(cache.remember('ab', () => Promise.resolve([0]))).resolves.toEqual([0]);
    await expect(cache.remember('pending', () => Promise.resolve([0]))).resolves.toEqual([0]);
  });
});

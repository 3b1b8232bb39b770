import { redisRetryDelay } from './redis.service';

describe('redisRetryDelay', () => {
  it('reconnects after 100 ms, doubling up to every 2 s, forever', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50, 10_000].map(redisRetryDelay)).toEqual([100, 200, 400, 800, 1_600, 2_000, 2_000, 2_000, 2_000]);
  });
});

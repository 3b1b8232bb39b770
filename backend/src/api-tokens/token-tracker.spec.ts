import { sha256 } from '../sessions/sessions.service';
import { apiTokenOf, rememberTokenHash, tokenTrackerOf } from './token-tracker';

describe('API token tracker', () => {
  const token = `inkw_${'a'.repeat(43)}`;

  it('reads an API token from a Bearer header only', () => {
    expect(apiTokenOf({ authorization: `Bearer ${token}` })).toBe(token);
    expect(apiTokenOf({ authorization: `bearer  ${token} ` })).toBe(token);
    expect(apiTokenOf({ authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x' })).toBeUndefined();
    expect(apiTokenOf({ authorization: token })).toBeUndefined();
    expect(apiTokenOf({})).toBeUndefined();
  });

  it('gives a token its own rate-limit key once it has been seen to work, and counts any other by address', () => {
    const unseen = `inkw_${'b'.repeat(43)}`;
    expect(tokenTrackerOf({ authorization: `Bearer ${unseen}` })).toBeUndefined();
    rememberTokenHash(sha256(unseen));
    expect(tokenTrackerOf({ authorization: `Bearer ${unseen}` })).toBe(`api-token:${sha256(unseen)}`);
    expect(tokenTrackerOf({ authorization: `Bearer ${token}` })).toBeUndefined();
    expect(tokenTrackerOf({})).toBeUndefined();
  });
});

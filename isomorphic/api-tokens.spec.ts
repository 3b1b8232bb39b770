import { API_TOKEN_PATTERN, grantableScopes, tokenAccessOf, type TokenRoute } from './api-tokens';

describe('tokenAccessOf: the scope an API token needs for a route', () => {
  const cases: [string, TokenRoute, string][] = [
    ['a read', { method: 'GET', path: '/api/v1/users/profile' }, 'read'],
    ['a HEAD', { method: 'HEAD', path: '/api/v1/blog/tags' }, 'read'],
    ['a read of an AUTHOR route', { method: 'get', path: '/api/v1/blog/posts/author/my-posts', role: 'AUTHOR' }, 'read'],
    [
      'a write that declares its scope',
      { method: 'POST', path: '/api/v1/blog/posts/author/create', role: 'AUTHOR', declaredScope: 'posts:write' },
      'posts:write',
    ],
    ['a comment write', { method: 'PUT', path: '/api/v1/comments/:id', declaredScope: 'comments:write' }, 'comments:write'],
    ['a write that declares nothing (default deny)', { method: 'PUT', path: '/api/v1/users/profile' }, 'session'],
    ['a DELETE that declares nothing', { method: 'DELETE', path: '/api/v1/likes/post/{id}' }, 'session'],
    ['an admin read', { method: 'GET', path: '/api/v1/admin/users', role: 'ADMIN' }, 'admin'],
    [
      'an admin write, whatever it declares',
      { method: 'POST', path: '/api/v1/blog/posts', role: 'ADMIN', declaredScope: 'posts:write' },
      'admin',
    ],
    ['a route marked session-only, even a read', { method: 'GET', path: '/api/v1/user/change-password', sessionOnly: true }, 'session'],
    ['an account read', { method: 'GET', path: '/api/v1/account/tokens' }, 'session'],
    ['an account route with a declared scope', { method: 'POST', path: '/api/v1/account/export', declaredScope: 'posts:write' }, 'session'],
    ['an auth route', { method: 'POST', path: '/api/v1/auth/logout' }, 'session'],
    ['the /account root', { method: 'GET', path: '/api/v1/account' }, 'session'],
    ['a path that only starts like account', { method: 'GET', path: '/api/v1/accounts-report' }, 'read'],
  ];
  it.each(cases)('%s', (_name, route, wanted) => {
    expect(tokenAccessOf(route)).toBe(wanted);
  });

  it('offers the admin scope to administrators only', () => {
    expect(grantableScopes(false)).toEqual(['read', 'posts:write', 'comments:write']);
    expect(grantableScopes(true)).toEqual(['read', 'posts:write', 'comments:write', 'admin']);
  });

  it('recognises the token format: inkw_ and 43 base64url characters', () => {
    expect(API_TOKEN_PATTERN.test(`inkw_${'a-_Z9'.repeat(8)}abc`)).toBe(true);
    expect(API_TOKEN_PATTERN.test(`inkw_${'a'.repeat(42)}`)).toBe(false);
    expect(API_TOKEN_PATTERN.test(`inkw_${'a'.repeat(42)}=`)).toBe(false);
    expect(API_TOKEN_PATTERN.test(`ink_${'a'.repeat(43)}`)).toBe(false);
  });
});

import { socketDirectory } from './embedded-postgres';

describe('socketDirectory (where the embedded server puts its Unix socket)', () => {
  it('is the database folder when the socket path fits in 103 bytes', () => {
    expect(socketDirectory('/var/lib/inkwell/postgres', 54321, 'linux')).toBe('/var/lib/inkwell/postgres');
    const longest = `/${'d'.repeat(103 - '/.s.PGSQL.54321'.length - 1)}`;
    expect(`${longest}/.s.PGSQL.54321`).toHaveLength(103);
    expect(socketDirectory(longest, 54321, 'linux')).toBe(longest);
  });

  it('is none (TCP only) for a longer path, a name unix_socket_directories would split or need quoted, and on Windows', () => {
    expect(socketDirectory(`/${'d'.repeat(103 - '/.s.PGSQL.54321'.length)}`, 54321, 'linux')).toBeUndefined();
    expect(socketDirectory(`/srv/${'é'.repeat(45)}`, 54321, 'linux')).toBeUndefined(); // the socket path: 65 characters but 110 bytes
    for (const dir of ['/srv/a,b/postgres', '/srv/my data/postgres', "/srv/it's/postgres", '/srv/a"b/postgres', '/srv/a\\b/postgres']) {
      expect(socketDirectory(dir, 54321, 'linux')).toBeUndefined();
    }
    expect(socketDirectory('C:/inkwell/postgres', 54321, 'win32')).toBeUndefined();
  });
});

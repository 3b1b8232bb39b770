import { isDatabaseUnavailable } from './database-unavailable';

/** An error as Node raises it for a failed system call. */
const systemError = (code: string, syscall: string) => Object.assign(new Error(`${syscall} ${code}`), { code, syscall });

describe('isDatabaseUnavailable', () => {
  it('a Unix socket that is not there (the embedded server is stopped) is the database away, also wrapped by TypeORM', () => {
    expect(isDatabaseUnavailable(systemError('ENOENT', 'connect'))).toBe(true);
    expect(isDatabaseUnavailable({ name: 'QueryFailedError', driverError: systemError('ENOENT', 'connect') })).toBe(true);
    expect(isDatabaseUnavailable(systemError('ECONNREFUSED', 'connect'))).toBe(true);
  });

  it('a missing file anywhere else is not', () => {
    expect(isDatabaseUnavailable(systemError('ENOENT', 'open'))).toBe(false);
    expect(isDatabaseUnavailable(systemError('ENOENT', 'stat'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(false);
  });
});

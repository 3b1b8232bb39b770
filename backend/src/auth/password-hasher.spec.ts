import * as bcrypt from 'bcrypt';
import { PasswordHasher, PEPPERED_PREFIX } from './password-hasher';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher({ passwordPepper: 'pepper-'.repeat(6) });
  const head = `Aa1!${'x'.repeat(68)}`;

  it('tells apart passwords that share their first 72 bytes', async () => {
    const stored = await hasher.hash(`${head}-first`);
    expect(stored.startsWith(PEPPERED_PREFIX)).toBe(true);
    expect(await hasher.verify(`${head}-first`, stored)).toEqual({ matches: true, needsUpgrade: false });
    expect(await hasher.verify(`${head}-other`, stored)).toEqual({ matches: false, needsUpgrade: false });
  });

  it('needs the same pepper: another server key does not match', async () => {
    const stored = await hasher.hash('Str0ng!Pass');
    const other = new PasswordHasher({ passwordPepper: 'other-'.repeat(6) });
    expect((await other.verify('Str0ng!Pass', stored)).matches).toBe(false);
  });

  it('accepts a plain bcrypt hash of before and asks for its upgrade; no hash never matches', async () => {
    const legacy = await bcrypt.hash('Str0ng!Pass', 4);
    expect(await hasher.verify('Str0ng!Pass', legacy)).toEqual({ matches: true, needsUpgrade: true });
    expect(await hasher.verify('Wrong!Pass1', legacy)).toEqual({ matches: false, needsUpgrade: false });
    expect(await hasher.verify('Str0ng!Pass', null)).toEqual({ matches: false, needsUpgrade: false });
    expect(await hasher.verify('Str0ng!Pass', '!')).toEqual({ matches: false, needsUpgrade: false });
  });
});

import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const secret = 'x'.repeat(48);

  it('opens what it sealed, for the same context only', () => {
    const box = new SecretBox(secret, 'refresh-successor');
    const sealed = box.seal('token-value', 'row-1');
    expect(sealed).toMatch(/^v1\.[\w-]+$/);
    expect(sealed).not.toContain('token-value');
    expect(box.open(sealed, 'row-1')).toBe('token-value');
    expect(box.open(sealed, 'row-2')).toBeNull();
    // A fresh IV each time: the same plaintext never seals the same way twice.
    expect(box.seal('token-value', 'row-1')).not.toBe(sealed);
  });

  it('refuses other keys, other purposes and tampered or malformed boxes', () => {
    const box = new SecretBox(secret, 'refresh-successor');
    const sealed = box.seal('token-value', 'row-1');
    expect(new SecretBox('y'.repeat(48), 'refresh-successor').open(sealed, 'row-1')).toBeNull();
    expect(new SecretBox(secret, 'other-purpose').open(sealed, 'row-1')).toBeNull();
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[14] ^= 1;
    expect(box.open(`v1.${bytes.toString('base64url')}`, 'row-1')).toBeNull();
    for (const bad of ['', 'v1.', 'v2.' + sealed.slice(3), 'v1.abc', 'not a box']) expect(box.open(bad, 'row-1')).toBeNull();
  });
});

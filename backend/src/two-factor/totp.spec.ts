import { generate } from 'otplib';
import { matchTotp, newRecoveryCodes, newTotpSecret, otpauthUri, readCode } from './totp';

describe('two-factor codes', () => {
  const secret = newTotpSecret();
  const now = Math.floor(Date.now() / 1000);
  const stepOf = (epoch: number) => Math.floor(epoch / 30);
  // A fixed point in the middle of a step, so neighbouring steps are exactly ±30 s away.
  const at = (steps: number) => (stepOf(now) + steps) * 30 + 15;

  it('reads an authenticator code or a recovery code, typed with spaces, dashes or capitals, and nothing else', () => {
    expect(readCode(' 123 456 ')).toEqual({ kind: 'totp', code: '123456' });
    expect(readCode('ABCDE-FGHJK')).toEqual({ kind: 'recovery', code: 'abcdefghjk' });
    expect(readCode('abcde fghjk')).toEqual({ kind: 'recovery', code: 'abcdefghjk' });
    for (const wrong of ['', '12345', '1234567', 'abcde-fghj', 'abcde-fghj0', 'abcde-fghjl', '12345a']) expect(readCode(wrong)).toBeNull();
  });

  it('makes 10 distinct recovery codes of the readable alphabet', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
      expect(readCode(code)?.kind).toBe('recovery');
    }
  });

  it('names the issuer Inkwell in the otpauth URI', () => {
    expect(otpauthUri(secret, 'ann@example.com')).toBe(`otpauth://totp/Inkwell:ann%40example.com?secret=${secret}&issuer=Inkwell`);
  });

  it('accepts the current step and one either side, and only steps after the last used one', async () => {
    jest.useFakeTimers({ now: at(0) * 1000, doNotFake: ['nextTick', 'setImmediate'] });
    try {
      for (const steps of [-1, 0, 1])
        expect(await matchTotp(secret, await generate({ secret, epoch: at(steps) }), null)).toBe(stepOf(now) + steps);
      for (const steps of [-2, 2]) expect(await matchTotp(secret, await generate({ secret, epoch: at(steps) }), null)).toBeNull();
      const current = await generate({ secret, epoch: at(0) });
      expect(await matchTotp(secret, current, stepOf(now) - 1)).toBe(stepOf(now));
      expect(await matchTotp(secret, current, stepOf(now))).toBeNull();
      expect(await matchTotp(secret, await generate({ secret, epoch: at(1) }), stepOf(now))).toBe(stepOf(now) + 1);
    } finally {
      jest.useRealTimers();
    }
  });
});

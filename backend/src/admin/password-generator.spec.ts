import { PASSWORD_SPECIALS } from '../common/validation/field.rules';
import { generatePassword } from './password-generator';

describe('generatePassword', () => {
  it('meets the strict rule every time: 8+, upper, lower, digit, special from the rule set', () => {
    const specials = new Set(PASSWORD_SPECIALS);
    for (let i = 0; i < 500; i += 1) {
      const password = generatePassword();
      expect(password).toHaveLength(16);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/\d/);
      expect([...password].some((c) => specials.has(c))).toBe(true);
      expect([...password].every((c) => /[A-Za-z0-9]/.test(c) || specials.has(c))).toBe(true);
    }
  });

  it('does not repeat itself', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => generatePassword()));
    expect(seen.size).toBe(1000);
  });
});

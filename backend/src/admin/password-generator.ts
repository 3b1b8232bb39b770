import { randomInt } from 'node:crypto';

// Look-alikes (I, l, O, 0, 1) left out: the password may be read aloud or typed from an e-mail.
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
/** A subset of the strict rule's specials (common/validation/field.rules.ts PASSWORD_SPECIALS) that survives copy and paste. */
const SPECIALS = '!@#$%^&*-_=+?';
const ALL = UPPER + LOWER + DIGITS + SPECIALS;

/**
 * A random password from the CSPRNG that meets the strict rule of docs/requirements.md (8+ characters with an
 * upper-case letter, a lower-case letter, a digit and a special character): one of each class,
 * the rest from all of them, shuffled. 16 characters ≈ 99 bits.
 */
export function generatePassword(length = 16): string {
  const pick = (set: string) => set[randomInt(set.length)];
  const chars = [pick(UPPER), pick(LOWER), pick(DIGITS), pick(SPECIALS)];
  while (chars.length < length) chars.push(pick(ALL));
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

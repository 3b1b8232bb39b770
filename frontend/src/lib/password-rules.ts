/**
 * The strict password rule of register, reset and change (docs/requirements.md#password-strength) and its strength meter.
 * The special characters are the server's set (backend/src/auth/dto/field.rules.ts).
 */
import { PasswordTexts } from './texts/account-fields';
import { charCount } from '../../../isomorphic/text';

export const SPECIAL_CHARACTERS = /[!@#$%^&*(),.?":{}|<>_\-+=[\]\\/;'`~]/;

export interface PasswordRule {
  key: 'length' | 'upper' | 'lower' | 'digit' | 'special';
  label: string;
  test: (password: string) => boolean;
  message: string;
}

export const PASSWORD_RULES: PasswordRule[] = [
  { key: 'length', label: 'Ít nhất 8 ký tự', test: (p) => charCount(p) >= 8, message: PasswordTexts.MIN },
  { key: 'upper', label: 'Một chữ hoa', test: (p) => /[A-Z]/.test(p), message: PasswordTexts.UPPER },
  { key: 'lower', label: 'Một chữ thường', test: (p) => /[a-z]/.test(p), message: PasswordTexts.LOWER },
  { key: 'digit', label: 'Một chữ số', test: (p) => /\d/.test(p), message: PasswordTexts.DIGIT },
  { key: 'special', label: 'Một ký tự đặc biệt', test: (p) => SPECIAL_CHARACTERS.test(p), message: PasswordTexts.SPECIAL },
];

/** Number of satisfied rules, 0 to 5. */
export function passwordScore(password: string): number {
  return PASSWORD_RULES.filter((rule) => rule.test(password)).length;
}

export type StrengthLevel = 'weak' | 'medium' | 'strong' | 'very-strong';

/** Up to 1 weak, up to 3 medium, 4 strong, 5 very strong. */
export function passwordStrength(password: string): { score: number; level: StrengthLevel; label: string } {
  const score = passwordScore(password);
  if (score <= 1) return { score, level: 'weak', label: 'Yếu' };
  if (score <= 3) return { score, level: 'medium', label: 'Trung bình' };
  if (score === 4) return { score, level: 'strong', label: 'Mạnh' };
  return { score, level: 'very-strong', label: 'Rất mạnh' };
}

/** The first rule the password breaks (Vietnamese message), or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (!password) return PasswordTexts.REQUIRED;
  return PASSWORD_RULES.find((rule) => !rule.test(password))?.message;
}

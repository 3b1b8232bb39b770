/** Field checks the registration, login, forgot-password and profile forms share (spec 000 §5). */
import { RegisterTexts } from '../features/auth/texts';
import { charCount, hasInvisible, trimInvisible } from '../../../shared/text';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A plausible address without invisible characters (the server refuses look-alikes such as a zero-width space). */
export const isEmail = (value: string): boolean => EMAIL.test(value.trim()) && !hasInvisible(value);

/** Full name (2–100 after trimming) and e-mail, with the registration form's texts. */
export function nameAndEmailErrors(values: { fullName: string; email: string }): { fullName?: string; email?: string } {
  const errors: { fullName?: string; email?: string } = {};
  const name = trimInvisible(values.fullName);
  if (!name) errors.fullName = RegisterTexts.FULL_NAME_REQUIRED;
  else if (charCount(name) < 2) errors.fullName = RegisterTexts.FULL_NAME_MIN;
  else if (charCount(name) > 100) errors.fullName = RegisterTexts.FULL_NAME_MAX;
  if (!values.email.trim()) errors.email = RegisterTexts.EMAIL_REQUIRED;
  else if (!isEmail(values.email)) errors.email = RegisterTexts.EMAIL_INVALID;
  return errors;
}

/** Field checks the registration, login, forgot-password and profile forms share (spec 000 §5). */
import { RegisterTexts } from '../features/auth/texts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: string): boolean => EMAIL.test(value.trim());

/** Full name (2–100 after trimming) and e-mail, with the registration form's texts. */
export function nameAndEmailErrors(values: { fullName: string; email: string }): { fullName?: string; email?: string } {
  const errors: { fullName?: string; email?: string } = {};
  const name = values.fullName.trim();
  if (!name) errors.fullName = RegisterTexts.FULL_NAME_REQUIRED;
  else if (name.length < 2) errors.fullName = RegisterTexts.FULL_NAME_MIN;
  else if (name.length > 100) errors.fullName = RegisterTexts.FULL_NAME_MAX;
  if (!values.email.trim()) errors.email = RegisterTexts.EMAIL_REQUIRED;
  else if (!isEmail(values.email)) errors.email = RegisterTexts.EMAIL_INVALID;
  return errors;
}

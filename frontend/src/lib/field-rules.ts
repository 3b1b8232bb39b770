/** Field checks the registration, login, forgot-password and profile forms share (docs/requirements.md#validation-forgot-password). */
import { NameAndEmailTexts } from './texts/account-fields';
import { mixesScripts } from '../../../isomorphic/email-scripts';
import { canonicalEmail, charCount, hasInvisible, trimInvisible } from '../../../isomorphic/text';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A plausible address without invisible characters (the server refuses look-alikes such as a zero-width space). */
export const isEmail = (value: string): boolean => EMAIL.test(value.trim()) && !hasInvisible(value);

/** An address being set that mixes scripts ('duрx' with a Cyrillic 'р'), as the server judges it; the current one is never refused. */
export const isMixedScriptEmail = (value: string, current?: string): boolean => {
  const email = canonicalEmail(value);
  return email !== (current === undefined ? undefined : canonicalEmail(current)) && mixesScripts(email);
};

/** Full name (2–100 after trimming) and e-mail, with the registration form's texts; `currentEmail`: the account's own (the profile). */
export function nameAndEmailErrors(
  values: { fullName: string; email: string },
  currentEmail?: string,
): { fullName?: string; email?: string } {
  const errors: { fullName?: string; email?: string } = {};
  const name = trimInvisible(values.fullName);
  if (!name) errors.fullName = NameAndEmailTexts.FULL_NAME_REQUIRED;
  else if (charCount(name) < 2) errors.fullName = NameAndEmailTexts.FULL_NAME_MIN;
  else if (charCount(name) > 100) errors.fullName = NameAndEmailTexts.FULL_NAME_MAX;
  if (!values.email.trim()) errors.email = NameAndEmailTexts.EMAIL_REQUIRED;
  else if (!isEmail(values.email)) errors.email = NameAndEmailTexts.EMAIL_INVALID;
  else if (isMixedScriptEmail(values.email, currentEmail)) errors.email = NameAndEmailTexts.EMAIL_MIXED_SCRIPTS;
  return errors;
}

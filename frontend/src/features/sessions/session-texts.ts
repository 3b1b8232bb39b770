/** Texts of 'Where you're signed in' on /account. */
import { errorText } from '../../lib/texts/error-text';
import { countNoun } from '../../lib/texts/nouns';
import { englishNoun } from '../../../../isomorphic/plural';

const OTHER_SESSION = englishNoun('other session');

export const SessionTexts = {
  TITLE: "Where you're signed in",
  INTRO: "These devices are signed in to your account. If you don't recognise one, sign it out and change your password.",
  THIS_DEVICE: 'This device',
  SIGN_OUT: 'Sign out',
  SIGN_OUT_OTHERS: 'Sign out all other sessions',
  ONLY_THIS_DEVICE: "You're signed in on this device only.",
  NONE: 'No active sessions.',
  LOAD_FAILED: 'Could not load your sessions.',
  SIGN_OUT_FAILED: 'Could not sign that session out. Please try again.',
  SIGN_OUT_OTHERS_FAILED: 'Could not sign out the other sessions. Please try again.',
  ALREADY_ENDED: 'That session had already ended.',
  ALERT_LABEL: 'E-mail me when my account is signed in to from a new device',
  ALERT_HINT: 'A device is new when its browser and system have not signed in to your account in the last 90 days.',
  ALERT_SAVED_ON: 'New-device e-mails are on.',
  ALERT_SAVED_OFF: 'New-device e-mails are off.',
  ALERT_FAILED: 'Could not save the setting. Please try again.',
  signedIn: (when: string) => `Signed in ${when}`,
  lastActive: (when: string) => `Last active ${when}`,
  signOutLabel: (device: string, place: string) => `Sign out ${device}, ${place}`,
  signedOut: (device: string) => `Signed out of ${device}.`,
  signedOutOthers: (count: number) =>
    count === 0 ? 'There were no other sessions to sign out.' : `Signed out of ${countNoun(count, OTHER_SESSION)}.`,
} as const;

export const sessionErrorMessage = (error: unknown, fallback: string): string =>
  errorText(error, { fallback, server: fallback, status: { 404: SessionTexts.ALREADY_ENDED }, fieldErrors: true });

/**
 * The resend-code countdown (docs/requirements.md#resend-verification): allowed when it reached 0 (the first resend at once),
 * 60 s after each send; the last send time and the attempt count are kept per e-mail in
 * localStorage so a reload keeps the countdown.
 */
export const RESEND_COOLDOWN_S = 60;

interface Stored {
  lastSentAt: number;
  attempts: number;
}

const key = (email: string) => `resendVerification:${email.trim().toLowerCase()}`;

export function readResend(email: string): Stored {
  try {
    const value = JSON.parse(localStorage.getItem(key(email)) ?? 'null') as Partial<Stored> | null;
    if (value && typeof value.lastSentAt === 'number' && typeof value.attempts === 'number')
      return { lastSentAt: value.lastSentAt, attempts: value.attempts };
  } catch {
    // corrupt or unavailable storage: start afresh
  }
  return { lastSentAt: 0, attempts: 0 };
}

export function recordResend(email: string, waitSeconds = RESEND_COOLDOWN_S, countAttempt = true): Stored {
  const previous = readResend(email);
  const next = {
    lastSentAt: Date.now() - (RESEND_COOLDOWN_S - waitSeconds) * 1000,
    attempts: previous.attempts + (countAttempt ? 1 : 0),
  };
  try {
    localStorage.setItem(key(email), JSON.stringify(next));
  } catch {
    // storage full or blocked: the countdown still runs for this page
  }
  return next;
}

/** Seconds left before the next resend is allowed. */
export function secondsLeft(stored: Stored, now = Date.now()): number {
  if (!stored.lastSentAt) return 0;
  return Math.max(0, Math.ceil((stored.lastSentAt + RESEND_COOLDOWN_S * 1000 - now) / 1000));
}

/**
 * 'Resend code', 'Resend code (n)', 'Resend in m:ss', 'Sending...'. The spec allows 'm:ss' or 'Ns';
 * one of them throughout, so the countdown does not change format between 1:00 and 59.
 */
export function resendLabel(stored: Stored, left: number, sending: boolean): string {
  if (sending) return 'Sending...';
  if (left > 0) return `Resend in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
  return stored.attempts > 0 ? `Resend code (${stored.attempts})` : 'Resend code';
}

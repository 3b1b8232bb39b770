/**
 * The TOTP and recovery-code rules of two-factor sign-in, on a kept library (otplib): 30-second
 * steps, 6 digits, SHA-1 (what authenticator apps expect), codes accepted one step either side.
 * No database and no Nest here.
 */
import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';

export const TOTP_ISSUER = 'Inkwell';
export const TOTP_PERIOD_SECONDS = 30;
/** ±1 step: a code from the step before or after the current one is still accepted (clock drift, typing time). */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

export const RECOVERY_CODE_COUNT = 10;
/** Lower-case letters and digits without look-alikes (0/o, 1/l/i): 31 symbols, 10 per code (≈ 49 bits). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

export const TOTP_CODE = /^\d{6}$/;
/** A recovery code as typed: `xxxxx-xxxxx`, any case, the dash and spaces optional. */
const RECOVERY_CODE = new RegExp(`^[${RECOVERY_ALPHABET}]{${RECOVERY_LENGTH}}$`);

export function newTotpSecret(): string {
  return generateSecret();
}

export function otpauthUri(secret: string, accountLabel: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: accountLabel, secret });
}

/**
 * The time step the code belongs to when it is right within ±1 step and newer than
 * `afterStep` (the last step used: replay), else null.
 */
export async function matchTotp(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const symbols = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${symbols.slice(0, 5)}-${symbols.slice(5)}`;
  });
}

export type TypedCode = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string } | null;

/** What the user typed: an authenticator code, a recovery code (normalised), or neither. */
export function readCode(input: string): TypedCode {
  const compact = input.replace(/[\s-]/g, '').toLowerCase();
  if (TOTP_CODE.test(compact)) return { kind: 'totp', code: compact };
  if (RECOVERY_CODE.test(compact)) return { kind: 'recovery', code: compact };
  return null;
}

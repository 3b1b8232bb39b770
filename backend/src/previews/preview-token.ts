import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Preview link tokens: `<linkId>.<expiresAtSeconds>.<signature>`, the signature an HMAC-SHA256
 * (base64url) of the first two parts with a key derived from the app's JWT secret (so a token is
 * good on every instance and a leaked preview token can never pass for a session token). The
 * token names its row; revocation and the row's own expiry are checked there.
 */
const TOKEN = /^([1-9]\d{0,9})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export function previewKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('inkwell:preview-links:v1').digest();
}

function signatureOf(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

export function signPreviewToken(key: Buffer, linkId: number, expiresAt: Date): string {
  const payload = `${linkId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${payload}.${signatureOf(key, payload)}`;
}

/** The link id and expiry a well-formed, correctly signed token names; null otherwise (never throws). */
export function readPreviewToken(key: Buffer, token: string): { linkId: number; expiresAt: Date } | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, id, seconds, signature] = match;
  // Compared as text: decoding first would let the spare bits of the last character vary.
  const given = Buffer.from(signature);
  const expected = Buffer.from(signatureOf(key, `${id}.${seconds}`));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const linkId = Number(id);
  if (linkId > 2147483647) return null;
  return { linkId, expiresAt: new Date(Number(seconds) * 1000) };
}

import type { IncomingHttpHeaders } from 'node:http';
import { API_TOKEN_PREFIX } from '../../../isomorphic/api-tokens';
import { sha256 } from '../sessions/sessions.service';

const BEARER_API_TOKEN = new RegExp(`^Bearer\\s+(${API_TOKEN_PREFIX}\\S*)\\s*$`, 'i');

/** The API token of `Authorization: Bearer inkw_…`, if that is what the request carries. */
export function apiTokenOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  return typeof header === 'string' ? BEARER_API_TOKEN.exec(header)?.[1] : undefined;
}

/**
 * Hashes of tokens this process has seen work, most recent last (bounded). The rate limiter
 * counts a known token's requests per token and everything else per client address: a made-up
 * token does not buy a fresh budget, and the limiter needs no database read of its own.
 */
const KNOWN_LIMIT = 10_000;
const known = new Set<string>();

export function rememberTokenHash(hash: string): void {
  if (known.has(hash)) return;
  if (known.size >= KNOWN_LIMIT) known.delete(known.values().next().value as string);
  known.add(hash);
}

/** The rate-limit key of the request's token ('api-token:<hash>'), or undefined to count by address. */
export function tokenTrackerOf(headers: IncomingHttpHeaders): string | undefined {
  const token = apiTokenOf(headers);
  if (!token) return undefined;
  const hash = sha256(token);
  return known.has(hash) ? `api-token:${hash}` : undefined;
}

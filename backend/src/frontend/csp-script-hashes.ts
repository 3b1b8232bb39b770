import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRONTEND_DIST } from './frontend.module';

/** Written by the build (scripts/csp-script-hashes.mjs) beside the server bundle. */
export const CSP_SCRIPT_HASHES_FILE = join(FRONTEND_DIST, 'server', 'csp-script-hashes.json');
const HASH_SOURCE = /^'sha256-[A-Za-z0-9+/]+={0,2}'$/;

/**
 * The hashes of the inline scripts the built pages carry, for script-src. None without a build
 * (API-only tests, the OpenAPI script): no page there has an inline script to allow. A file that
 * is not a list of hash sources stops start-up rather than weaken or break the policy.
 */
export function readInlineScriptHashes(file: string = CSP_SCRIPT_HASHES_FILE): string[] {
  if (!existsSync(file)) return [];
  const { scriptHashes } = JSON.parse(readFileSync(file, 'utf8')) as { scriptHashes?: unknown };
  if (!Array.isArray(scriptHashes) || !scriptHashes.every((hash) => typeof hash === 'string' && HASH_SOURCE.test(hash))) {
    throw new Error(`${file} must hold { "scriptHashes": ["'sha256-…'", …] }: rebuild the frontend (npm run build:frontend)`);
  }
  return scriptHashes as string[];
}

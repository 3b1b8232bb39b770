import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRONTEND_DIST } from './frontend.module';

/** Written by the build (scripts/csp-script-hashes.mjs) beside the server bundle. */
export const CSP_SCRIPT_HASHES_FILE = join(FRONTEND_DIST, 'server', 'csp-script-hashes.json');
const HASH_SOURCE = /^'sha256-[A-Za-z0-9+/]+={0,2}'$/;

export interface InlineHashes {
  scriptHashes: string[];
  styleHashes: string[];
}

const isHashList = (list: unknown): list is string[] =>
  Array.isArray(list) && list.every((hash) => typeof hash === 'string' && HASH_SOURCE.test(hash));

/**
 * The hashes of the inline scripts and `<style>` elements the built pages carry, for script-src
 * and style-src. None without a build (API-only tests, the OpenAPI script): no page there has an
 * inline script or style to allow. A file that is not lists of hash sources stops start-up rather
 * than weaken or break the policy.
 */
export function readInlineHashes(file: string = CSP_SCRIPT_HASHES_FILE): InlineHashes {
  if (!existsSync(file)) return { scriptHashes: [], styleHashes: [] };
  const { scriptHashes, styleHashes } = JSON.parse(readFileSync(file, 'utf8')) as { scriptHashes?: unknown; styleHashes?: unknown };
  if (!isHashList(scriptHashes) || !isHashList(styleHashes)) {
    throw new Error(
      `${file} must hold { "scriptHashes": ["'sha256-…'", …], "styleHashes": [...] }: rebuild the frontend (npm run build:frontend)`,
    );
  }
  return { scriptHashes, styleHashes };
}

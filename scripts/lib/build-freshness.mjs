// Which builds are missing or older than their sources: `npm start` builds those before it runs
// the server, `npm run screenshots` reuses the build when none is.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** [npm script, its output, the sources it is built from], in build order. */
// Both sides compile the root isomorphic/ folder too.
export const BUILDS = [
  [
    'build:backend',
    'dist/backend/src/main.js',
    ['backend/src', 'isomorphic', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'package.json'],
  ],
  // The CSP hash list is the frontend build's last server file: a build without it is stale too.
  [
    'build:frontend',
    'frontend/dist/server/csp-script-hashes.json',
    [
      'frontend/src',
      'isomorphic',
      'frontend/public',
      'frontend/astro.config.mjs',
      'scripts/csp-script-hashes.mjs',
      'scripts/precompress-assets.mjs',
      'package.json',
    ],
  ],
];

function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== 'node_modules' && entry !== 'dist') visit(join(path, entry));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of paths) visit(join(ROOT, path));
  return newest;
}

/** The npm scripts of BUILDS whose output is missing or older than a source. */
export function staleBuilds() {
  return BUILDS.filter(([, output, sources]) => {
    const target = join(ROOT, output);
    return !existsSync(target) || statSync(target).mtimeMs < newestMtime(sources);
  }).map(([script]) => script);
}

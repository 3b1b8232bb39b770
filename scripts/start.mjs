// `npm start`: builds whatever is missing or older than its sources, then runs the server in this
// very process (so Ctrl-C and SIGTERM reach it directly and it stops PostgreSQL on the way out).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== 'node_modules' && entry !== 'dist') visit(join(path, entry));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of paths) visit(join(root, path));
  return newest;
}

function isStale(output, sources) {
  const target = join(root, output);
  return !existsSync(target) || statSync(target).mtimeMs < newestMtime(sources);
}

function build(script) {
  console.log(`Building (${script})...`);
  execSync(`npm run --silent ${script}`, { cwd: root, stdio: 'inherit' });
}

// Both sides compile the root shared/ folder too.
const builds = [
  ['build:backend', 'dist/backend/src/main.js', ['backend/src', 'shared', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'package.json']],
  // The CSP hash list is the frontend build's last server file: a build without it is stale too.
  ['build:frontend', 'frontend/dist/server/csp-script-hashes.json', ['frontend/src', 'shared', 'frontend/public', 'frontend/astro.config.mjs', 'scripts/csp-script-hashes.mjs', 'scripts/precompress-assets.mjs', 'package.json']],
];
try {
  for (const [script, output, sources] of builds) if (isStale(output, sources)) build(script);
} catch {
  console.error('Inkwell cannot start: the build failed (see above).');
  process.exit(1);
}

// The built server is the production server: without NODE_ENV, React renders pages with its
// development build (prop checks, dev stacks; the uncached post page about 15 % slower here).
// An explicit NODE_ENV (e.g. development) is kept.
process.env.NODE_ENV ||= 'production';
await import(pathToFileURL(join(root, 'dist/backend/src/main.js')).href);

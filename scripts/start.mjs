// `npm start`: builds whatever is missing or older than its sources, then runs the server in this
// very process (so Ctrl-C and SIGTERM reach it directly and it stops PostgreSQL on the way out).
import { execSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { staleBuilds } from './lib/build-freshness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function build(script) {
  console.log(`Building (${script})...`);
  execSync(`npm run --silent ${script}`, { cwd: root, stdio: 'inherit' });
}

try {
  for (const script of staleBuilds()) build(script);
} catch {
  console.error('Inkwell cannot start: the build failed (see above).');
  process.exit(1);
}

// The built server is the production server: without NODE_ENV, React renders pages with its
// development build (prop checks, dev stacks; the uncached post page about 15 % slower here).
// An explicit NODE_ENV (e.g. development) is kept.
process.env.NODE_ENV ||= 'production';
await import(pathToFileURL(join(root, 'dist/backend/src/main.js')).href);

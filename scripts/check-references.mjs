#!/usr/bin/env node
// `npm run lint:links` (after remark, which checks the Markdown links): in every tracked text
// file, a `docs/<file>.md#anchor` written as text names a file and an anchor that exist (headings
// by GitHub's ids, or `<a id="…">`), and nothing cites a document outside the repository (an
// outside spec, design or style file, an issue number, a path to the shared/ folder above the root).
// Rules: scripts/lib/references.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkReferences } from './lib/references.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// Generated or vendored text, and the rule files themselves (they spell out what they look for).
const SKIP = new Set(['package-lock.json', 'scripts/lib/references.mjs', 'scripts/lib/references.test.mjs']);
const BINARY = /\.(png|jpe?g|gif|webp|avif|ico|woff2?|ttf|otf|zip|gz|br|pdf|mp4|webm)$/i;

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
const files = new Map();
for (const file of tracked) {
  if (SKIP.has(file) || BINARY.test(file)) continue;
  const full = join(ROOT, file);
  if (!existsSync(full) || !statSync(full).isFile() || statSync(full).size > 10_000_000) continue;
  const text = readFileSync(full, 'utf8');
  if (text.includes('\0')) continue;
  files.set(file, text);
}

const problems = checkReferences(files, (p) => files.has(p) || existsSync(join(ROOT, p)));
if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} reference(s) to fix (docs/requirements.md lists the anchors).`);
  process.exit(1);
}
console.log(`References: ${files.size} files checked, every docs/…#anchor resolves, none points outside the repository.`);

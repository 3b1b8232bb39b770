#!/usr/bin/env node
// The layout's import rules (.dependency-cruiser.cjs), checked by dependency-cruiser over
// backend/src, frontend/src and isomorphic/ (when present). `npm run lint:deps`; fails on any new
// violation. Known ones, left to the work that removes them, are listed in
// .dependency-cruiser-known-violations.json: `npm run lint:deps -- --update-known` rewrites it.
//
// dependency-cruiser reads no .astro file, and most pages and many components are .astro; so the
// sources are copied to a scratch folder where each X.astro becomes X.astro.ts holding its
// frontmatter and its bundled <script>s. An import of './X.astro' then resolves to it, and the
// reports name it X.astro again (the known-violations list keeps the scratch names).
//
// It also checks, in the sources, that tables with one writing module (TABLE_WRITERS: users,
// audit_log) are written by no other: an import rule cannot see SQL.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['backend/src', 'frontend/src', 'isomorphic'].filter((root) => existsSync(join(ROOT, root)));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const KNOWN = join(ROOT, '.dependency-cruiser-known-violations.json');
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const ASTRO_SUFFIX = /\.astro\.ts\b/g;

/** The script an .astro file runs through the bundler: its frontmatter and its non-inline <script>s. */
function astroScript(source) {
  const frontmatter = /^\s*---\r?\n([\s\S]*?)\r?\n---/.exec(source)?.[1] ?? '';
  const scripts = [...source.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes = '']) => !/\bis:inline\b|\btype=["']application\/ld\+json["']|\bset:html\b/.test(attributes))
    .map(([, , body]) => body);
  return [frontmatter, ...scripts].join('\n;\n');
}

function mirror(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) {
      mirror(source, join(to, entry.name));
    } else if (entry.name.endsWith('.astro')) {
      mkdirSync(to, { recursive: true });
      writeFileSync(join(to, `${entry.name}.ts`), astroScript(readFileSync(source, 'utf8')));
    } else if (CODE.test(entry.name)) {
      mkdirSync(to, { recursive: true });
      cpSync(source, join(to, entry.name));
    }
  }
}

/**
 * Tables with one writing module, checked in the sources (an import rule cannot see SQL): outside
 * its `owner` folder (and bin/, whose seeder and measuring scripts write their own demo rows), no
 * file may write `table` in SQL nor through its entity (`manager.update(User, ...)`,
 * `getRepository(User).update(...)`, or a `@InjectRepository(User)` field's update/insert/...).
 */
const TABLE_WRITERS = [
  { table: 'users', entity: 'User', owner: 'backend/src/users/' },
  { table: 'audit_log', entity: 'AuditEntry', owner: 'backend/src/audit/' },
];
const WRITE_METHODS = '(?:update|insert|delete|save|upsert|increment|decrement|remove|softDelete|restore)';

function tableWriteViolations() {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name) && !/\.(spec|d)\.ts$/.test(entry.name)) check(path);
    }
  };
  const check = (path) => {
    if (path.startsWith('backend/src/bin/')) return;
    const source = readFileSync(join(ROOT, path), 'utf8');
    for (const { table, entity, owner } of TABLE_WRITERS) {
      if (path.startsWith(owner)) continue;
      const fields = [
        ...source.matchAll(
          new RegExp(`@InjectRepository\\(\\s*${entity}\\s*\\)\\s*(?:private|protected|public)?\\s*(?:readonly\\s+)?(\\w+)`, 'g'),
        ),
      ].map((match) => match[1]);
      const patterns = [
        new RegExp(`\\b(?:UPDATE|INSERT\\s+INTO|DELETE\\s+FROM)\\s+${table}\\b`),
        new RegExp(`\\.${WRITE_METHODS}\\(\\s*${entity}\\s*[,)]`),
        new RegExp(`\\.into\\(\\s*${entity}\\b`),
        new RegExp(`getRepository\\(\\s*${entity}\\s*\\)\\s*\\.${WRITE_METHODS}\\(`),
        ...fields.map((field) => new RegExp(`this\\.${field}\\s*\\.${WRITE_METHODS}\\(`)),
      ];
      source.split('\n').forEach((line, index) => {
        if (patterns.some((pattern) => pattern.test(line)))
          found.push(`${path}:${index + 1}: writes ${table} outside ${owner} (call its owner's service)\n    ${line.trim()}`);
      });
    }
  };
  if (existsSync(join(ROOT, 'backend/src'))) walk('backend/src');
  return found;
}

const updateKnown = process.argv.includes('--update-known');
const extra = process.argv.slice(2).filter((arg) => arg !== '--update-known');
const scratch = mkdtempSync(join(tmpdir(), 'inkwell-lint-deps-'));
let status = 1;
try {
  for (const root of ROOTS) mirror(join(ROOT, root), join(scratch, root));
  const cli = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const args = updateKnown
    ? [cli, '--config', CONFIG, '--output-type', 'baseline', '--output-to', KNOWN, ...ROOTS]
    : [
        cli,
        '--config',
        CONFIG,
        ...(existsSync(KNOWN) && !extra.includes('--no-ignore-known') ? ['--ignore-known', KNOWN] : []),
        '--output-type',
        'err-long',
        ...extra,
        ...ROOTS,
      ];
  const run = spawnSync(process.execPath, args, { cwd: scratch, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write((run.stdout ?? '').replace(ASTRO_SUFFIX, '.astro'));
  process.stderr.write((run.stderr ?? '').replace(ASTRO_SUFFIX, '.astro'));
  status = run.status ?? 1;
  const writes = tableWriteViolations();
  if (writes.length) {
    process.stderr.write(
      `\n${writes.length} write(s) to a table outside its owner (TABLE_WRITERS in scripts/lint-deps.mjs):\n${writes.map((line) => `  ${line}`).join('\n')}\n`,
    );
    status = 1;
  }
  // The list names .astro files as the scratch copy does (X.astro.ts), so that it matches there.
  if (updateKnown && status === 0) console.log(`${relative(ROOT, KNOWN)} rewritten.`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(status);

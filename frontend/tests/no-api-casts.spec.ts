import { expect, test } from './fixtures';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * API answers are typed by their operation (`unwrap`, `load`, `unwrapWithMessage`, `upload` return
 * the envelope's data of the OpenAPI operation), so no code under frontend/src casts one. This
 * scan fails on a new cast of that kind and names its file and line. No browser page needed.
 */

const ROOT = join(__dirname, '..');
const SRC = join(ROOT, 'src');

/** Double casts, casts to DataOf, and a typed call told its answer's type (`unwrapWithMessage<Post>(...)`): anywhere. */
const PATTERNS: { name: string; pattern: RegExp }[] = [
  { name: 'as unknown as', pattern: /\bas\s+unknown\s+as\b/g },
  { name: 'as DataOf', pattern: /\bas\s+DataOf\b/g },
  { name: 'type argument', pattern: /(?<!function\s+)\b(?:unwrap|unwrapWithMessage|load|upload)\s*<[^>(]*>\s*\(/g },
];

/** The calls that return an API answer typed by its operation: a cast right after one is a cast of that answer. */
const TYPED_CALLS = /\b(unwrap|unwrapWithMessage|load|upload)\(/g;

/** Index of the `)` closing the `(` at `open` (strings and template literals skipped). */
function closingParen(source: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let index = open; index < source.length; index++) {
    const char = source[index];
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === '`') quote = char;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return index;
  }
  return -1;
}

/** Where casts of API answers stand in `source` (index of their `as`), with the kind. */
function castsIn(source: string): { at: number; cast: string }[] {
  const casts: { at: number; cast: string }[] = [];
  for (const { name, pattern } of PATTERNS) for (const match of source.matchAll(pattern)) casts.push({ at: match.index ?? 0, cast: name });
  for (const match of source.matchAll(TYPED_CALLS)) {
    const close = closingParen(source, (match.index ?? 0) + match[0].length - 1);
    if (close < 0) continue;
    // `(await unwrap(...)) as T`, `unwrap(...) as T`, over several lines too.
    const after = /^(\s*\))*\s*as\s+(?!const\b)/.exec(source.slice(close + 1));
    if (after) casts.push({ at: close + 1 + after[0].lastIndexOf('as'), cast: `${match[1]}(...) as` });
  }
  return casts;
}

/**
 * The justified casts, by file and the text of their line. Keep it short; each says why.
 * - page-client.ts: a method serving every operation of `paths` cannot be written as each
 *   operation's own signature (commented where it stands); the operations keep openapi-fetch's types.
 */
const ALLOWED: { file: string; line: string; reason: string }[] = [
  {
    file: 'src/lib/api/page-client.ts',
    line: 'return client as unknown as ApiClient;',
    reason: 'one gateway method stands for every typed operation',
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|astro|mts)$/.test(entry.name) ? [path] : [];
  });
}

interface Found {
  file: string;
  line: number;
  text: string;
  cast: string;
}

function findCasts(): Found[] {
  return sourceFiles(SRC).flatMap((path) => {
    const source = readFileSync(path, 'utf8');
    const lines = source.split('\n');
    return castsIn(source).map(({ at, cast }) => {
      const line = source.slice(0, at).split('\n').length;
      return { file: relative(ROOT, path), line, text: lines[line - 1].trim(), cast };
    });
  });
}

test('no code under frontend/src casts an API answer (only the allow-listed casts)', () => {
  const found = findCasts();
  const unexpected = found.filter((cast) => !ALLOWED.some((allowed) => allowed.file === cast.file && cast.text.includes(allowed.line)));
  expect(
    unexpected.map((cast) => `frontend/${cast.file}:${cast.line} (${cast.cast}): ${cast.text}`),
    'type the call by its operation instead of casting its answer',
  ).toEqual([]);
});

test('every allow-listed cast still exists (a removed one leaves the list)', () => {
  const found = findCasts();
  for (const allowed of ALLOWED) {
    expect(
      found.some((cast) => cast.file === allowed.file && cast.text.includes(allowed.line)),
      `${allowed.file}: ${allowed.line}`,
    ).toBe(true);
  }
});

test('the scan recognises the casts it forbids, and leaves other code alone', () => {
  const sample = [
    "const tag = (await unwrap(api.GET('/api/v1/blog/tags/{id}', { params: { path: { id } } }))) as AdminTag;",
    "const page = (await unwrap(\n  api.GET('/api/v1/blog/tags', { params: { query: { search: ')' } } }),\n)) as TagPage;",
    'const loaded = (await load(call)) as Loaded<Tag>;',
    'return { ok: true, data: (await call) as DataOf<P> };',
    'const body = file as unknown as string;',
    'const { data } = await unwrapWithMessage<PostResponse>(call);',
    "const sizes = [1, 2] as const; const raw = (await unwrap(call)); const id = params.get('id') as string | null;",
  ].join('\n');
  expect(
    castsIn(sample)
      .map(({ cast }) => cast)
      .sort(),
  ).toEqual(['as DataOf', 'as unknown as', 'load(...) as', 'type argument', 'unwrap(...) as', 'unwrap(...) as']);
});

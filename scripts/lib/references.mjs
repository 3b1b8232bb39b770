// The rules of `npm run lint:links` that remark cannot check (scripts/check-references.mjs):
// references written as text, e.g. `docs/requirements.md#comments-nesting` in a code comment, must
// name a file and an anchor that exist, and nothing may cite a document the repository does not
// contain. Pure: the caller reads the files.
import { posix } from 'node:path';
import { htmlAnchorIds } from './remark-html-anchors.mjs';

/** GitHub's id for a heading: lower case, punctuation out, spaces to hyphens. */
export function githubSlug(text) {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown text defines: its headings (numbered as GitHub numbers repeats) and its `<a id>`s. */
export function markdownAnchors(markdown) {
  const anchors = new Set(htmlAnchorIds(markdown));
  const seen = new Map();
  let fence = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence) continue;
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = githubSlug(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

// `docs/<file>.md` or `docs/<file>.md#anchor` written as text (not part of a longer path or URL).
const DOC_REFERENCE = /(?<![\w/.-])(docs\/[\w./-]*?\.md)(?:#([\p{L}\p{N}_-]+))?/gu;

/** The `docs/….md[#anchor]` mentions of a text, with their line numbers (1-based). */
export function docReferences(text) {
  const found = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(DOC_REFERENCE)) found.push({ line: i + 1, file: m[1], anchor: m[2] ?? null });
  });
  return found;
}

// Documents that live outside the repository. The patterns are assembled so that this file does
// not match them itself.
const OUTSIDE = [
  [new RegExp(String.raw`\b[Ss]pec(?:ification)? 00[01]\b`), 'names an outside specification file: cite docs/requirements.md#<anchor>'],
  [
    new RegExp(String.raw`(?<![\w.#/-])00[01] ?` + '\u00a7'),
    'cites a section of an outside specification: cite docs/requirements.md#<anchor>',
  ],
  [new RegExp(String.raw`\b[Ss]pec ` + '\u00a7'), 'cites a section of an outside specification: cite docs/requirements.md#<anchor>'],
  [new RegExp('DESIGN' + String.raw`\.md`), 'names an outside design file: cite docs/architecture.md or docs/requirements.md'],
  [new RegExp('STYLE' + String.raw`\.md`), 'names an outside style guide: cite docs/architecture.md'],
  [new RegExp('contracts' + String.raw`\.md`), 'names an outside contracts file'],
  [new RegExp(String.raw`\b[Ii]ssues? #?\d+`), 'names an issue: state the rule, or cite docs/…#anchor'],
  // A bare section number ("(\u00a78 'Add user')") cites the outside specification too; an RFC's sections are public.
  [
    new RegExp(String.raw`(?<!RFC \d+ )` + '\u00a7' + String.raw` ?\d`),
    'cites a section of an outside document: cite docs/requirements.md#<anchor>',
  ],
];

/**
 * References to documents outside the repository in `text`, the file at `filePath` (relative to the
 * root): at most one per line.
 */
export function outsideReferences(filePath, text) {
  const found = [];
  text.split('\n').forEach((line, i) => {
    const outside = OUTSIDE.find(([pattern]) => pattern.test(line));
    if (outside) {
      found.push({ line: i + 1, match: outside[0].exec(line)[0], why: outside[1] });
      return;
    }
    // A relative path to a shared/ folder: an import or require resolves from its file
    // (backend/src/x/y.ts reaches the repository's own shared/ three levels up); written anywhere
    // else, a path is read from the root, where one level up is outside the repository.
    const imports = [...line.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)['"]((?:\.\.\/)+)shared\//g)];
    for (const m of imports) {
      const target = posix.normalize(posix.join(posix.dirname(filePath), m[1]));
      if (target === '..' || target.startsWith('../')) {
        found.push({ line: i + 1, match: `${m[1]}shared/`, why: 'imports from outside the repository' });
        return;
      }
    }
    const prose = line.replace(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)['"](?:\.\.\/)+shared\//g, '');
    const m = /(?:\.\.\/)+shared\//.exec(prose);
    if (m) found.push({ line: i + 1, match: m[0], why: 'points outside the repository (paths in text are read from the root)' });
  });
  return found;
}

/**
 * The problems of a set of files: `files` maps a path (relative to the root) to its text, and
 * `exists(path)` says whether a path is in the repository (Markdown files are read from `files`).
 */
export function checkReferences(files, exists = (p) => files.has(p)) {
  const problems = [];
  const anchorsOf = new Map();
  const anchors = (file) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, files.has(file) ? markdownAnchors(files.get(file)) : null);
    return anchorsOf.get(file);
  };
  for (const [file, text] of files) {
    for (const ref of docReferences(text)) {
      const where = `${file}:${ref.line}`;
      const target = ref.file;
      if (!exists(target)) {
        problems.push(`${where}: ${target} does not exist`);
      } else if (ref.anchor && !anchors(target)?.has(ref.anchor)) {
        problems.push(`${where}: ${target} has no anchor #${ref.anchor}`);
      }
    }
    for (const out of outsideReferences(file, text)) {
      problems.push(`${file}:${out.line}: '${out.match}' ${out.why}`);
    }
  }
  return problems;
}

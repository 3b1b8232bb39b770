// `node --test scripts/lib/`: the rules of scripts/check-references.mjs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkReferences, docReferences, githubSlug, markdownAnchors, outsideReferences } from './references.mjs';

describe('anchors of a Markdown file', () => {
  it("are GitHub's heading ids, repeats numbered, and the explicit <a id> anchors", () => {
    const md = [
      '# Requirements',
      '## Which module may import which (`.dependency-cruiser.cjs`, `npm run lint:deps`)',
      '## Faults',
      '## Faults',
      '```sh',
      '# not a heading',
      '```',
      '<a id="comments-nesting"></a>',
      '**Nesting.** Levels 0 to 3.',
    ].join('\n');
    assert.deepEqual([...markdownAnchors(md)].sort(), [
      'comments-nesting',
      'faults',
      'faults-1',
      'requirements',
      'which-module-may-import-which-dependency-cruisercjs-npm-run-lintdeps',
    ]);
  });

  it('slugs keep letters of any script and drop punctuation', () => {
    assert.equal(githubSlug('Start-up, shutdown and faults (`backend/src/main.ts`)'), 'start-up-shutdown-and-faults-backendsrcmaints');
    assert.equal(githubSlug('Tiếng Việt: ngày'), 'tiếng-việt-ngày');
  });
});

describe('docs/… references written as text', () => {
  it('are found with their line, file and anchor, not inside longer paths', () => {
    const text = '// one (docs/requirements.md#comments-nesting)\nsee docs/events.md and https://x.org/docs/a.md#b';
    assert.deepEqual(docReferences(text), [
      { line: 1, file: 'docs/requirements.md', anchor: 'comments-nesting' },
      { line: 2, file: 'docs/events.md', anchor: null },
    ]);
  });

  it('must name a file and an anchor that exist', () => {
    const files = new Map([
      ['docs/requirements.md', '# R\n<a id="slugs"></a>\n**Slugs.**'],
      ['backend/a.ts', '// docs/requirements.md#slugs\n// docs/requirements.md#nope\n// docs/missing.md#x'],
    ]);
    assert.deepEqual(checkReferences(files), [
      'backend/a.ts:2: docs/requirements.md has no anchor #nope',
      'backend/a.ts:3: docs/missing.md does not exist',
    ]);
  });
});

describe('references to documents outside the repository', () => {
  // Assembled, so that this file does not itself hold what the check refuses.
  const S = '\u00a7';
  const SPEC = 'spec' + ' 00';
  const MD = '.' + 'md';
  const ISSUE = 'iss' + 'ue ';
  const UP = '..' + '/shared/';
  const cases = [
    [`// the rule (${SPEC}1 ${S}5)`, `${SPEC}1`],
    [`// the rule (001 ${S}5)`, `001 ${S}`],
    [`// texts (000 ${S}8)`, `000 ${S}`],
    [`// as spec ${S}2 says`, `spec ${S}`],
    [`// (DESIGN${MD} ${S}7)`, `DESIGN${MD}`],
    [`// (STYLE${MD} 8c)`, `STYLE${MD}`],
    [`// (contracts${MD} 'Saving')`, `contracts${MD}`],
    [`// the drain (${ISSUE}25)`, `${ISSUE}25`],
    [`// the texts (${S}8 'Add user')`, `${S}8`],
    [`it('I${ISSUE.slice(1, -1)}s 18 and 19 together')`, `I${ISSUE.slice(1, -1)}s 18`],
  ];
  for (const [line, match] of cases) {
    it(`fail: ${line}`, () => {
      assert.deepEqual(
        outsideReferences('backend/src/x.ts', line).map((f) => f.match),
        [match],
      );
    });
  }

  it('a shared/ path in text is outside; an import resolves from its file', () => {
    assert.deepEqual(
      outsideReferences('docs/decisions.md', `the design (\`${UP}perf/x.mjs\`)`).map((f) => f.match),
      [UP],
    );
    assert.equal(outsideReferences('scripts/lib/own-ceiling.mjs', `// as ${UP}perf/ratio.mjs does`).length, 1);
    assert.equal(outsideReferences('backend/src/posts/x.ts', `import { slugify } from '../../${UP}slug';`).length, 0);
    assert.equal(outsideReferences('frontend/src/lib/x.ts', `const t = await import('../../${UP}text');`).length, 0);
    assert.equal(outsideReferences('shared/x.ts', `import { y } from '${UP}y';`).length, 0, 'the root, then shared/');
    assert.equal(outsideReferences('scripts/x.mjs', `import { y } from '../${UP}y.mjs';`).length, 1);
  });

  it('the repository’s own words pass', () => {
    const ok = ['// docs/requirements.md#slugs', '// the spec says', '// issued 3 tokens', '// version 001', '// §', '// RFC 9110 §12.5.3'];
    for (const line of ok) assert.deepEqual(outsideReferences('a.ts', line), [], line);
  });
});

// The 'revisions' phase of `npm run bench`, signed in as the demo author (author-1)
// and the demo admin. The phase makes its own posts through the API before measuring:
// - 'API post update (revisions on)': the author saves their drafts, a fresh body each request
//   (autosave's request: PUT /blog/posts/author/{id} with title and content only, a spec body),
//   each request the next of 32 drafts (editors save their own posts; saves of one post queue on
//   its row lock), so every save keeps its revision (merged into the newest within 5 minutes, as
//   autosave's are); and, without a target, every request to one draft ('one post'): the row lock's
//   queue, today's as well;
// - 'API revision list (100 revisions)': page 0 (size 20, the History panel's page) of a draft
//   with 100 revisions, made by saves alternating between the author and the admin (one editor's
//   saves within 5 minutes merge);
// - 'API diff of two 1,200-word revisions': compare?from&to of two revisions of 1,200 words each
//   (120 paragraphs), as a revision edits a post: two words changed in each of 10 paragraphs, a
//   paragraph added and another removed; and, without a target, the worst case: one word in ten
//   changed in every paragraph ('every paragraph edited').
// Targets: the list >= 5 % and the diff >= 3 % of the ceiling; the update >= 80 % of today's update.
// Today's update is the same row measured on main (a build without revisions: there this phase
// finds no /revisions endpoint and measures the update row alone), run back to back on the same
// machine; BENCH_TODAY_UPDATE=<that row's share of its ceiling, e.g. 0.042> judges this run's
// row against it (the target is skipped without it). docs/decisions.md has the figures.

const AUTHOR = 'author-1@demo.inkwell.test';
const WORDS =
  'the a news story editor review draft city council budget vote market price report source quote river bridge school music film garden weather'.split(
    ' ',
  );
const BODY_WORDS = 300;
const DIFF_WORDS = 1_200;
const HISTORY = 100;
const DRAFTS = 32;

/** `count` words, deterministic from `seed`, ten to a paragraph. */
function words(count, seed) {
  const out = [];
  let state = seed;
  for (let i = 0; i < count; i += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[state % WORDS.length] + (i % 10 === 9 ? '.\n\n' : ''));
  }
  return out.join(' ');
}

/** The same text with about one word in ten replaced (every paragraph edited). */
function everyParagraphEdited(text) {
  return text
    .split(' ')
    .map((word, i) => (i % 10 === 3 ? word.replace(/^[a-z]+/, 'changed') : word))
    .join(' ');
}

/** A revision's edit: two words changed in every twelfth paragraph (10 of 120), a paragraph added after the 40th, the 80th removed. */
function revised(text) {
  const paragraphs = text.split('\n\n').map((paragraph, i) =>
    i % 12 === 5
      ? paragraph
          .split(' ')
          .map((word, k) => (k === 2 || k === 6 ? word.replace(/^[a-z]+/, 'revised') : word))
          .join(' ')
      : paragraph,
  );
  paragraphs.splice(80, 1);
  paragraphs.splice(41, 0, ' a paragraph the author added after the review, ten words long.');
  return paragraphs.join('\n\n');
}

/** The phase for bench.mjs's PHASES. `helpers`: { signIn(base, email), log, adminEmail }. */
export function revisionsPhase({ signIn, log, adminEmail }) {
  async function send(base, method, path, token, body) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    const json = await response.json().catch(() => undefined);
    if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${json?.message ?? ''}`);
    return json.data;
  }

  async function routes(base) {
    const author = await signIn(base, AUTHOR);
    const admin = await signIn(base, adminEmail);
    const asAuthor = { authorization: `Bearer ${author}`, 'content-type': 'application/json' };
    const draft = (title, content) =>
      send(base, 'POST', '/api/v1/blog/posts/author/create', author, { title: `${title} ${Date.now()}`, content });

    const drafts = [];
    for (let n = 0; n < DRAFTS; n += 1) drafts.push(await draft('Bench: autosaved draft', words(BODY_WORDS, 1)));
    const updated = drafts[0];
    const save = {
      method: 'PUT',
      headers: asAuthor,
      body: JSON.stringify({ title: 'Bench: autosaved draft', content: `${words(BODY_WORDS, 2)} [<id>]` }),
    };
    let next = 0;
    const rotating = [{ setupRequest: (request) => ({ ...request, path: `/api/v1/blog/posts/author/${drafts[next++ % DRAFTS].id}` }) }];
    const updates = [
      ['API post update (revisions on)', `/api/v1/blog/posts/author/${updated.id}`, { ...save, requests: rotating }, 'update'],
      ['API post update, one post', `/api/v1/blog/posts/author/${updated.id}`, save, 'updateOnePost'],
    ];
    const probe = await fetch(`${base}/api/v1/blog/posts/${updated.id}/revisions?page=0&size=1`, { headers: asAuthor });
    await probe.arrayBuffer();
    if (probe.status === 404) {
      log("revisions: this build has no /revisions endpoint (today's code): the update row alone");
      return updates;
    }

    const history = await draft('Bench: a long history', words(BODY_WORDS, 3));
    for (let n = 0; n < HISTORY; n += 1) {
      // Alternating editors: one editor's saves within 5 minutes would merge into one revision.
      const [path, token] = n % 2 === 0 ? [`/api/v1/blog/posts/${history.id}`, admin] : [`/api/v1/blog/posts/author/${history.id}`, author];
      await send(base, 'PUT', path, token, { content: `${words(BODY_WORDS, 3)} save ${n}` });
    }
    const listed = await (await fetch(`${base}/api/v1/blog/posts/${history.id}/revisions?page=0&size=20`, { headers: asAuthor })).json();
    log(`revisions: post ${history.id} has ${listed.data.totalElements} revisions`);

    const original = words(DIFF_WORDS, 4);
    /** Two revisions of a draft, `original` by the author and `edit(original)` by the admin: the compare path. */
    async function comparePath(label, edit) {
      const compared = await draft(`Bench: ${label}`, original);
      await send(base, 'PUT', `/api/v1/blog/posts/${compared.id}`, admin, { content: edit(original) });
      const [to, from] = (
        await (await fetch(`${base}/api/v1/blog/posts/${compared.id}/revisions?page=0&size=2`, { headers: asAuthor })).json()
      ).data.content;
      log(`revisions: ${label}: revisions ${from.id} (${from.wordCount} words) and ${to.id} (${to.wordCount} words)`);
      return `/api/v1/blog/posts/${compared.id}/revisions/compare?from=${from.id}&to=${to.id}`;
    }
    const diffPath = await comparePath('a 1,200-word diff', revised);
    const worstPath = await comparePath('a 1,200-word diff, every paragraph edited', everyParagraphEdited);

    return [
      ...updates,
      ['API revision list (100 revisions)', `/api/v1/blog/posts/${history.id}/revisions?page=0&size=20`, { headers: asAuthor }, 'list'],
      ['API diff of two 1,200-word revisions', diffPath, { headers: asAuthor }, 'diff'],
      ['API diff, every paragraph edited', worstPath, { headers: asAuthor }, 'diffWorst'],
    ];
  }

  return {
    phase: { name: 'revisions', env: {}, routes },
    /** Targets for bench.mjs's table. */
    targets(find, ratio, percent) {
      const row = (key) => find('revisions', key);
      const today = Number(process.env.BENCH_TODAY_UPDATE) > 0 ? Number(process.env.BENCH_TODAY_UPDATE) : undefined;
      return [
        [
          "API post update with revisions >= 80 % of today's (BENCH_TODAY_UPDATE)",
          [row('update'), today],
          (r, base) => ratio(r) >= 0.8 * base,
          (r, base) => `${percent(r)} vs ${(base * 100).toFixed(1)} % of ceiling (${((ratio(r) / base) * 100).toFixed(0)} %)`,
        ],
        ['API revision list (100 revisions) >= 5 % of ceiling', [row('list')], (r) => ratio(r) >= 0.05, percent],
        ['API diff of two 1,200-word revisions >= 3 % of ceiling', [row('diff')], (r) => ratio(r) >= 0.03, percent],
      ];
    },
  };
}

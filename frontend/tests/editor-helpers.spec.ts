import { expect, test } from './fixtures';
import { ApiError } from '../src/lib/api/errors';
import { EditorTexts, editorErrors, saveFailure } from '../src/features/editor/texts';
import { errorText } from '../src/lib/texts/error-text';
import {
  formFromPost,
  sameForm,
  savePayload,
  saveProblems,
  selectedTags,
  statusOptions,
  type EditorForm,
  type PostResponse,
  type TagResponse,
} from '../src/features/editor/editor-form';
import { draftToOffer, newDraftKey, parseDraft, postDraftKey } from '../src/features/editor/local-draft';
import { AUTOSAVE_DELAY_MS, autosaveRetryDelay, isEditConflict, isTransientFailure } from '../src/features/editor/autosave';
import { markdownText, truncateForSearch } from '../src/features/editor/seo-preview';
import { applyEdit, formatMarkdown, type FormatAction } from '../src/features/editor/markdown-format';
import {
  DEFAULT_UPLOAD_INFO,
  dimensionMismatch,
  dimensionProblem,
  fileProblem,
  formatBytes,
  ownImageFilename,
  uploadInfoFrom,
} from '../src/features/editor/thumbnail-rules';

/** The post editor's pure rules (no browser page needed): slugs, checks, payload, toolbar edits, local drafts, thumbnail checks, failures. */

const form = (patch: Partial<EditorForm> = {}): EditorForm => ({ ...formFromPost(undefined), ...patch });

const tag = (id: number, slug: string, isActive = true): TagResponse => ({
  id,
  slug,
  name: slug.toUpperCase(),
  isActive,
  status: isActive ? 'ACTIVE' : 'INACTIVE',
  color: null,
  description: null,
  icon: null,
  postCount: 0,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

const post = (patch: Partial<PostResponse> = {}): PostResponse => ({
  id: 7,
  title: 'Saved title',
  slug: 'saved-title',
  summary: null,
  content: 'Saved body',
  contentHtml: '<p>Saved body</p>',
  status: 'DRAFT',
  thumbnail: null,
  publishedAt: null,
  createdAt: '2026-03-01T10:00:00Z',
  updatedAt: '2026-03-02T10:00:00Z',
  userId: 3,
  authorName: 'Ana',
  author: { id: 3, slug: 'ana', fullName: 'Ana', avatar: null, bio: null },
  tags: [],
  likeCount: 0,
  viewCount: 0,
  commentCount: 0,
  isFeatured: false,
  readingTime: 1,
  wordCount: 2,
  version: 3,
  seo: { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null },
  scheduledAt: null,
  requestedPublishAt: null,
  ...patch,
});

/** Runs a toolbar action on text whose selection is marked with [ and ] (or a single | for a caret); answers the result with the new selection marked the same way. */
function format(marked: string, action: FormatAction): string {
  const caret = marked.indexOf('|');
  const start = caret >= 0 ? caret : marked.indexOf('[');
  const text = caret >= 0 ? marked.replace('|', '') : marked.replace('[', '').replace(']', '');
  const end = caret >= 0 ? caret : marked.indexOf(']') - 1;
  const edit = formatMarkdown(text, start, end, action);
  const after = applyEdit(text, edit);
  return edit.selectStart === edit.selectEnd
    ? `${after.slice(0, edit.selectStart)}|${after.slice(edit.selectStart)}`
    : `${after.slice(0, edit.selectStart)}[${after.slice(edit.selectStart, edit.selectEnd)}]${after.slice(edit.selectEnd)}`;
}

test.describe('editor helpers', () => {
  test('save checks in the spec’s order: sign-in, title, content, slug, slug format; admin texts in admin mode', () => {
    const author = (values: Partial<EditorForm>, signedIn = true) =>
      saveProblems(form(values), { mode: 'author', signedIn }).map((problem) => problem.message);
    expect(author({}, false)).toEqual([EditorTexts.AUTH_REQUIRED, 'Title is required', 'Content is required', 'Slug is required']);
    expect(author({ title: '   ', content: 'x', slug: 'ok' })).toEqual(['Title is required']);
    expect(author({ title: 'T', content: ' \n ', slug: 'ok' })).toEqual(['Content is required']);
    expect(author({ title: 'T', content: 'x', slug: '' })).toEqual(['Slug is required']);
    for (const slug of ['Bad Slug', 'UPPER', 'a--b', '-edge', 'edge-', 'ümlaut']) {
      expect(author({ title: 'T', content: 'x', slug })).toEqual([
        'Invalid slug format: Slug must contain only lowercase letters, numbers, and hyphens.',
      ]);
    }
    expect(author({ title: 'T', content: 'x', slug: ' fine-slug-2 ' })).toEqual([]);

    const admin = (values: Partial<EditorForm>) =>
      saveProblems(form(values), { mode: 'admin', signedIn: true }).map((problem) => problem.message);
    expect(admin({})).toEqual(['Please enter a title', 'Please enter content']);
    expect(admin({ title: 'T', content: 'x', slug: '' })).toEqual([]);
    expect(admin({ title: 'T', content: 'x', slug: 'Not OK' })).toEqual([EditorTexts.SLUG_INVALID]);
  });

  test('the payload: trimmed fields, empty excerpt and image as null, only active tags; status and isFeatured only in admin mode', () => {
    const values = form({
      title: '  Title ',
      slug: ' the-slug ',
      excerpt: '  ',
      content: '\n# Body\n',
      featuredImage: ' ',
      tagIds: [1, 2, 3],
      status: 'PUBLISHED',
      isFeatured: true,
    });
    const tags = selectedTags(values.tagIds, [tag(1, 'js'), tag(2, 'old', false), tag(3, 'css')]);
    const noSeo = { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null };
    expect(savePayload(values, 'author', tags)).toEqual({
      title: 'Title',
      slug: 'the-slug',
      summary: null,
      content: '# Body',
      thumbnail: null,
      tagSlugs: ['js', 'css'],
      ...noSeo,
    });
    expect(savePayload({ ...values, slug: '' }, 'admin', tags)).toEqual({
      title: 'Title',
      summary: null,
      content: '# Body',
      thumbnail: null,
      tagSlugs: ['js', 'css'],
      ...noSeo,
      status: 'PUBLISHED',
      isFeatured: true,
    });
    // The version the edit is based on (a saved post's), and the SEO fields trimmed, empty as null.
    const seo = form({
      ...values,
      metaTitle: ' Meta ',
      metaDescription: ' ',
      canonicalUrl: ' https://example.com/a ',
      noindex: true,
      socialImage: '',
    });
    expect(savePayload(seo, 'author', [], 4)).toMatchObject({
      version: 4,
      metaTitle: 'Meta',
      metaDescription: null,
      canonicalUrl: 'https://example.com/a',
      noindex: true,
      socialImage: null,
    });
    expect(savePayload(seo, 'author', [])).not.toHaveProperty('version');
    expect(savePayload({ ...values, excerpt: ' Short ', featuredImage: ' /images/thumbnails/a.webp ' }, 'author', []).summary).toBe(
      'Short',
    );
    expect(savePayload({ ...values, featuredImage: ' /images/thumbnails/a.webp ' }, 'author', []).thumbnail).toBe(
      '/images/thumbnails/a.webp',
    );
  });

  test('selected tags keep the selection order; inactive ones are marked; tags only the post knows count as active', () => {
    const tags = selectedTags([3, 9, 1, 404], [tag(1, 'js'), tag(3, 'old', false)], [{ id: 9, name: 'Gone', slug: 'gone', color: null }]);
    expect(tags.map((t) => [t.slug, t.active])).toEqual([
      ['old', false],
      ['gone', true],
      ['js', true],
    ]);
  });

  test("status options: a new post offers draft, published, archived; a saved one its status and the moves its answer's allowedActions name", () => {
    expect(statusOptions(undefined)).toEqual(['DRAFT', 'PUBLISHED', 'ARCHIVED']);
    // As the API answers an admin (post-transitions.spec.ts walks the rule itself); PRIVATE is not an editor status.
    expect(
      statusOptions({ status: 'DRAFT', allowedActions: ['edit', 'setStatus:PUBLISHED', 'setStatus:PRIVATE', 'setStatus:ARCHIVED'] }),
    ).toEqual(['DRAFT', 'PUBLISHED', 'ARCHIVED']);
    expect(
      statusOptions({ status: 'PENDING_REVIEW', allowedActions: ['edit', 'approve', 'setStatus:DRAFT', 'setStatus:PUBLISHED'] }),
    ).toEqual(['PENDING_REVIEW', 'DRAFT', 'PUBLISHED']);
    expect(statusOptions({ status: 'ARCHIVED', allowedActions: ['setStatus:DRAFT', 'setStatus:PUBLISHED'] })).toEqual([
      'ARCHIVED',
      'DRAFT',
      'PUBLISHED',
    ]);
    // An answer that allows no move leaves the post where it is.
    expect(statusOptions({ status: 'PUBLISHED', allowedActions: [] })).toEqual(['PUBLISHED']);
  });

  test('toolbar: wrap, unwrap and placeholders for bold, italic and code', () => {
    expect(format('say [hi] now', 'bold')).toBe('say **[hi]** now');
    expect(format('say **[hi]** now', 'bold')).toBe('say [hi] now');
    expect(format('say | now', 'bold')).toBe('say **[bold text]** now');
    expect(format('[word]', 'italic')).toBe('_[word]_');
    expect(format('run [npm test] here', 'code')).toBe('run `[npm test]` here');
    expect(format('[a\nb]', 'code')).toBe('```\n[a\nb]\n```\n');
  });

  test('toolbar: headings, lists and quotes prefix every selected line and toggle back', () => {
    expect(format('intro\nti[tle]\nrest', 'heading')).toBe('intro\n[## title]\nrest');
    expect(format('[one\ntwo]', 'list')).toBe('[- one\n- two]');
    expect(format('[- one\n- two]', 'list')).toBe('[one\ntwo]');
    expect(format('[one\n\ntwo]', 'quote')).toBe('[> one\n\n> two]');
    expect(format('first\n|', 'quote')).toBe('first\n> [Quote]');
    expect(format('[line\n]next', 'list')).toBe('[- line]\nnext');
  });

  test('toolbar: links and images select the URL when text was selected, else the text', () => {
    expect(format('see [the docs]', 'link')).toBe('see [the docs]([https://])');
    expect(format('see |', 'link')).toBe('see [[link text]](https://)');
    expect(format('|', 'image')).toBe('![[alt text]](https://)');
    expect(format('[a cat]', 'image')).toBe('![a cat]([https://])');
  });

  test('local drafts: malformed ones read as none; offered only when newer than the post and different', () => {
    expect(parseDraft(null)).toBeUndefined();
    expect(parseDraft('{')).toBeUndefined();
    expect(parseDraft(JSON.stringify({ savedAt: 1, form: { title: 1 } }))).toBeUndefined();
    expect(parseDraft(JSON.stringify({ savedAt: 1, form: { ...form(), tagIds: ['x'] } }))).toBeUndefined();
    const stored = parseDraft(
      JSON.stringify({ savedAt: Date.parse('2026-03-03T00:00:00Z'), postId: 7, form: { ...form({ title: 'Edited' }), status: 'BOGUS' } }),
    );
    expect(stored?.form.status).toBe('DRAFT');
    // One key per signed-in user: accounts sharing a browser keep their copies apart.
    expect(postDraftKey(3, 7)).toBe('inkwell:draft:3:post:7');
    expect(newDraftKey(3)).toBe('inkwell:draft:3:new');
    expect(new Set([newDraftKey(3), newDraftKey(4), postDraftKey(3, 7), postDraftKey(4, 7)]).size).toBe(4);

    const saved = post();
    const shown = formFromPost(saved);
    expect(draftToOffer(stored, saved, shown)).toBe(stored);
    expect(draftToOffer(stored, post({ updatedAt: '2026-03-04T00:00:00Z' }), shown)).toBeUndefined();
    expect(draftToOffer(stored, post({ id: 8 }), shown)).toBeUndefined();
    expect(draftToOffer(stored && { ...stored, form: shown }, saved, shown)).toBeUndefined();
    const fresh = parseDraft(JSON.stringify({ savedAt: 5, form: form({ content: 'typed' }) }));
    expect(draftToOffer(fresh, undefined, form())).toBe(fresh);
    expect(draftToOffer(stored, undefined, form())).toBeUndefined();
    expect(sameForm(form({ tagIds: [1, 2] }), form({ tagIds: [2, 1] }))).toBe(false);
    // A copy written before the SEO section reads with its fields empty; the SEO fields count as changes.
    const { metaTitle: _t, metaDescription: _d, canonicalUrl: _c, noindex: _n, socialImage: _s, ...older } = form({ title: 'Old copy' });
    expect(parseDraft(JSON.stringify({ savedAt: 5, form: older }))?.form).toEqual(form({ title: 'Old copy' }));
    expect(sameForm(form(), form({ noindex: true }))).toBe(false);
    expect(
      formFromPost(
        post({ seo: { metaTitle: 'M', metaDescription: null, canonicalUrl: null, noindex: true, socialImage: '/images/x.webp' } }),
      ),
    ).toMatchObject({ metaTitle: 'M', metaDescription: '', noindex: true, socialImage: '/images/x.webp' });
  });

  test('autosave: retry delays grow to a minute; a 409 edit conflict and passing failures are told apart', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(autosaveRetryDelay)).toEqual([5000, 10000, 20000, 40000, 60000, 60000, 60000]);
    expect(AUTOSAVE_DELAY_MS).toBe(5000);
    // Told apart by the answer's structure (the conflict carries the saved post), never by its wording.
    const conflict = { data: { current: { id: 1 }, yours: {} } };
    expect(isEditConflict(new ApiError('Any wording', 409, null, conflict))).toBe(true);
    expect(isEditConflict(new ApiError('This post was changed elsewhere since you opened it.', 409))).toBe(false);
    const slugTaken = 'Slug "x" is already used by another post. Choose another slug.';
    expect(isEditConflict(new ApiError(slugTaken, 409, { slug: [slugTaken] }))).toBe(false);
    expect(isEditConflict(new ApiError('Any wording', 400, null, conflict))).toBe(false);
    for (const status of [0, 429, 500, 503]) expect(isTransientFailure(new ApiError('x', status))).toBe(true);
    for (const status of [400, 401, 403, 404, 409]) expect(isTransientFailure(new ApiError('x', status))).toBe(false);
    expect(isTransientFailure(new TypeError('fetch failed'))).toBe(true);
  });

  test('SEO previews: cut at a word like a search result, Markdown marks dropped', () => {
    expect(truncateForSearch('Short title', 60)).toBe('Short title');
    expect(truncateForSearch('  spaced \n  out  ', 60)).toBe('spaced out');
    const long = 'A search title that runs well past what a search engine shows in a result';
    const cut = truncateForSearch(long, 60);
    expect(cut.endsWith('…')).toBe(true);
    expect([...cut].length).toBeLessThanOrEqual(61);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(truncateForSearch('x'.repeat(80), 60)).toBe(`${'x'.repeat(60)}…`);
    expect(markdownText('# Title\n\n**Bold** and [a link](https://e.com) - `code`')).toBe('Title Bold and a link https://e.com code');
  });

  test('thumbnail checks: requirements with defaults, type then size, largest dimensions, 800x400 mismatch, own file names', () => {
    expect(uploadInfoFrom(undefined)).toEqual(DEFAULT_UPLOAD_INFO);
    expect(
      uploadInfoFrom({ maxSize: -1, allowedFormats: ['PNG', 3], recommendedDimensions: { width: 1200, height: 600 }, maxDimensions: 'x' }),
    ).toEqual({
      ...DEFAULT_UPLOAD_INFO,
      allowedFormats: ['png'],
      recommendedDimensions: { width: 1200, height: 600 },
    });
    const info = DEFAULT_UPLOAD_INFO;
    expect(fileProblem({ name: 'a.png', type: 'image/png', size: 10 }, info)).toBeUndefined();
    expect(fileProblem({ name: 'a.jpg', type: 'image/jpeg', size: 10 }, info)).toBeUndefined();
    expect(fileProblem({ name: 'a.webp', type: '', size: 10 }, info)).toBeUndefined();
    expect(fileProblem({ name: 'a.svg', type: 'image/svg+xml', size: 10 }, info)).toBe(
      'Please select a valid image file (JPG, PNG, WEBP, GIF)',
    );
    expect(fileProblem({ name: 'a.png', type: 'text/plain', size: 10 }, info)).toBe(
      'Please select a valid image file (JPG, PNG, WEBP, GIF)',
    );
    expect(fileProblem({ name: 'a.png', type: 'image/png', size: 10_485_761 }, info)).toBe(
      'File size (10.00 MB) exceeds the maximum limit of 10MB',
    );
    expect(fileProblem({ name: 'a.png', type: 'image/png', size: 12 * 1024 * 1024 }, info)).toBe(
      'File size (12.00 MB) exceeds the maximum limit of 10MB',
    );
    expect(fileProblem({ name: 'a.png', type: 'image/png', size: 0 }, info)).toBe(
      'Selected file is empty. Please choose a valid image file',
    );
    expect(fileProblem({ name: 'a.jpg', type: 'image/jpeg', size: 1 }, { ...info, allowedFormats: ['jpg'] })).toBeUndefined();
    expect(dimensionProblem({ width: 2048, height: 2048 }, info)).toBeUndefined();
    expect(dimensionProblem({ width: 2049, height: 100 }, info)).toBe('The image is 2049x100 pixels; at most 2048x2048 is allowed.');
    expect(dimensionMismatch({ width: 800, height: 400 }, info)).toBe(false);
    expect(dimensionMismatch({ width: 1600, height: 800 }, info)).toBe(true);
    expect(formatBytes(10_485_760)).toBe('10 MB');
    expect(formatBytes(1536)).toBe('2 KB');
    expect(ownImageFilename('/images/thumbnails/0123456789abcdef0123456789abcdef-800x400.webp')).toBe(
      '0123456789abcdef0123456789abcdef-800x400.webp',
    );
    expect(ownImageFilename('/images/avatars/0123456789abcdef0123456789abcdef.webp')).toBeUndefined();
    expect(ownImageFilename('https://cdn.example.com/images/thumbnails/a.webp')).toBeUndefined();
    expect(ownImageFilename('/images/thumbnails/../../etc/passwd')).toBeUndefined();
  });

  test('save failures: 409 slug on the slug field, 400 field errors mapped, 401/403/5xx/network texts of docs/requirements.md#errors-transport', () => {
    const slugTaken = 'Slug "taken" is already used by another post. Choose another slug.';
    expect(saveFailure(new ApiError(slugTaken, 409, { slug: [slugTaken] }), true)).toEqual({
      fields: { slug: slugTaken },
      title: 'Save Failed',
      text: slugTaken,
    });
    // Without the field, a 409 is not put on the slug field, whatever its wording.
    expect(saveFailure(new ApiError(slugTaken, 409), true)).toEqual({
      fields: {},
      title: 'Save Failed',
      text: `Failed to save post: ${slugTaken}`,
    });
    expect(
      saveFailure(
        new ApiError('Title is required', 400, { title: ['Title is required'], summary: ['Summary must be at most 1000 characters'] }),
        false,
      ),
    ).toEqual({
      fields: { title: 'Title is required', excerpt: 'Summary must be at most 1000 characters' },
      title: 'Validation Error',
      text: 'Title is required',
    });
    expect(saveFailure(new ApiError('Bad', 400), false).text).toBe('Bad');
    expect(saveFailure(new ApiError('', 400), false).text).toBe('Invalid post data. Please check your input and try again.');
    expect(saveFailure(new ApiError('x', 401), true).text).toBe('Authentication required: Please log in to create/update posts.');
    expect(saveFailure(new ApiError('', 403), true).text).toBe('You do not have permission to create posts.');
    expect(saveFailure(new ApiError('You do not have permission to update this post.', 403), false).text).toBe(
      'You do not have permission to update this post.',
    );
    expect(saveFailure(new ApiError('boom', 500), true).text).toBe('Server error occurred. Please try again later.');
    expect(saveFailure(new ApiError('Network error. Please check your connection and try again.', 0), true).text).toBe(
      'Network error. Please check your connection and try again.',
    );
    const locked = 'This post is PUBLISHED and can no longer be edited by its author.';
    expect(saveFailure(new ApiError(locked, 409), false).text).toBe(`Failed to save post: ${locked}`);
    expect(saveFailure(new Error('odd'), false).text).toBe('Failed to save post. Please try again.');
    expect(errorText(new ApiError('Refused', 400, { image: ['Failed to load image for validation'] }), editorErrors('x'))).toBe(
      'Failed to load image for validation',
    );
  });
});

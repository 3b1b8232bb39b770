/**
 * The editor's Preview (docs/requirements.md#post-preview): what the post will look like, from the form
 * as it is now, with the body rendered by the server (POST /blog/posts/preview). Title, author,
 * published date or 'Not published', views, likes and comments only for a published post, tags,
 * excerpt, the featured image, the body and its reading time; a 'Preview Mode' footer with
 * Close Preview.
 */
import { useEffect, useState } from 'react';
import { EditorTexts } from './texts';
import { Alert, Spinner, useHydrated } from '../../components/islands/form-controls';
import { Modal } from '../../components/islands/Dialog';
import { fetchOwnName } from './editor-api';
import type { PostResponse, SelectedTag } from './editor-form';
import { usePreview } from './use-preview';
import '../../styles/post-prose.css';
import { formatDate } from '../../lib/dates';
import { countNoun, Nouns } from '../../lib/texts/nouns';

interface Props {
  open: boolean;
  onClose: () => void;
  title: string;
  excerpt: string;
  content: string;
  featuredImage: string;
  tags: SelectedTag[];
  post: PostResponse | undefined;
}

export default function PreviewModal({ open, onClose, title, excerpt, content, featuredImage, tags, post }: Props) {
  const preview = usePreview(content, open);
  const hydrated = useHydrated();
  const [ownName, setOwnName] = useState<string>();

  useEffect(() => {
    if (!open || post || ownName !== undefined) return;
    fetchOwnName().then(
      (name) => setOwnName(name ?? ''),
      () => setOwnName(''),
    );
  }, [open, post, ownName]);

  const published = post?.status === 'PUBLISHED' && !!post.publishedAt;
  const author = post?.author?.fullName ?? post?.authorName ?? (ownName || 'You');
  const rendered = preview.kind === 'ready' ? preview.preview : preview.kind === 'loading' ? preview.last : undefined;

  return (
    <Modal open={open} onClose={onClose} labelledBy="post-preview-title" className="max-w-4xl">
      {/* Scrolls on its own: focusable so the keyboard can scroll it. */}
      <article
        className="max-h-[80vh] overflow-y-auto px-6 py-8 sm:px-10"
        data-testid="post-preview"
        tabIndex={0}
        aria-labelledby="post-preview-title"
      >
        {tags.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
            {tags.map((tag) => (
              <li
                key={tag.id}
                className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-700 dark:bg-slate-800 dark:text-brand-100"
              >
                {tag.name}
              </li>
            ))}
          </ul>
        )}
        <h2 id="post-preview-title" className="mt-4 font-serif text-3xl font-bold leading-tight sm:text-4xl">
          {title.trim()}
        </h2>
        {excerpt.trim() && <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{excerpt.trim()}</p>}
        <div className="mt-6 flex flex-wrap gap-x-6 gap-y-2 border-y border-slate-200 py-3 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
          <span className="font-medium text-slate-900 dark:text-slate-100">{author}</span>
          {published && post?.publishedAt ? (
            <time dateTime={post.publishedAt}>{hydrated ? formatDate(post.publishedAt) : ''}</time>
          ) : (
            <span>{EditorTexts.NOT_PUBLISHED}</span>
          )}
          {rendered && <span data-testid="preview-reading-time">{rendered.readingTime} min read</span>}
          {published && post && (
            <>
              <span>{countNoun(post.viewCount, Nouns.VIEW)}</span>
              <span>{countNoun(post.likeCount, Nouns.LIKE)}</span>
              <span>{countNoun(post.commentCount, Nouns.COMMENT)}</span>
            </>
          )}
        </div>
        {featuredImage.trim() && <img src={featuredImage.trim()} alt="" className="mt-6 aspect-[2/1] w-full rounded-xl object-cover" />}
        <div className="mt-8" aria-live="polite" aria-busy={preview.kind === 'loading'}>
          {preview.kind === 'error' ? (
            <Alert>{preview.message}</Alert>
          ) : rendered ? (
            <div className="post-prose" dangerouslySetInnerHTML={{ __html: rendered.html }} />
          ) : (
            <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
              <Spinner /> {EditorTexts.PREVIEW_LOADING}
            </p>
          )}
        </div>
      </article>
      <footer className="flex items-center justify-between gap-4 border-t border-slate-200 bg-slate-50 px-6 py-3 dark:border-slate-800 dark:bg-slate-950">
        <span className="text-sm font-semibold uppercase tracking-wide text-amber-700 dark:text-amber-300">{EditorTexts.PREVIEW_MODE}</span>
        <button type="button" className="btn-primary" onClick={onClose} data-autofocus>
          Close Preview
        </button>
      </footer>
    </Modal>
  );
}

/**
 * The info card of a saved post in the editor (docs/requirements.md#post-editor): author, views, likes, comments,
 * created and last updated (en-US, the back-office's dates), its status and, when the page has
 * one, a link to the reader-style preview of the saved post.
 */
import { STATUS_LABELS, type PostResponse } from './editor-form';
import { formatDateTime } from '../../lib/dates';

const COUNT = new Intl.NumberFormat('en-US');
const formatCount = (value: number | undefined) => COUNT.format(value ?? 0);

/** Dates in the site zone, named (lib/dates.ts): the server's text and the hydrated one are the same. */
export function useDateTime(): (value: string | null | undefined) => string {
  return formatDateTime;
}

export default function PostInfoCard({ post, previewHref }: { post: PostResponse; previewHref?: string }) {
  const dateTime = useDateTime();
  const rows: [string, string, string?][] = [
    ['Author', post.author?.fullName ?? post.authorName],
    ['Status', STATUS_LABELS[post.status] ?? post.status],
    ['Views', formatCount(post.viewCount)],
    ['Likes', formatCount(post.likeCount)],
    ['Comments', formatCount(post.commentCount)],
    ['Created', dateTime(post.createdAt), post.createdAt],
    ['Last updated', dateTime(post.updatedAt), post.updatedAt],
  ];
  return (
    <section aria-labelledby="post-info-heading" className="card p-4" data-testid="post-info">
      <h2 id="post-info-heading" className="text-sm font-semibold">
        Post information
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        {rows.map(([label, value, iso]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
            <dd className="text-right font-medium">{iso ? <time dateTime={iso}>{value}</time> : value}</dd>
          </div>
        ))}
      </dl>
      {previewHref && (
        <a href={previewHref} className="mt-4 inline-block text-sm font-medium text-brand-700 underline dark:text-brand-100">
          Open saved preview
        </a>
      )}
    </section>
  );
}

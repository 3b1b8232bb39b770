import { useEffect, useState } from 'react';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { StatsTexts as T } from './texts';

/**
 * The editor's side panel line: the post's views and visitors over the last 30 days (GET
 * /analytics/posts/{id}), read once the editor is up, with a link to the post's Stats. Shows
 * nothing when the figures cannot be read (the editor never waits for them).
 */
export default function PostStatsLine({ postId, href }: { postId: number; href: string }) {
  const [figures, setFigures] = useState<{ views: number; visitors: number }>();
  useEffect(() => {
    let cancelled = false;
    unwrap(browserApi().GET('/api/v1/analytics/posts/{id}', { params: { path: { id: postId }, query: { days: 30 } } }))
      .then((stats) => !cancelled && setFigures(stats.totals))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [postId]);
  if (!figures) return null;
  return (
    <p className="card px-4 py-3 text-sm" data-testid="post-stats-line">
      <span>{T.editorLine(figures.views, figures.visitors)}</span>{' '}
      <a href={href} className="font-medium text-brand-700 underline dark:text-brand-100">
        {T.EDITOR_STATS}
      </a>
    </p>
  );
}

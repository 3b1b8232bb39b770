/** '12 likes · 4 boosts from the fediverse' under a post, read live (apart from Inkwell likes; docs/federation.md). */
import { useEffect, useState } from 'react';
import { browserApi } from '../../lib/api/client';
import { FederationTexts as T } from './texts';

export default function FediverseReactions({ postId }: { postId: number }) {
  const [counts, setCounts] = useState<{ likes: number; boosts: number }>();
  useEffect(() => {
    let live = true;
    browserApi()
      .GET('/api/v1/federation/posts/{id}/reactions', { params: { path: { id: postId } } })
      .then((res) => {
        if (live && res.data?.data) setCounts(res.data.data);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [postId]);
  if (!counts || counts.likes + counts.boosts === 0) return null;
  return (
    <span className="text-sm text-slate-600 dark:text-slate-400" data-fediverse-reactions>
      {T.reactions(counts.likes, counts.boosts)}
    </span>
  );
}

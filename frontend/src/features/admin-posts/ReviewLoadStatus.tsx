/**
 * While a review dialog's read runs, its loading line; when it failed, the alert with the reason
 * and Try Again (the review history, the diff since the last rejection).
 */
import { Spinner } from '../../components/islands/form-controls';
import type { LoadState } from '../../components/islands/use-load';
import { AdminPostsTexts } from './texts';

export function ReviewLoadStatus({
  load,
  loading,
  onRetry,
  spacing,
}: {
  load: LoadState<unknown>;
  loading: string;
  onRetry: () => void;
  spacing: string;
}) {
  if (load.state === 'loading') {
    return (
      <p className={`${spacing} flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400`} role="status">
        <Spinner /> {loading}
      </p>
    );
  }
  if (load.state === 'failed') {
    return (
      <div
        role="alert"
        className={`${spacing} rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200`}
      >
        <p className="font-semibold">{AdminPostsTexts.LOAD_FAILED}</p>
        <p>{load.message}</p>
        <button type="button" className="btn-secondary mt-2" onClick={onRetry}>
          Try Again
        </button>
      </div>
    );
  }
  return null;
}

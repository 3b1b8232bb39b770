/**
 * Texts of the moderation queue (/admin/comments, beyond the spec, in the tone of
 * its back-office screens).
 */
import { countNoun, Nouns } from '../../lib/texts/nouns';
import type { ErrorTexts } from '../../lib/texts/error-text';
import { CommonTexts } from '../../lib/texts/common';
import type { BulkAction, ModerationFilter, ModerationSort } from './admin-comments';

export const ModerationTexts = {
  TITLE: 'Comment Moderation',
  INTRO: 'Reported, hidden and held comments, with their reports.',
  LOAD_FAILED: 'Failed to load comments',
  SEARCH_FAILED: 'Search failed',
  LOADING: 'Loading comments…',
  EMPTY: 'No comments to review',
  EMPTY_FILTERED: 'No comments match your search or filter.',
  ACTION_FAILED: 'Action failed',
  HIDE_REASON_REQUIRED: 'Please give a reason.',
  count: (count: number) => countNoun(count, Nouns.COMMENT),
  selected: (count: number) => countNoun(count, Nouns.SELECTED),
  /** The selection, as a dialog names it. */
  theSelected: (count: number) => (count === 1 ? 'the selected comment' : `the ${count} selected comments`),
} as const;

export const FILTER_LABELS: Record<ModerationFilter, string> = {
  reported: 'Reported',
  hidden: 'Hidden',
  held: 'Held for review',
  all: 'All comments',
};
export const SORT_LABELS: Record<ModerationSort, string> = { newest: 'Newest first', reports: 'Most reported first' };
export const REASON_LABELS: Record<string, string> = { SPAM: 'Spam', HARASSMENT: 'Harassment', OFF_TOPIC: 'Off-topic', OTHER: 'Other' };
export const MODERATION_LABELS: Record<string, string> = { VISIBLE: 'Visible', HIDDEN: 'Hidden', HELD: 'Held' };

/** An action's button, its success notice and its confirmation, per action. */
export const ACTION_TEXTS: Record<BulkAction, { label: string; done: string; confirm?: string }> = {
  hide: { label: 'Hide', done: 'Comment hidden' },
  restore: { label: 'Restore', done: 'Comment restored' },
  delete: {
    label: 'Delete',
    done: 'Comment deleted',
    confirm: 'Delete this comment? This cannot be undone; its replies stay under the deleted marker.',
  },
  dismiss: { label: 'Dismiss reports', done: 'Reports dismissed' },
};

/** A failed read or action: the server's message, the network text without an answer. */
export const MODERATION_ERRORS: ErrorTexts = { fallback: CommonTexts.UNEXPECTED_ERROR, fieldErrors: [400] };

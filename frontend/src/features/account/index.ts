// account's public surface for other features: the login page's 'Cancel deletion' step (issue 27 §3).
export { default as CancelDeletionPanel, type PendingDeletion } from './CancelDeletionPanel';
// The home page's confirmation after 'Delete my account'.
export { default as DeletionScheduledNotice } from './DeletionScheduledNotice.astro';

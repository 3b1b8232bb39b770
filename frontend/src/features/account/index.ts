// account's public surface for other features: the login page's 'Cancel deletion' step.
export { default as CancelDeletionPanel, type PendingDeletion } from './CancelDeletionPanel';
// The home page's confirmation after 'Delete my account'.
export { default as DeletionScheduledNotice } from './DeletionScheduledNotice.astro';

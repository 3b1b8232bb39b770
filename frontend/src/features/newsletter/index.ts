// The newsletter's public surface for pages and other features: 'Follow by e-mail', the
// preferences editor, the /account section, the author's follower count and the admin screen.
export { default as FollowByEmailBox } from './FollowByEmailBox.astro';
export { default as PreferencesEditor } from './PreferencesEditor';
export { default as AccountNewsletterSection } from './AccountNewsletterSection.astro';
export { default as AuthorFollowerCount } from './AuthorFollowerCount.astro';
export { default as AdminSubscribers } from './AdminSubscribers';
export type { FollowTarget } from './newsletter-api';

// analytics' public surface for other features (the editor's side panel shows a post's last 30 days).
export { default as PostStatsLine } from './PostStatsLine';

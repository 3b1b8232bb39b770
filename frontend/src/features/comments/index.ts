// comments' public surface for other features (the admin comments manager reuses the hide dialog).
export { hideDescription, HideDialog } from './ModerationDialogs';

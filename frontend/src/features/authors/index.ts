// authors' public surface for other features (the author link of a post card).
export { authorHref } from './texts';

// posts' public surface for other features. TypeScript only: an island may import an index.ts, and an .astro in it would be bundled for the browser.
export { PostsTexts } from './texts';

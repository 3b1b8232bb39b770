// author's public surface for other features (the editor leaves a flash notice for the author's list).
export { setFlash } from './flash';

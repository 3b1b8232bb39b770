// admin-posts' public surface for other features (the tag manager shares its date and error texts).
export { adminDate } from './admin-posts';
export { adminErrors } from './texts';

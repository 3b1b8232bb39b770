/** Counts a post view when /blog/{slug} is answered from the page cache (the API call that counts it is skipped). */
export interface PostViewRecorder {
  recordBySlug(slug: string): void | Promise<void>;
}
export const POST_VIEW_RECORDER = Symbol('POST_VIEW_RECORDER');

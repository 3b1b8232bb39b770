/** Texts of preview links, in the spec's tone. */
export const PreviewsMessages = {
  INVALID_LINK: 'This preview link is invalid or has expired.',
  CREATED: 'Preview link created. Anyone with the link can read this post until it expires.',
  LINK_NOT_FOUND: 'Preview link not found.',
  FORBIDDEN: 'You do not have permission to share previews of this post.',
} as const;

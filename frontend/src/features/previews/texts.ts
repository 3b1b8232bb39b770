/**
 * Texts of shareable previews: the banner of /preview/{token} and the links panel
 * of the edit pages. The page's 404 text is the API's own ('This preview link is invalid or has expired.').
 */
import { formatShortDateTime } from '../../lib/dates';

/** 'Nov 22, 2026, 3:04 PM GMT+7': a link's expiry in the site zone. */
export const formatExpiry = (iso: string): string => formatShortDateTime(iso);

export const PreviewsTexts = {
  PAGE_TITLE: 'Preview',
  BANNER_HEADING: 'Preview — not published yet.',
  bannerExpiry: (iso: string) =>
    `This link expires on ${formatExpiry(iso)}. Anyone with the link can read this post; it is hidden from search engines.`,
  BANNER_VI: 'Bản xem trước — bài viết chưa được xuất bản.',
  LINK_INVALID_TITLE: 'Preview Not Available',
  LINK_FAILED: 'Unable to load preview',

  PANEL_HEADING: 'Preview links',
  PANEL_HELP:
    'Share a draft with someone before it is published: anyone with the link can read the post as it is saved now, for 7 days or until you revoke the link.',
  CREATE: 'Create preview link',
  CREATING: 'Creating…',
  CREATED: 'Preview link created.',
  COPY: 'Copy link',
  COPIED: 'Link copied.',
  COPY_FAILED: 'Could not copy: select the address and copy it yourself.',
  REVOKE: 'Revoke',
  REVOKED: 'Preview link revoked.',
  NONE: 'No live preview links.',
  LOAD_FAILED: 'Unable to load preview links.',
  linkLabel: (n: number) => `Preview link ${n}`,
  expires: (iso: string) => `Expires ${formatExpiry(iso)}`,
  revokeLabel: (n: number) => `Revoke preview link ${n}`,
  copyLabel: (n: number) => `Copy preview link ${n}`,
} as const;

/** Texts of the comments area (docs/requirements.md#validation-comment, docs/requirements.md#errors-comments; docs/requirements.md#decision-permissions), verbatim where the spec gives them. */
export const CommentsMessages = {
  CONTENT_REQUIRED: 'Comment content cannot be empty',
  CONTENT_TOO_LONG: 'Comment content cannot exceed 200 characters',
  LOGIN_REQUIRED: 'You need to log in to comment.',
  INVALID: 'Invalid comment data. Please check your input.',
  POST_ID_INVALID: 'Invalid post ID.',
  PARENT_ID_INVALID: 'parentId must be a positive whole number or null',
  COMMENT_ID_INVALID: 'commentId must be a positive whole number',
  PARENT_OTHER_POST: 'The comment you reply to belongs to another post.',
  KEYWORD_REQUIRED: 'keyword is required',
  KEYWORD_TOO_LONG: 'keyword must be at most 100 characters',
  LIMIT_INVALID: 'limit must be a whole number',

  NOT_FOUND: 'Comment not found.',
  POST_NOT_FOUND: 'Post not found.',
  /** Comments by user (docs/requirements.md#errors-comments). */
  USER_NOT_FOUND: 'User không tồn tại',
  INVALID_PARAMS: 'Tham số không hợp lệ',

  FORBIDDEN_COMMENT: 'You do not have permission to comment.',
  FORBIDDEN_UPDATE: 'You do not have permission to update this comment.',
  FORBIDDEN_DELETE: 'You do not have permission to delete this comment.',
  FORBIDDEN_ADMIN: 'You do not have permission to access this resource.',
  AUTH_REQUIRED: 'Authentication required. Please log in to access comments.',

  ADDED: 'Comment has been added.',
  REPLY_ADDED: 'Reply has been added.',
  UPDATED: 'Comment has been updated.',
  /** What a deleted comment that keeps its replies shows instead of its text (docs/requirements.md#comments-section). */
  DELETED_MARKER: '[This comment has been deleted]',
  /** What a hidden comment shows instead of its text, to everyone but the moderation queue. */
  HIDDEN_MARKER: '[This comment has been hidden by a moderator]',
  /** A muted user's comment or edit: the end and the reason follow. */
  MUTED_UNTIL: (until: string, reason: string) => `You cannot comment until ${until}. Reason: ${reason}`,
  MUTED_FOREVER: (reason: string) => `You can no longer comment on this site. Reason: ${reason}`,
  HIDDEN_NO_EDIT: 'A hidden comment cannot be edited.',
} as const;

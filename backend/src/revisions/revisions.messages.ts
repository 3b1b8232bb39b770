/** Texts of the revision store (verbatim, as the API answers them). */
export const RevisionsMessages = {
  REVISION_ID_INVALID: 'Revision id must be a positive whole number',
  revisionNotFound: (id: number) => `Revision with id ${id} not found for this post`,
} as const;

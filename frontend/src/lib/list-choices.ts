/** Choices every list's controls offer, for the server-rendered GET forms and the islands alike. */

/** Sort direction choices, as the lists show them. */
export const SORT_DIRECTIONS = [
  { value: 'desc', label: 'Descending' },
  { value: 'asc', label: 'Ascending' },
] as const;

/** Page sizes as choices. */
export const sizeOptions = (sizes: readonly number[]) => sizes.map((size) => ({ value: size, label: size }));

/**
 * A record's id from the address (/admin/posts/{id}, /author/posts/{id}, /admin/users/{id},
 * ?userId=): a positive whole number the API's int column can hold, else undefined (the page
 * answers 404 without asking the API).
 */
export function recordIdParam(raw: string | undefined): number | undefined {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : undefined;
}

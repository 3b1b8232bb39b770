/** Every migration, oldest first. `npm run migration:generate -- Name` appends to this list. */
export const MIGRATIONS: Function[] = [];

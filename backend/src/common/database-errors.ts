/** PostgreSQL's unique_violation (SQLSTATE 23505). */
export const UNIQUE_VIOLATION = '23505';

interface DriverErrorLike {
  code?: string;
  constraint?: string;
  driverError?: { code?: string; constraint?: string };
}

/** A unique constraint refused the write (TypeORM's QueryFailedError, or the driver's own error). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as DriverErrorLike | null | undefined;
  return e?.driverError?.code === UNIQUE_VIOLATION || e?.code === UNIQUE_VIOLATION;
}

/** The name of the constraint a failed write broke (`UQ_tags_name`), when the driver says. */
export function violatedConstraint(error: unknown): string | undefined {
  const e = error as DriverErrorLike | null | undefined;
  return e?.driverError?.constraint ?? e?.constraint;
}

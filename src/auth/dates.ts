// Timestamps come back as Date (pg, PGlite) or string; the capability hands out ISO strings only.
export function iso(value: unknown): string {
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

export const isoOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : iso(value));

// The query layer every capability uses: the same SQL runs on PGlite and on PostgreSQL.
// Parameters are positional ($1, $2 …); rows come back as plain objects.
import type { AvailabilityState } from './availability.ts';

export type SqlParam = string | number | boolean | null | Date | string[] | number[] | Uint8Array | object;

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: SqlParam[]): Promise<Row[]>;
}

export interface Store extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements (no parameters); used by migrations. */
  exec(sql: string): Promise<void>;
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Whether the database answers (PostgreSQL can go away; the embedded store lives in this process). */
  availability?(): AvailabilityState;
}

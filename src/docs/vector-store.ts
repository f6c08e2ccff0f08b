// Passage vectors in the store: what the background embedding of a package produced, packed into one bytea per
// (slug, version, encoder), read back by any process that opens the package later. The store stays the record of the
// passages; these vectors are derived data, so a missing, stale or malformed row only means embedding again.
import { packVectors, unpackVectors, type QuantizedVector } from '../semantic/index.ts';
import type { Queryable } from '../store/index.ts';
import type { PackageIndex } from './package-index.ts';

export interface PassageVectorStore {
  /** The vectors of every passage of `index`, in passage order, if the store holds them for this indexing and model. */
  load(index: PackageIndex, model: string, dimensions: number): Promise<QuantizedVector[] | undefined>;
  save(index: PackageIndex, model: string, dimensions: number, vectors: QuantizedVector[]): Promise<void>;
  /**
   * Takes (or renews) the lease on embedding `index` with `model` for `seconds`: true when `owner` holds it now, false
   * while another process's lease runs.
   */
  claim(index: PackageIndex, model: string, owner: string, seconds: number): Promise<boolean>;
  /** Gives the lease up (the vectors are stored, or the work stopped). */
  release(index: PackageIndex, model: string, owner: string): Promise<void>;
}

export function createPassageVectorStore(db: Queryable): PassageVectorStore {
  return {
    async load(index, model, dimensions) {
      const [row] = await db.query<{ vectors: Uint8Array; dimensions: number }>(
        'select vectors, dimensions from docs_vectors where slug = $1 and version = $2 and encoder = $3 and stamp = $4',
        [index.slug, index.version, model, index.stamp]);
      if (!row || row.dimensions !== dimensions) return undefined;
      return unpackVectors(row.vectors, index.passages.length, dimensions);
    },
    async save(index, model, dimensions, vectors) {
      await db.query(
        `insert into docs_vectors (slug, version, encoder, stamp, dimensions, vectors) values ($1, $2, $3, $4, $5, $6)
         on conflict (slug, version, encoder) do update
           set stamp = excluded.stamp, dimensions = excluded.dimensions, vectors = excluded.vectors, saved_at = now()`,
        [index.slug, index.version, model, index.stamp, dimensions, packVectors(vectors, dimensions)]);
    },
    async claim(index, model, owner, seconds) {
      const rows = await db.query(
        `insert into docs_vector_leases (slug, version, encoder, owner, lease_until) values ($1, $2, $3, $4, now() + make_interval(secs => $5))
         on conflict (slug, version, encoder) do update set owner = excluded.owner, lease_until = excluded.lease_until
           where docs_vector_leases.owner = excluded.owner or docs_vector_leases.lease_until < now()
         returning owner`, [index.slug, index.version, model, owner, seconds]);
      return rows.length === 1;
    },
    async release(index, model, owner) {
      await db.query('delete from docs_vector_leases where slug = $1 and version = $2 and encoder = $3 and owner = $4',
        [index.slug, index.version, model, owner]);
    },
  };
}

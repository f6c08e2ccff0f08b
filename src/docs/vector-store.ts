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
  };
}

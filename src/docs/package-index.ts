// Per-package search indexes kept in memory: the passages of one indexed (slug, version) read from the store once and
// indexed lexically, reused by later questions; least recently used ones are dropped. The store stays the record.
import type { Queryable } from '../store/index.ts';
import type { VersionRow } from './repository.ts';
import type { Logger } from '../log.ts';
import { indexParts } from './index-parts.ts';
import type { LexicalIndex } from './lexical.ts';
import type { PassageLinks } from './links.ts';
import type { IndexedPassage } from './rank.ts';

export interface PackageIndex {
  key: string;
  slug: string;
  version: string;
  passages: IndexedPassage[];
  lexical: LexicalIndex;
  /** Per passage: the API items a guide section's code uses, the guide sections that use an item (src/docs/links.ts). */
  links?: PassageLinks[];
  /**
   * What the store held when this was built: its passage count and when the version was indexed. A crawl that adds
   * passages, or indexing again (a newer extractor), makes it stale.
   */
  stamp: string;
}

/** The stamp of a version row as the store holds it now: its passage count and when it was indexed (see PackageIndex). */
export const indexStamp = (row: Pick<VersionRow, 'passages' | 'indexedAt'>) => `${row.passages}@${row.indexedAt?.getTime() ?? 0}`;

async function loadPassages(db: Queryable, slug: string, version: string): Promise<IndexedPassage[]> {
  const rows = await db.query<{
    id: number | string; url: string; title: string | null; headings: string[]; content: string; source: string;
    identifiers: string[]; symbol: string | null; importance: number | string; internal: boolean; deprecated: boolean;
  }>(
    `select id, url, title, headings, content, source, identifiers, symbol, importance, internal, deprecated
     from docs_passages where slug = $1 and version = $2 order by ord`, [slug, version]);
  return rows.map((row) => ({ ...row, id: Number(row.id), importance: Number(row.importance) }));
}

/** Versions just indexed whose passages are held for their first question (a few: it comes right after). */
const SEEDS_KEPT = 4;

export function createPackageIndexes(db: Queryable, capacity = 64, logger?: Logger) {
  const cache = new Map<string, PackageIndex>();
  const loading = new Map<string, Promise<PackageIndex>>();
  const seeds = new Map<string, { stamp: string; passages: IndexedPassage[] }>();

  /** The passages of a version as stored at `stamp`: the ones ingestion just wrote when they are that version's, else read. */
  function passagesOf(slug: string, version: string, stamp: string): Promise<IndexedPassage[]> {
    const key = `${slug}@${version}`;
    const seed = seeds.get(key);
    seeds.delete(key);
    return seed && seed.stamp === stamp ? Promise.resolve(seed.passages) : loadPassages(db, slug, version);
  }

  async function build(slug: string, version: string, stamp: string): Promise<Omit<PackageIndex, 'stamp'>> {
    const passages = await passagesOf(slug, version, stamp);
    // A large package's parts are built on the index thread: the event loop serves other requests meanwhile.
    const parts = await indexParts(passages, logger);
    passages.forEach((p, i) => {
      p.centrality = parts.centrality[i];
      p.bare = parts.bare[i];
    });
    return { key: `${slug}@${version}`, slug, version, passages, lexical: parts.lexical, links: parts.links };
  }

  return {
    /** The index of (slug, version) as the store holds it now (`stamp`: see PackageIndex), built on first use. */
    async get(slug: string, version: string, stamp: string): Promise<PackageIndex> {
      const key = `${slug}@${version}`;
      const hit = cache.get(key);
      if (hit && hit.stamp === stamp) {
        cache.delete(key);
        cache.set(key, hit); // most recently used last
        return hit;
      }
      let pending = loading.get(key);
      if (!pending) {
        pending = build(slug, version, stamp).then((built) => {
          const index = { ...built, stamp };
          cache.delete(key);
          cache.set(key, index);
          while (cache.size > capacity) cache.delete(cache.keys().next().value!);
          return index;
        }).finally(() => loading.delete(key));
        loading.set(key, pending);
      }
      return pending;
    },
    drop(slug: string, version: string): void { cache.delete(`${slug}@${version}`); },
    /**
     * The passages ingestion just stored for (slug, version) at `stamp` (its ready row's): the first question's index
     * is built from them instead of reading them back from the store (a few hundred ms of a loaded event loop for a
     * package of thousands). They are the stored rows (`insertPassages`), so the index is the one a read would build.
     */
    seed(slug: string, version: string, stamp: string, passages: IndexedPassage[]): void {
      const key = `${slug}@${version}`;
      seeds.delete(key);
      seeds.set(key, { stamp, passages });
      while (seeds.size > SEEDS_KEPT) seeds.delete(seeds.keys().next().value!);
    },
  };
}

export type PackageIndexes = ReturnType<typeof createPackageIndexes>;

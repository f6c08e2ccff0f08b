// A derived copy of the in-memory search index on disk, keyed by the store's catalog revision, so a warm
// start loads it instead of reading every tool and re-tokenising. The store stays the system of record:
// a missing, stale or unreadable cache only costs a rebuild.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CatalogSearchIndex, type SerializedIndex } from './search-index.ts';

/** Bump when tokenising, stemming or indexed fields change, so old caches are not loaded. */
const INDEX_FORMAT = 4;

export class IndexCache {
  constructor(private readonly dir: string, private readonly storeIdentity: string) {}

  private file(revision: number): string {
    const key = crypto.createHash('sha256').update(`${INDEX_FORMAT}|${this.storeIdentity}`).digest('hex').slice(0, 12);
    return path.join(this.dir, `catalog-index-${key}-r${revision}.json`);
  }

  load(revision: number): CatalogSearchIndex | undefined {
    try {
      return CatalogSearchIndex.fromJSON(JSON.parse(fs.readFileSync(this.file(revision), 'utf8')) as SerializedIndex);
    } catch {
      return undefined;
    }
  }

  save(revision: number, index: CatalogSearchIndex): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const target = this.file(revision);
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(index.toJSON()), { mode: 0o600 });
    fs.renameSync(tmp, target); // atomic: a reader never sees half a cache
    for (const name of fs.readdirSync(this.dir)) {
      const full = path.join(this.dir, name);
      if (name.startsWith('catalog-index-') && full !== target && !name.endsWith('.tmp')) fs.rmSync(full, { force: true });
    }
  }
}

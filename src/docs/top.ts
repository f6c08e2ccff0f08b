// Pre-indexing for `tooldex ingest --docs --top N`: builds the docs capability over an open store and indexes
// the latest docs of the N most popular catalog tools. The CLI command only parses flags and prints progress.
import { createCatalog } from '../catalog/index.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';
import { createDocs, ingestTopDocs, type IngestProgress } from './index.ts';

export async function preindexTopDocs(store: Store, config: Config, logger: Logger, n: number, onProgress?: (progress: IngestProgress) => void) {
  const catalog = await createCatalog(store, logger);
  const docs = createDocs({ config, store, logger, catalog });
  try {
    return await ingestTopDocs({ docs, store }, n, onProgress);
  } finally {
    await docs.close();
    catalog.close();
  }
}

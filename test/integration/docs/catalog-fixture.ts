// Puts a tool into the test server's catalog (its own store copy), as a registry ingest would.
import { upsertTools } from '../../../src/catalog/repository.ts';
import type { ToolRecord } from '../../../src/catalog/index.ts';
import type { TestServer } from '../../helpers/server.ts';

type ToolFixture = Partial<ToolRecord> & Pick<ToolRecord, 'slug' | 'ecosystem' | 'name'>;

/**
 * One upsert for all of them, then the catalog's index rebuild, awaited here: left to the catalog's watcher it would
 * run (and hold the event loop) in the middle of a later test.
 */
export async function addTools(server: TestServer, tools: ToolFixture[]): Promise<void> {
  await upsertTools(server.app.store, tools.map((tool) => ({
    version: null, description: `${tool.name} (test fixture)`, shortDescription: '', keywords: [], languages: [], frameworks: [],
    categories: [], license: 'MIT', homepage: null, repository: null, docsUrl: null, popularity: 0.5, downloads: null,
    updatedAt: null, extra: {}, ...tool,
  })));
  await server.app.catalog.refresh();
}

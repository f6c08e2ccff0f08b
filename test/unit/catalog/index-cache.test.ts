// IndexCache: an index written to disk and read back answers as the one built in memory; records read back are
// decoded from the file's lines one at a time (multi-byte text included), and replaced records win over those lines.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IndexCache } from '../../../src/catalog/index-cache.ts';
import { CatalogSearchIndex } from '../../../src/catalog/search-index.ts';
import type { Ecosystem, ToolRecord } from '../../../src/catalog/types.ts';

function tool(ecosystem: Ecosystem, name: string, description: string, popularity: number): ToolRecord {
  return {
    slug: `${ecosystem}-${name.replace(/^@/, '').replace('/', '__')}`, ecosystem, name, version: '1.0.0', description,
    shortDescription: description, keywords: ['k'], languages: ['JavaScript'], frameworks: [], categories: ['validation'],
    license: 'MIT', homepage: null, repository: null, docsUrl: null, popularity, downloads: 10, updatedAt: null,
    extra: { readmeExcerpt: 'not kept in memory', note: 'naïve – ✓ 日本語' },
  };
}

const tools = [
  tool('npm', 'zod', 'TypeScript-first schema validation — «fast» ✓', 0.9),
  tool('npm', '@scope/schema-kit', 'schema tools 日本語', 0.4),
  tool('pypi', 'pydantic', 'data validation using type hints', 0.95),
  tool('crates', 'serde', 'serialization framework', 0.99),
];

describe('IndexCache', () => {
  it('reads back an index that searches and shows records as the built one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-index-cache-'));
    try {
      const built = CatalogSearchIndex.build(tools);
      const cache = new IndexCache(dir, 'test-store');
      cache.save(7, built);
      const loaded = cache.load(7);
      assert.ok(loaded);
      assert.equal(loaded.size, tools.length);
      for (const query of ['schema validation', 'serde', 'type hints']) {
        assert.deepEqual(loaded.search(query).map((hit) => [hit.tool.slug, hit.score]), built.search(query).map((hit) => [hit.tool.slug, hit.score]));
      }
      for (const t of tools) {
        const { readmeExcerpt: _readme, ...extra } = t.extra;
        assert.deepEqual(loaded.get(t.slug), { ...t, extra });
      }
      // A replaced record is shown (and saved) instead of the file's line.
      loaded.upsert([{ ...tools[1]!, description: 'replaced ✓', shortDescription: 'replaced ✓' }]);
      assert.equal(loaded.get(tools[1]!.slug)?.description, 'replaced ✓');
      assert.equal(loaded.get(tools[2]!.slug)?.name, 'pydantic');
      assert.equal(cache.load(8), undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The second meaning field's vectors (round 19): one per tool with README text, embedded from that text alone, and kept
// in step with a tool whose README changes or goes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addMissing, readmeText, readmeVectors } from '../../../src/catalog/tool-vectors.ts';
import type { ToolRecord } from '../../../src/catalog/types.ts';
import type { Embedder } from '../../../src/semantic/index.ts';
import { VectorIndex } from '../../../src/semantic/vector-index.ts';
import { normalizeInPlace } from '../../../src/semantic/vector.ts';

function tool(name: string, description: string, readme?: string): ToolRecord {
  return {
    slug: `npm-${name}`, ecosystem: 'npm', name, version: '1.0.0', description, shortDescription: description,
    keywords: [], languages: [], frameworks: [], categories: [], license: null, homepage: null, repository: null,
    docsUrl: null, popularity: 0.5, downloads: null, updatedAt: null, extra: readme === undefined ? {} : { readmeExcerpt: readme },
  };
}

/** A bag-of-letters embedder: texts that share letters point the same way, and every text it saw is recorded. */
function fakeEmbedder(): Embedder & { seen: string[] } {
  const seen: string[] = [];
  return {
    id: 'fake', dimensions: 26, seen,
    async embed(texts: string[]) {
      seen.push(...texts);
      return texts.map((text) => {
        const v = new Float32Array(26);
        for (const c of text.toLowerCase()) if (c >= 'a' && c <= 'z') v[c.charCodeAt(0) - 97]! += 1;
        return normalizeInPlace(v);
      });
    },
  } as unknown as Embedder & { seen: string[] };
}

describe('README vectors', () => {
  it('reads the README text the catalog holds, and none for a list record or an empty README', () => {
    assert.equal(readmeText(tool('a', 'x', '  spinner for terminals  ')), 'spinner for terminals');
    assert.equal(readmeText(tool('b', 'x')), undefined);
    assert.equal(readmeText(tool('c', 'x', '   ')), undefined);
    assert.equal(readmeText(tool('d', 'x', 'abcdef'), 3), 'abc');
  });

  it('embeds each tool with README text from that text alone, not its description', async () => {
    const embedder = fakeEmbedder();
    const index = await readmeVectors(embedder, [tool('ora', 'zzz', 'spinner'), tool('left', 'yyy')]);
    assert.equal(index.size, 1);
    assert.deepEqual(embedder.seen, ['spinner']);
    const [q] = await embedder.embed(['spinner']);
    assert.ok(Math.abs(index.score(q!, 'npm-ora')! - 1) < 0.02);
    assert.equal(index.score(q!, 'npm-left'), undefined);
  });

  it('follows a tool whose README changed or went after an ingest', async () => {
    const embedder = fakeEmbedder();
    const readme = await readmeVectors(embedder, [tool('ora', 'zzz', 'spinner'), tool('gone', 'yyy', 'parser')]);
    const indexes = { all: new VectorIndex(26, 4), head: new VectorIndex(26, 4), readme };
    await addMissing(embedder, [tool('ora', 'zzz', 'progress bar'), tool('gone', 'yyy'), tool('new', 'www', 'logger')], indexes);
    const [q] = await embedder.embed(['progress bar']);
    assert.ok(Math.abs(readme.score(q!, 'npm-ora')! - 1) < 0.02, 'replaced by the new README');
    assert.equal(readme.has('npm-gone'), false);
    assert.equal(readme.has('npm-new'), true);
    assert.equal(indexes.all.size, 3);
  });
});

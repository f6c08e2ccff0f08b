// A package index of n look-alike API items ("Opens stream number i."), for tests of what runs over an index (the
// meaning step, the foreground queue) without extracting a real package.
import { LexicalIndex } from '../../src/docs/lexical.ts';
import type { PackageIndex } from '../../src/docs/package-index.ts';
import type { IndexedPassage } from '../../src/docs/rank.ts';

export function syntheticPackageIndex(n: number): PackageIndex {
  const passages: IndexedPassage[] = Array.from({ length: n }, (_, id) => ({
    id, url: `https://example.test/${id}`, title: `item${id}`, headings: [`item${id}`], content: `Opens stream number ${id}.`,
    source: 'lib/api.py', identifiers: [], symbol: `lib.item${id}`, importance: 0.5, internal: false,
  }));
  const lexical = new LexicalIndex(passages.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.title ?? '' })));
  return { key: 'pypi-example@1.0.0', slug: 'pypi-example', version: '1.0.0', passages, lexical, stamp: `${n}@0` };
}

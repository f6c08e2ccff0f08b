// The ecosystem affinity of a query's words (ecosystem-affinity.ts) and its place in search: a query that names no
// ecosystem leans to the one whose (popular) tools use its words; naming one turns the feature off.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ecosystemPosterior } from '../../../src/catalog/ecosystem-affinity.ts';
import { CatalogSearchIndex } from '../../../src/catalog/search-index.ts';
import { ECOSYSTEMS, type Ecosystem, type ToolRecord } from '../../../src/catalog/types.ts';

const at = (e: Ecosystem) => ECOSYSTEMS.indexOf(e);
/** Counts in ECOSYSTEMS order (npm, pypi, crates, go, rubygems). */
const counts = (...values: number[]) => Float64Array.from(values);

describe('ecosystemPosterior', () => {
  it('leans to the ecosystem whose tools use the word, relative to its size', () => {
    // npm has 10× the mass; the word is in 40 npm tools (0.4 %) and 30 gems (3 %): the gems use it more.
    const masses = [10_000, 1000, 1000, 1000, 1000];
    const post = ecosystemPosterior([{ weight: 1, counts: counts(40, 1, 1, 1, 30) }], masses)!;
    assert.equal(post.indexOf(Math.max(...post)), at('rubygems'));
    assert.ok(Math.abs(post.reduce((a, b) => a + b, 0) - 1) < 1e-9);
  });

  it('does not favour a small ecosystem for lacking a word (smoothing toward the pooled rate)', () => {
    // A word common in the large ecosystems and absent from a tiny one: the tiny one must not come first.
    const masses = [10_000, 5000, 1000, 1000, 50];
    const post = ecosystemPosterior([{ weight: 1, counts: counts(500, 250, 50, 50, 0) }], masses)!;
    assert.ok(post[at('rubygems')]! < post[at('npm')]! + 1e-9, `rubygems ${post[at('rubygems')]} vs npm ${post[at('npm')]}`);
    // Without smoothing (a Jeffreys estimate per ecosystem) the tiny ecosystem would win on absence alone.
    const raw = masses.map((m, e) => (counts(500, 250, 50, 50, 0)[e]! + 0.5) / (m + 1));
    assert.ok(raw[at('rubygems')]! > 0 && raw[at('rubygems')]! < raw[at('npm')]!, 'the case is one where absence matters');
  });

  it('averages the words: many mildly leaning words do not make it certain, one telling word leads', () => {
    const masses = [1000, 1000, 1000, 1000, 1000];
    const mild = Array.from({ length: 8 }, () => ({ weight: 1, counts: counts(12, 10, 10, 10, 10) }));
    const post = ecosystemPosterior(mild, masses)!;
    assert.ok(post[at('npm')]! < 0.4, `npm ${post[at('npm')]}`);
    const telling = ecosystemPosterior([...mild.slice(0, 3), { weight: 1, counts: counts(0, 0, 0, 0, 80) }], masses)!;
    assert.equal(telling.indexOf(Math.max(...telling)), at('rubygems'));
  });

  it('has no opinion without evidence', () => {
    assert.equal(ecosystemPosterior([{ weight: 1, counts: counts(0, 0, 0, 0, 0) }], [1, 1, 1, 1, 1]), undefined);
    assert.equal(ecosystemPosterior([], [1, 1, 1, 1, 1]), undefined);
  });
});

function tool(ecosystem: Ecosystem, name: string, description: string, popularity: number): ToolRecord {
  return {
    slug: `${ecosystem}-${name}`, ecosystem, name, version: '1.0.0', description, shortDescription: description,
    keywords: [], languages: [], frameworks: [], categories: [], license: null, homepage: null, repository: null,
    docsUrl: null, popularity, downloads: null, updatedAt: null, extra: {},
  };
}

// Made-up catalog: the gems speak of ledgers and entries, the npm packages of components; both have migration tools.
const catalog = [
  tool('rubygems', 'ledgerkit', 'ledger entries for accounting models', 100),
  tool('rubygems', 'entrymeta', 'validations of ledger entries', 90),
  tool('rubygems', 'shiftdb', 'schema migrations', 50),
  tool('npm', 'widgetry', 'ui components', 1000),
  tool('npm', 'panelkit', 'react components for panels', 900),
  tool('npm', 'migrately', 'schema migrations for sql', 800),
  tool('npm', 'recordish', 'record audio in the browser', 2000),
];

describe('ecosystem affinity in search', () => {
  it('gives candidates of the ecosystem whose tools use the query words the higher affinity', () => {
    const index = CatalogSearchIndex.build(catalog);
    const hits = index.search('schema migrations for ledger entries', { limit: 10 }, undefined, true);
    const affinity = (slug: string) => hits.find((hit) => hit.tool.slug === slug)?.signals?.affinity ?? -1;
    assert.ok(affinity('rubygems-shiftdb') > affinity('npm-migrately'), `gem ${affinity('rubygems-shiftdb')} vs npm ${affinity('npm-migrately')}`);
    assert.ok(affinity('npm-migrately') >= 0);
  });

  it('is off when the query names an ecosystem or the search is filtered to one', () => {
    const index = CatalogSearchIndex.build(catalog);
    for (const hit of index.search('schema migrations for ledger entries in ruby', { limit: 10 }, undefined, true)) {
      assert.equal(hit.signals?.affinity, 0, hit.tool.slug);
    }
    for (const hit of index.search('schema migrations for ledger entries', { limit: 10, ecosystem: 'npm' }, undefined, true)) {
      assert.equal(hit.signals?.affinity, 0, hit.tool.slug);
    }
  });

  it('counts tools added after the build (the delta segment) and not their outdated text', () => {
    const index = CatalogSearchIndex.build(catalog);
    const before = index.search('audio waveform', { limit: 10 }, undefined, true).find((hit) => hit.tool.slug === 'npm-recordish')!.signals!.affinity!;
    // Popular gems about audio waveforms arrive: the words now lean to RubyGems.
    index.upsert([tool('rubygems', 'wavegem', 'audio waveform rendering', 120), tool('rubygems', 'soundwave', 'audio waveform analysis', 110)]);
    const after = index.search('audio waveform', { limit: 10 }, undefined, true);
    const npm = after.find((hit) => hit.tool.slug === 'npm-recordish')!.signals!.affinity!;
    const gem = after.find((hit) => hit.tool.slug === 'rubygems-wavegem')!.signals!.affinity!;
    assert.ok(npm < before, `npm affinity ${before} → ${npm}`);
    assert.ok(gem > npm);
  });
});

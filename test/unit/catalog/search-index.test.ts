// CatalogSearchIndex with tool vectors: the row-number fast path scores exactly as the lookup by slug does, and
// follows the vector index when rows are added or moved (a tool embedded after an ingest).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogSearchIndex, type ToolVectors } from '../../../src/catalog/search-index.ts';
import { CUE_SOURCES, CUE_WEIGHT, parseQuery } from '../../../src/catalog/query.ts';
import type { Ecosystem, ToolRecord } from '../../../src/catalog/types.ts';
import { VectorIndex } from '../../../src/semantic/vector-index.ts';
import { normalizeInPlace } from '../../../src/semantic/vector.ts';

function tool(ecosystem: Ecosystem, name: string, description: string, popularity: number): ToolRecord {
  return {
    slug: `${ecosystem}-${name}`, ecosystem, name, version: '1.0.0', description, shortDescription: description,
    keywords: [], languages: [], frameworks: [], categories: [], license: null, homepage: null, repository: null,
    docsUrl: null, popularity, downloads: null, updatedAt: null, extra: {},
  };
}

const tools = [
  tool('npm', 'fetchy', 'http client for the browser', 0.9),
  tool('npm', 'reqlib', 'http client with retries', 0.5),
  tool('pypi', 'pyhttp', 'http client for python', 0.7),
  tool('crates', 'hyperish', 'http client and server', 0.6),
  tool('npm', 'colors', 'terminal colors', 0.8),
];
/** Deterministic unit vectors: each tool leans toward its own axis, the query toward `reqlib` and `hyperish`. */
const vectorOf = (i: number) => normalizeInPlace(Float32Array.from({ length: 16 }, (_, k) => (k === i ? 1 : 0.1 * ((k + i) % 3))));
const query = normalizeInPlace(Float32Array.from({ length: 16 }, (_, k) => (k === 1 ? 1 : k === 3 ? 0.8 : 0.05)));

function vectorsFor(list: ToolRecord[]): VectorIndex {
  const index = new VectorIndex(16, 2);
  list.forEach((t, i) => index.add(t.slug, vectorOf(i)));
  return index;
}
/** The same vectors seen only through score(slug): the path taken by vector sources without row numbers. */
const slugOnly = (index: VectorIndex): ToolVectors => ({
  all: { score: (q, slug) => index.score(q, slug) },
  head: index,
});

describe('search with tool vectors', () => {
  it('scores candidates by row exactly as by slug', () => {
    const byRow = CatalogSearchIndex.build(tools);
    const vectors = vectorsFor(tools);
    byRow.vectors = { all: vectors, head: vectors };
    const bySlug = CatalogSearchIndex.build(tools);
    bySlug.vectors = slugOnly(vectors);
    const a = byRow.search('http client', { limit: 10 }, query, true);
    const b = bySlug.search('http client', { limit: 10 }, query, true);
    assert.deepEqual(a.map((hit) => [hit.tool.slug, hit.score]), b.map((hit) => [hit.tool.slug, hit.score]));
    assert.ok(a.some((hit) => (hit.signals?.semantic ?? 0) > 0), 'the semantic signal took part');
  });

  it('follows the vector index when a tool gets its vector later', () => {
    const index = CatalogSearchIndex.build(tools);
    const vectors = vectorsFor(tools.filter((t) => t.slug !== 'npm-reqlib'));
    index.vectors = { all: vectors, head: vectors };
    const before = index.search('http client', { limit: 10 }, query, true).find((hit) => hit.tool.slug === 'npm-reqlib');
    vectors.add('npm-reqlib', vectorOf(1));
    vectors.remove('npm-colors'); // moves the last row: row numbers kept from before would now be wrong
    const after = index.search('http client', { limit: 10 }, query, true).find((hit) => hit.tool.slug === 'npm-reqlib');
    const bySlug = CatalogSearchIndex.build(tools);
    bySlug.vectors = slugOnly(vectors);
    const expected = bySlug.search('http client', { limit: 10 }, query, true).find((hit) => hit.tool.slug === 'npm-reqlib');
    assert.ok(before && after && expected);
    assert.notEqual(after.signals!.semantic, before.signals!.semantic);
    assert.equal(after.score, expected.score);
  });
});

/** The top five slugs an index answers a query with. */
const topSlugs = (index: CatalogSearchIndex) => (query: string) => index.search(query, { limit: 5 }).map((hit) => hit.tool.slug);

describe('peers of a named tool', () => {
  const catalog = [
    tool('npm', 'moment', 'parse, validate, manipulate and display dates', 0.99),
    tool('npm', 'moment-timezone', 'timezone support for moment dates', 0.95),
    tool('npm', 'dayjs', 'immutable date library, parse and display dates', 0.97),
    tool('npm', 'date-fns', 'modern date utility library', 0.98),
    tool('pypi', 'arrow', 'better dates and times for python', 0.9),
    tool('npm', 'express', 'fast minimalist web framework', 0.99),
    tool('pypi', 'flask', 'a simple web framework for python', 0.95),
    tool('pypi', 'express-py', 'express for python, unofficial port', 0.1),
  ];
  const index = CatalogSearchIndex.build(catalog);
  const slugs = topSlugs(index);

  it('answers "alternative to X" with X\'s neighbours in its ecosystem, without X or packages named after it', () => {
    const answer = slugs('alternative to moment');
    assert.ok(!answer.includes('npm-moment') && !answer.includes('npm-moment-timezone'), answer.join(' '));
    assert.equal(answer[0], 'npm-dayjs', answer.join(' '));
    assert.deepEqual(slugs('moment is deprecated'), answer);
  });
  it('reads a name asked for in another ecosystem as its peers there ("express for python")', () => {
    const answer = slugs('express for python');
    assert.equal(answer[0], 'pypi-flask', answer.join(' '));
    assert.ok(!answer.includes('pypi-express-py') && !answer.includes('npm-express'), answer.join(' '));
    assert.equal(slugs('express')[0], 'npm-express', 'the bare name is still the name');
  });
  it('reads a bare word as a word when it names only an obscure tool elsewhere ("tls in rust")', () => {
    const index = CatalogSearchIndex.build([
      ...catalog, tool('npm', 'tls', 'tls helper', 0.01), tool('crates', 'native-tls', 'tls wrapper over the platform library', 0.9),
      tool('crates', 'rustls', 'modern tls library in rust', 0.8),
    ]);
    const answer = topSlugs(index)('tls in rust');
    assert.ok(answer.includes('crates-native-tls') && answer.includes('crates-rustls'), answer.join(' '));
    assert.equal(topSlugs(index)('express for python')[0], 'pypi-flask', 'a known name is still read as its peers');
  });
  it('leaves out what a query rules out with "without"', () => {
    assert.ok(!slugs('date library without moment').some((slug) => slug.startsWith('npm-moment')));
    assert.ok(slugs('date library').includes('npm-moment'));
  });
  it('embeds a peer query from the named tool\'s own words', () => {
    assert.match(index.embeddingText('alternative to moment'), /manipulate and display dates/);
    assert.equal(index.embeddingText('date library'), 'date library');
  });
});

describe('a peer name several ecosystems hold', () => {
  const catalog = [
    tool('crates', 'staple', 'openapi tooling for web services', 0.3),
    tool('rubygems', 'staple', 'file attachment management for models', 0.25),
    tool('rubygems', 'keepsake', 'uploads and file attachments for rack apps', 0.8),
    tool('crates', 'specgen', 'openapi document generation', 0.7),
    tool('npm', 'envy', 'loads environment variables from a .env file', 0.99),
    tool('crates', 'envy', 'loads environment variables from a .env file', 0.4),
    tool('crates', 'envoy', 'environment variables from .env files', 0.6),
    tool('npm', 'envload', 'environment variables from .env files', 0.9),
  ];
  const index = CatalogSearchIndex.build(catalog);
  const slugs = topSlugs(index);
  it('resolves the name to the tool whose own words the rest of the query shares', () => {
    assert.equal(slugs('staple is deprecated, what should handle file attachments now')[0], 'rubygems-keepsake');
    // With no word of the query shared, the more popular namesake is meant.
    assert.equal(slugs('staple is deprecated')[0], 'crates-specgen');
  });
  it('picks, among several names a phrase offers, the tool the query\'s other words describe', () => {
    const engines = CatalogSearchIndex.build([
      tool('npm', 'engine', 'a rules engine for business logic', 0.9),
      tool('crates', 'frobz', 'a data-driven game engine', 0.5),
      tool('crates', 'quuxgame', 'a game engine, simple and modular', 0.6),
      tool('npm', 'rulez', 'rules engine for business logic', 0.8),
    ]);
    assert.equal(topSlugs(engines)('frobz game engine archived, what now')[0], 'crates-quuxgame');
  });
  it('resolves it in the registry a kind word names ("the envy crate is unmaintained")', () => {
    assert.equal(slugs('the envy crate is unmaintained')[0], 'crates-envoy');
    assert.equal(slugs('envy is unmaintained')[0], 'npm-envload');
  });
});

describe('a peer name written in two words', () => {
  // The one-word spelling is another tool whose own words share the query's ("vue", "templates"): the spellings of one
  // name do not compete on those words, the two-word one is the name meant.
  const catalog = [
    tool('npm', 'frobz-widgets', 'visual primitives for the component age, css in js for react', 0.9),
    tool('npm', 'frobz', 'frobz templates for vue', 0.2),
    tool('npm', 'vue-css', 'css in js for vue single file components', 0.6),
  ];
  const index = CatalogSearchIndex.build(catalog);
  it('resolves "like frobz widgets but for vue templates" to frobz-widgets, not frobz', () => {
    const text = index.embeddingText('like frobz widgets but for vue templates');
    assert.match(text, /visual primitives for the component age/);
    assert.doesNotMatch(text, /frobz templates for vue/);
  });
});

describe('peer names written with a language suffix, and names the catalog lacks', () => {
  const catalog = [
    tool('npm', 'moment', 'parse, validate, manipulate and display dates', 0.99),
    tool('npm', 'dayjs', 'immutable date library, parse and display dates', 0.97),
    tool('npm', 'date-fns', 'modern date utility library', 0.98),
  ];
  const slugs = topSlugs(CatalogSearchIndex.build(catalog));
  it('reads "moment.js" as moment', () => {
    const answer = slugs('alternative to moment.js');
    assert.ok(answer.length > 0 && !answer.includes('npm-moment'), answer.join(' '));
  });
  it('searches the words of a peer phrase whose name is no catalog tool, instead of answering nothing', () => {
    assert.ok(slugs('alternative to datejuggler for dates').length > 0);
  });
});


describe('framework cues from the catalog (CUE_SOURCES.derived, shipped since round 8)', () => {
  // A made-up framework: the most used gem is named for it, and its plugins say its name; "widget" is said everywhere.
  const gems = [
    tool('rubygems', 'frobnicate', 'web framework', 0.95),
    ...['auth', 'admin', 'cache', 'mailer', 'pager', 'jobs'].map((part, i) => tool('rubygems', `frobnicate-${part}`, `${part} for frobnicate apps`, 0.3 + i * 0.05)),
    ...['one', 'two', 'three'].map((part, i) => tool('rubygems', `gem-${part}`, `a widget ${part}`, 0.1 + i * 0.05)),
    ...['one', 'two', 'three', 'four', 'five', 'six'].map((part, i) => tool('npm', `js-${part}`, `a widget ${part}`, 0.2 + i * 0.1)),
    tool('npm', 'js-seven', 'a widget, frobnicate free', 0.1),
    ...['one', 'two', 'three'].map((part, i) => tool('pypi', `py-${part}`, `a widget ${part}`, 0.2 + i * 0.1)),
    tool('npm', 'widget', 'widgets', 0.99),
    // A name written as one word but as two in prose ("QuuxRecord" is indexed as "quux record").
    tool('rubygems', 'quuxrecord', 'object mapping', 0.97),
    ...['soft', 'tree', 'tags', 'list', 'audit'].map((part, i) => tool('rubygems', `qr-${part}`, `${part} for QuuxRecord models`, 0.2 + i * 0.02)),
  ];
  const index = CatalogSearchIndex.build(gems);

  it('reads a popular tool\'s name that the tools saying it share with it as that ecosystem\'s framework', () => {
    assert.equal(index.frameworkOf('frobnicate'), 'rubygems');
  });
  it('counts the tools that say a one-word name as two words', () => {
    assert.equal(index.frameworkOf('quuxrecord'), 'rubygems');
  });
  it('reads a word said in every ecosystem as no cue, even when a popular tool bears it', () => {
    assert.equal(index.frameworkOf('widget'), undefined);
  });
  it('sets the intent and keeps the cue a search word at the cue weight, only when switched on', () => {
    CUE_SOURCES.derived = false;
    assert.equal(parseQuery('frobnicate pagination', { frameworkOf: index.frameworkOf }).ecosystem, undefined);
    CUE_SOURCES.derived = true;
    try {
      const parsed = parseQuery('frobnicate pagination', { frameworkOf: index.frameworkOf });
      assert.equal(parsed.ecosystem, 'rubygems');
      assert.equal(parsed.weights.get('frobnicate'), CUE_WEIGHT);
      assert.equal(parseQuery('frobnicate pagination in python', { frameworkOf: index.frameworkOf }).ecosystem, 'pypi');
    } finally {
      CUE_SOURCES.derived = true;
    }
  });
});

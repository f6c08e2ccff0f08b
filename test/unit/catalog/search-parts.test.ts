// The parts of directory search that are pure logic: query cues, the text index, families and classification.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deriveCategories } from '../../../src/catalog/classify.ts';
import { familyHeads } from '../../../src/catalog/families.ts';
import { CUE_SOURCES, parseQuery } from '../../../src/catalog/query.ts';

// These tables drive the parser alone, without a catalog: its framework cues come from the hand lists here (the
// search ships the catalog's since round 8, tested in search-index.test.ts; the parser reads either the same way).
CUE_SOURCES.hand = true;
CUE_SOURCES.derived = false;
import { FIELD_BIT, TextIndex } from '../../../src/catalog/text-index.ts';

describe('query cues', () => {
  const cases: Array<[string, string | undefined]> = [
    ['pydantic-like data validation', 'pypi'],
    ['asyncio http client', 'pypi'],
    ['serde support for toml', 'crates'],
    ['goroutine pool', 'go'],
    ['rspec matchers for models', 'rubygems'],
    ['activerecord soft delete', 'rubygems'],
    ['write python extensions in rust', 'crates'],
    ['fast python linter written in rust', 'pypi'],
    ['numpy-like arrays in rust', 'crates'],
  ];
  for (const [query, ecosystem] of cases) {
    it(`"${query}" → ${ecosystem}`, () => assert.equal(parseQuery(query).ecosystem, ecosystem));
  }
  it('keeps a framework cue as a term at a reduced weight, and a bare name at full weight', () => {
    const rails = parseQuery('rails auth');
    assert.ok(rails.weights.get('rails')! < 0.5 && rails.weights.get('auth') === 1);
    assert.deepEqual([...parseQuery('pandas').weights], [['pandas', 1]]);
    assert.equal(parseQuery('pandas').ecosystem, undefined, 'a bare name is looked up wherever it lives');
  });
  it('keeps a language word that is the topic, not the ecosystem', () => {
    assert.ok(parseQuery('write python extensions in rust').terms.includes('python'));
  });
  it('reads one word with its language as a name, and one word tied by "for"/"to" as a description', () => {
    for (const query of ['zod', 'requests python', 'boto3 in python', 'the zod library', 'rust']) {
      assert.equal(parseQuery(query).bareName, true, query);
    }
    for (const query of ['rust library for sqlite', 'library to parse yaml', 'http client', 'tools for linting']) {
      assert.equal(parseQuery(query).bareName, false, query);
    }
  });
});

describe('text index', () => {
  const texts = [
    { name: 'zod', keywords: 'schema validation', description: 'TypeScript-first schema validation', tags: 'validation', readme: '' },
    { name: 'object-schema', keywords: '', description: 'An object schema helper', tags: '', readme: '' },
    { name: 'left-pad', keywords: '', description: 'Pads strings', tags: 'text', readme: '' },
  ];
  const index = TextIndex.build(texts);
  it('finds documents by stemmed terms, and says which fields of each have the term', () => {
    const schema = index.hits('schema')!;
    assert.deepEqual([...schema.docs].sort(), [0, 1]);
    const valid = index.hits('valid')!; // "validation" stems to "valid"
    assert.deepEqual([...valid.docs], [0]);
    assert.equal(index.hits('nothing'), undefined);
    const pad = index.hits('pad')!;
    assert.equal(index.fieldsOf(pad, 2), FIELD_BIT.name | FIELD_BIT.description, 'left-pad: "pad" in its name and "pads" in its description');
    assert.equal(index.fieldsOf(schema, 0), FIELD_BIT.keywords | FIELD_BIT.description);
    assert.equal(index.fieldsOf(schema, 1), FIELD_BIT.name | FIELD_BIT.description);
    assert.equal(index.fieldsOf(schema, 2), 0, 'a document without the term');
    assert.equal(index.fieldsOf(valid, 0), FIELD_BIT.keywords | FIELD_BIT.description | FIELD_BIT.tags);
  });
  it('round-trips through its serialized form', () => {
    const copy = TextIndex.fromSerialized(index.serialize());
    assert.deepEqual([...copy.hits('schema')!.docs], [...index.hits('schema')!.docs]);
    assert.deepEqual([...copy.hits('schema')!.fields], [...index.hits('schema')!.fields]);
    assert.equal(copy.documentFrequency('schema'), 2);
  });
});

describe('families', () => {
  const tool = (ecosystem: 'npm' | 'crates' | 'rubygems' | 'go', name: string, popularity: number, repository: string | null = null) =>
    ({ ecosystem, name, popularity, repository });
  it('groups sub-packages under the package a person installs', () => {
    const tools = [
      tool('crates', 'clap', 0.9, 'https://github.com/clap-rs/clap'), tool('crates', 'clap_builder', 0.95, 'https://github.com/clap-rs/clap'),
      tool('npm', 'vitest', 0.9), tool('npm', '@vitest/runner', 0.95),
      tool('rubygems', 'rails', 0.8), tool('rubygems', 'activerecord', 0.9),
      tool('crates', 'serde', 0.99, 'https://github.com/serde-rs/serde'), tool('crates', 'serde_json', 0.99, 'https://github.com/serde-rs/json'),
      tool('go', 'github.com/golang-jwt/jwt/v5', 0.9, 'https://github.com/golang-jwt/jwt'), tool('go', 'github.com/golang-jwt/jwt', 0.3, 'https://github.com/golang-jwt/jwt'),
    ];
    const heads = familyHeads(tools);
    assert.equal(heads[1], 0, 'clap_builder → clap');
    assert.equal(heads[3], 2, '@vitest/runner → vitest');
    assert.equal(heads[5], 4, 'activerecord → rails');
    assert.equal(heads[7], 7, 'serde_json is its own project');
    assert.equal(heads[9], 8, 'an old Go major version → the most used one');
  });
  it('does not chain projects together through a shared name prefix', () => {
    const tools = [
      tool('npm', 'babel', 0.5), tool('npm', 'babel-jest', 0.9, 'https://github.com/jestjs/jest'),
      tool('npm', 'jest', 0.9, 'https://github.com/jestjs/jest'), tool('npm', 'pretty', 0.4), tool('npm', 'pretty-format', 0.95, 'https://github.com/jestjs/jest'),
      tool('npm', 'use', 0.2), tool('npm', 'use-debounce', 0.8), tool('npm', 'vitest', 0.9), tool('npm', 'vitest-types', 0.3),
      tool('crates', 'tracing', 0.9), tool('crates', 'tracing-log', 0.8, 'https://github.com/tokio-rs/tracing'),
      tool('crates', 'pyo3', 0.9), tool('crates', 'pyo3-async-runtimes', 0.7),
    ];
    const heads = familyHeads(tools);
    assert.equal(heads[1], 2, 'babel-jest lives in jest\'s repository: jest heads it, not the babel package');
    assert.equal(heads[0], 0, 'babel is not drawn into jest\'s family');
    assert.equal(heads[4], 2, 'pretty-format → jest (its repository), not the unrelated `pretty` package');
    assert.equal(heads[3], 3);
    assert.equal(heads[6], 6, 'use-debounce (a seed-list record) is a library of its own, not a companion of `use`');
    assert.equal(heads[8], 7, '…-types is a companion name');
    assert.equal(heads[10], 9, 'tracing-log lives in a repository named after tracing');
    assert.equal(heads[12], 11, 'on crates.io a prefix names the host crate');
  });
  it('heads a family with the package it is named after, not a more used helper of the same repository', () => {
    const tools = [
      tool('npm', 'espree', 0.99, 'https://github.com/eslint/js'), tool('npm', 'eslint-scope', 0.99, 'https://github.com/eslint/js'),
      tool('npm', 'eslint', 0.98), tool('npm', '@eslint/js', 0.98, 'https://github.com/eslint/eslint'),
    ];
    const heads = familyHeads(tools);
    assert.deepEqual([...heads], [2, 2, 2, 2]);
  });
});

describe('category classifier', () => {
  it('does not file type inference or arrays under machine learning or data science', () => {
    const zod = deriveCategories({ name: 'zod', description: 'TypeScript-first schema declaration and validation library with static type inference', keywords: [] });
    assert.ok(!zod.includes('machine-learning'), zod.join());
    const kindOf = deriveCategories({ name: 'kind-of', description: 'Get the native type of a value.', keywords: ['array', 'check', 'type', 'typeof'] });
    assert.ok(!kindOf.includes('data-science'), kindOf.join());
    assert.ok(deriveCategories({ name: 'torch', description: 'Tensors and dynamic neural networks', keywords: [] }).includes('machine-learning'));
  });
});

describe('query words that are JavaScript property names', () => {
  it('treats constructor, toString and __proto__ as plain words', () => {
    const parsed = parseQuery('constructor toString __proto__ hasOwnProperty');
    assert.equal(parsed.ecosystem, undefined);
    assert.ok(parsed.terms.includes('constructor'));
  });
});

describe('peer phrases', () => {
  it('reads the tool a query asks peers of, and leaves the phrase out of the terms', () => {
    for (const [query, name] of [
      ['alternative to moment', 'moment'], ['moment alternative', 'moment'], ['like lodash but smaller', 'lodash'],
      ['replacement for deprecated request', 'request'], ['request is deprecated what should i use', 'request'],
      ['migrate from nose to something maintained', 'nose'], ['alternatives to jest for vitest users', 'jest'],
    ] as const) {
      const parsed = parseQuery(query);
      assert.ok(parsed.peerOf?.some((forms) => forms.includes(name)), `${query}: ${JSON.stringify(parsed.peerOf)}`);
      assert.ok(!parsed.terms.includes(name) && !parsed.terms.includes('alternative'), `${query}: ${parsed.terms.join(' ')}`);
      assert.equal(parsed.bareName, false, query);
    }
  });
  it('reads the name before a word for what it is ("the request package is deprecated")', () => {
    for (const [query, name] of [
      ['the request package is deprecated, what should I use for http calls in node', 'request'],
      ['the failure crate is deprecated, what replaces it', 'failure'],
    ] as const) {
      const parsed = parseQuery(query);
      assert.deepEqual(parsed.peerOf, [[name]], query);
      assert.ok(!parsed.terms.includes('package') && !parsed.terms.includes('crate'), parsed.terms.join(' '));
    }
  });
  it('reads a language suffix of a name ("moment.js", "tui-rs") as the name without it, in that ecosystem', () => {
    const moment = parseQuery('alternative to moment.js');
    assert.deepEqual(moment.peerOf, [['moment', 'moment.js']]);
    assert.equal(moment.peerEcosystem, 'npm');
    const tui = parseQuery('tui-rs is unmaintained, what now');
    assert.deepEqual(tui.peerOf, [['tui', 'tui-rs']]);
    assert.equal(tui.peerEcosystem, 'crates');
  });
  it('reads an opening name before "but", a language word before the name, and "X-compatible"', () => {
    assert.deepEqual(parseQuery('chalk but smaller').peerOf, [['chalk']]);
    assert.deepEqual(parseQuery('chalk but smaller').terms, ['smaller']);
    const requests = parseQuery('like python requests but for go');
    assert.deepEqual(requests.peerOf, [['requests']]);
    assert.equal(requests.peerEcosystem, 'pypi');
    assert.equal(requests.ecosystem, 'go');
    assert.deepEqual(parseQuery('jest is slow, something jest-compatible but faster').peerOf, [['jest']], 'a name read twice is one group');
    // "but" that does not follow an opening name is a plain word of the query.
    assert.equal(parseQuery('a fast but safe json parser').peerOf, undefined);
  });
  it('reads a registry\'s kind word after the name as the ecosystem it lives in ("the dotenv crate", "the sass gem")', () => {
    assert.equal(parseQuery('the frobz crate is unmaintained').peerEcosystem, 'crates');
    assert.equal(parseQuery('the frobz gem is deprecated, what now').peerEcosystem, 'rubygems');
    assert.equal(parseQuery('the frobz package is deprecated').peerEcosystem, undefined, '"package" names no registry');
  });
  it('reads what is said of a tool on its way out, with or without an auxiliary', () => {
    for (const [query, name] of [['widgetry got archived, which router now', 'widgetry'], ['the frobz crate is in maintenance mode', 'frobz'],
      ['blinker was renamed', 'blinker'], ['zapper has been discontinued', 'zapper'], ['quux is retired, what now', 'quux']] as const) {
      const parsed = parseQuery(query);
      assert.ok(parsed.peerOf?.some((forms) => forms.includes(name)), `${query}: ${JSON.stringify(parsed.peerOf)}`);
      assert.ok(!parsed.terms.includes(name) && !parsed.terms.includes('archived') && !parsed.terms.includes('maintenance'), `${query}: ${parsed.terms}`);
    }
    assert.equal(parseQuery('archived logs in cold storage').peerOf, undefined, 'a status word that opens the query names nothing');
  });
  it('reads a possessive as its noun ("like ruby\'s sidekiq")', () => {
    const parsed = parseQuery("like ruby's sidekiq but for go");
    assert.deepEqual(parsed.peerOf, [['sidekiq']]);
    assert.equal(parsed.peerEcosystem, 'rubygems');
    assert.ok(!parsed.terms.includes('s'));
  });
  it('can be asked to read no peer phrase (a name the catalog does not have)', () => {
    const parsed = parseQuery('alternative to frobnicator', { peers: false });
    assert.equal(parsed.peerOf, undefined);
    assert.ok(parsed.terms.includes('frobnicator'));
  });
  it('offers a two-word name first ("active record"), and the one word too, as spellings of one name', () => {
    assert.deepEqual(parseQuery('alternative to active record').peerOf, [['active-record', 'active']]);
    assert.deepEqual(parseQuery('like frobz widgets but for vue templates').peerOf, [['frobz-widgets', 'frobz']]);
  });
  it('reads "without X" as a name to leave out, not a word to match', () => {
    const parsed = parseQuery('http client without axios');
    assert.deepEqual(parsed.without, [['axios']]);
    assert.deepEqual(parsed.terms, ['http', 'client']);
  });
  it('reads a sentence about the opening name ("frobz is painfully slow…", "frobz doesn\'t support…") as its peers', () => {
    assert.deepEqual(parseQuery('frobz is painfully slow with esm, need a faster runner').peerOf, [['frobz']]);
    assert.deepEqual(parseQuery("frobz doesn't support react 18, what now").peerOf, [['frobz']]);
    assert.ok(!parseQuery('frobz is painfully slow').terms.includes('frobz'));
    // Only the opening name: a sentence further on names nothing ("which country is this ip from").
    assert.equal(parseQuery('which country is this ip address from').peerOf, undefined);
    assert.equal(parseQuery('parse dates when the input is messy').peerOf, undefined);
  });
  it('offers the words before a status too ("frobz game engine archived"), the nearest first', () => {
    assert.deepEqual(parseQuery('frobz game engine archived, what now').peerOf, [['engine'], ['game'], ['frobz']]);
    assert.deepEqual(parseQuery('the frobz error library is deprecated').peerOf, [['error'], ['frobz']]);
    assert.deepEqual(parseQuery('frobz is deprecated').peerOf, [['frobz']]);
  });
  it('reads a gerund with an object as an action ("without linking frobssl"), not as the name', () => {
    const linking = parseQuery('tls library without linking frobssl');
    assert.deepEqual(linking.without, [['frobssl']]);
    assert.deepEqual(linking.terms, ['tls']);
    assert.equal(parseQuery('jump to folders instead of typing long paths').peerOf, undefined);
    assert.ok(parseQuery('jump to folders instead of typing long paths').terms.includes('typing'));
    // A name that ends in -ing, alone or before a connecting word, is still a name.
    assert.deepEqual(parseQuery('alternative to tracing for structured logs').peerOf, [['tracing']]);
    assert.deepEqual(parseQuery('http client without tracing').without, [['tracing']]);
  });
  it('leaves ordinary queries alone', () => {
    for (const query of ['http client', 'i would like a yaml parser', 'rails auth', 'parse dates like iso 8601']) {
      const parsed = parseQuery(query);
      assert.equal(parsed.without.length, 0, query);
    }
    assert.equal(parseQuery('i would like a yaml parser').peerOf, undefined);
    assert.equal(parseQuery('http client').peerOf, undefined);
  });
});

describe('framework cues from the hand lists (the search ships the catalog cues since round 8)', () => {
  it('reads two words as one framework name ("active record")', () => {
    assert.equal(parseQuery('active record soft delete').ecosystem, 'rubygems');
  });
  it('does not read a framework the lists do not name as an ecosystem, and keeps it a search word', () => {
    const parsed = parseQuery('bevy physics plugin');
    assert.equal(parsed.ecosystem, undefined);
    assert.equal(parsed.weights.get('bevy'), 1);
  });
  it('lets a named language win over a cue', () => {
    assert.equal(parseQuery('activerecord like orm in python').ecosystem, 'pypi');
  });
});

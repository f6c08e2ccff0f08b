// The query parser as it ships: framework cues from the catalog (CUE_SOURCES.derived; the hand lists off), read by
// CatalogSearchIndex.frameworkOf over a small sample of the real catalog (test/fixtures/catalog/cue-sample.jsonl.gz,
// written by bench/search-cue-fixture.ts). The table of search-parts.test.ts runs there with the hand lists; here the
// same queries and more run with the shipped setting. On the sample each word below reads as on the whole shipped
// catalog (checked when the sample was written), except `numpy`, which the sample thins below the cue's minimum.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { CUE_SOURCES, CUE_WEIGHT, parseQuery } from '../../../src/catalog/query.ts';
import { CatalogSearchIndex } from '../../../src/catalog/search-index.ts';
import { readSnapshot } from '../../../src/catalog/snapshot.ts';
import type { ToolRecord } from '../../../src/catalog/types.ts';

const FIXTURE = path.join(import.meta.dirname, '../../fixtures/catalog/cue-sample.jsonl.gz');

describe('query cues with the catalog\'s framework cues (the shipped setting)', () => {
  let index: CatalogSearchIndex;
  const saved = { ...CUE_SOURCES };
  before(async () => {
    Object.assign(CUE_SOURCES, { hand: false, derived: true });
    const tools: ToolRecord[] = [];
    for await (const tool of readSnapshot(FIXTURE)) tools.push(tool);
    index = CatalogSearchIndex.build(tools);
  });
  after(() => { Object.assign(CUE_SOURCES, saved); });
  const parse = (query: string) => parseQuery(query, { frameworkOf: index.frameworkOf });

  it('ships with the catalog\'s cues on and the hand lists off', () => {
    assert.deepEqual(saved, { hand: false, derived: true });
  });

  const cases: Array<[string, string | undefined]> = [
    ['pydantic-like data validation', 'pypi'],
    ['asyncio http client', 'pypi'],
    ['serde support for toml', 'crates'],
    ['rspec matchers for models', 'rubygems'],
    ['activerecord soft delete', 'rubygems'],
    ['active record soft delete', 'rubygems'],
    ['django rest api', 'pypi'],
    ['tokio tcp server', 'crates'],
    ['sinatra json api', 'rubygems'],
    ['write python extensions in rust', 'crates'],
    ['fast python linter written in rust', 'pypi'],
    ['numpy-like arrays in rust', 'crates'],
    // Not cues: plain words said in every ecosystem, and a Go word no widely used module is named for.
    ['json parser', undefined],
    ['date formatting', undefined],
    ['http client', undefined],
    ['goroutine pool', undefined],
  ];
  for (const [query, ecosystem] of cases) {
    it(`"${query}" → ${ecosystem}`, () => assert.equal(parse(query).ecosystem, ecosystem));
  }

  it('keeps a cue as a search word at the cue weight; a language word with "in" still wins over it', () => {
    const rails = parse('rails auth');
    assert.equal(rails.ecosystem, 'rubygems');
    assert.equal(rails.weights.get('rails'), CUE_WEIGHT);
    assert.equal(rails.weights.get('auth'), 1);
    assert.equal(parse('sinatra json api in python').ecosystem, 'pypi');
    assert.equal(parse('active record soft delete').weights.get('activerecord'), CUE_WEIGHT, 'two words read as the one name');
  });

  it('reads no plain word as a framework, even one a popular tool is named for', () => {
    for (const word of ['json', 'date', 'http', 'requests', 'validation']) assert.equal(index.frameworkOf(word), undefined, word);
    // Also a framework that is a plain English word many tools say (as on the whole catalog): a known limit of the cue.
    assert.equal(index.frameworkOf('express'), undefined);
  });
});

// go/doc's embedded methods: an exported struct that embeds an unexported type lists that type's exported methods as
// its own (`type Cache struct{ *cache }` shows `Cache.Add` on pkg.go.dev). The extractor names them the same way.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromGoModule } from '../../../src/docs/extract/golang.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';

const types = `package cache

// Cache is a thread-safe map with expiry.
type Cache struct {
	*cache
}

type cache struct {
	janitor
	items map[string]Item
}

// Store keeps two embedded helpers that both define Name: neither is promoted.
type Store struct {
	left
	right
	Exported
}

// Exported is an exported embedded type: its methods stay under it.
type Exported struct{}

// Pool and Client share one unexported helper: its methods would repeat under both, so neither lists them.
type Pool struct{ shared }
type Client struct{ *shared }

type shared struct{}
type janitor struct{}
type left struct{}
type right struct{}
`;

const methods = `package cache

// Add an item to the cache only if an item doesn't already exist for the given key.
func (c *cache) Add(k string, x interface{}) error { return nil }

// Get an item from the cache.
func (c *cache) Get(k string) (interface{}, bool) { return nil, false }

// Get on Cache itself shadows the embedded one.
func (c Cache) Get(k string) (interface{}, bool) { return nil, false }

// Run starts the janitor that deletes expired items.
func (j *janitor) Run() {}

// helper is not exported.
func (c *cache) helper() {}

// Name of the left side.
func (l left) Name() string { return "" }

// Name of the right side.
func (r right) Name() string { return "" }

// Ping the server.
func (s shared) Ping() error { return nil }

// Stop of the exported embedded type.
func (e Exported) Stop() {}
`;

describe('Go methods promoted from embedded unexported types', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['go']); });
  const extract = () => apiFromGoModule(parsers, {
    module: 'example.com/cache', files: new Map([['cache.go', types], ['methods.go', methods]]), locate: (file, where) => `${file}#${where.anchor ?? ''}`,
  });

  it('lists an embedded unexported type\'s exported methods under the embedding type, receiver renamed', async () => {
    const drafts = await extract();
    const add = drafts.find((d) => d.symbol === 'cache.Cache.Add');
    assert.ok(add, 'Cache.Add promoted from *cache');
    assert.match(add.content, /func \(c Cache\) Add\(k string/);
    assert.match(add.content, /only if an item doesn't already exist/);
    assert.equal(add.url, 'methods.go#Cache.Add');
    // Two levels down: janitor is embedded in cache, which Cache embeds.
    assert.ok(drafts.some((d) => d.symbol === 'cache.Cache.Run'), 'Cache.Run promoted through two embeddings');
  });

  it('keeps a method the type declares itself, and promotes neither of two same-depth namesakes', async () => {
    const drafts = await extract();
    const gets = drafts.filter((d) => d.symbol === 'cache.Cache.Get');
    assert.equal(gets.length, 1);
    assert.match(gets[0]!.content, /shadows the embedded one/);
    assert.ok(!drafts.some((d) => d.symbol === 'cache.Store.Name'), 'ambiguous Name is not promoted');
    assert.ok(!drafts.some((d) => d.symbol === 'cache.Store.Stop'), 'an exported embedded type keeps its methods');
    assert.ok(drafts.some((d) => d.symbol === 'cache.Exported.Stop'));
    assert.ok(!drafts.some((d) => /\.Ping$/.test(d.symbol ?? '')), 'a helper two exported types embed is promoted into neither');
    assert.ok(!drafts.some((d) => /helper|cache\.cache\./.test(d.symbol ?? '')), 'unexported names stay out');
  });
});

// A Go struct with no doc comment of its own whose fields are documented (go-redis/cache's `Item`: `// TTL is the cache
// expiration time.`) was one bare declaration: its only prose, the fields' comments, sat inside its code block and no
// passage was named for the field an agent asks about (`Item.TTL`). Round 20: each documented exported field of such a
// struct is a member passage, as for a struct too long for its signature. A documented struct that fits its signature
// keeps its fields in its own passage (fields as passages of every struct crowded answers out in round 7).
// Here: extraction → a real store (PGlite; PostgreSQL too when TEST_DATABASE_URL is set) → the package index as served →
// symbol lookup.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromGoModule } from '../../../src/docs/extract/golang.ts';
import { loadParsers } from '../../../src/docs/extract/treesitter.ts';
import { createPackageIndexes } from '../../../src/docs/package-index.ts';
import { insertPassages } from '../../../src/docs/repository.ts';
import { lookupSymbol } from '../../../src/docs/symbol.ts';
import type { Store } from '../../../src/store/index.ts';
import { freshStore, storeKinds } from '../../helpers/stores.ts';

const source = `package cache

type Item struct {
	Key   string
	Value interface{}

	// TTL is the cache expiration time.
	// Default TTL is 1 hour.
	TTL time.Duration

	// SetNX only sets the key if it does not already exist.
	SetNX bool

	Undocumented bool
	hidden       bool
}

// Options are the settings of a Cache.
type Options struct {
	// Redis is the client the cache writes through.
	Redis string
}

// Once gets the item.Value for the given item.Key from the cache or executes, caches, and returns the results of the
// given item.Func, making sure that only one execution is in-flight for a given item.Key at a time.
func (cd *Cache) Once(item *Item) error { return nil }
`;

for (const kind of storeKinds()) describe(`documented fields of a Go struct with no doc of its own (${kind})`, () => {
  let store: Store;
  let close: (() => Promise<void>) | undefined;
  before(async () => { ({ store, close } = await freshStore(kind)); });
  after(async () => { await close?.(); });

  it('makes each documented exported field a member passage, stored and found by an exact symbol lookup', async () => {
    const parsers = await loadParsers(['go']);
    const drafts = await apiFromGoModule(parsers, {
      module: 'example.com/cache', files: new Map([['cache.go', source]]), locate: (file, where) => `${file}#${where.anchor ?? ''}`,
    });
    const symbols = drafts.map((d) => d.symbol);
    const ttl = drafts.find((d) => d.symbol === 'cache.Item.TTL');
    assert.ok(ttl, `Item.TTL is a passage: ${symbols.join(', ')}`);
    assert.equal(ttl.member, true, 'a member passage: it yields to whole items where the cap binds');
    assert.match(ttl.content, /TTL time\.Duration/);
    assert.match(ttl.content, /cache expiration time/);
    assert.equal(ttl.url, 'cache.go#Item.TTL');
    assert.ok(symbols.includes('cache.Item.SetNX'));
    assert.ok(symbols.includes('cache.Item'), 'the struct keeps its own passage');
    // Undocumented and unexported fields stay in the struct; a documented struct that fits keeps its fields.
    for (const absent of ['cache.Item.Undocumented', 'cache.Item.hidden', 'cache.Item.Key', 'cache.Options.Redis']) assert.ok(!symbols.includes(absent), absent);

    await insertPassages(store, 'go-example.com/cache', '9.0.0', drafts);
    const index = await createPackageIndexes(store).get('go-example.com/cache', '9.0.0', 'test');
    const found = lookupSymbol(index.passages, 'Item.TTL', ['example.com/cache', 'cache']);
    assert.equal(found.found, true);
    assert.equal(found.exact, true, 'the field itself, not the struct it belongs to');
    assert.equal(found.item?.symbol, 'cache.Item.TTL');
    assert.match(found.item!.documentation, /cache expiration time/);
    const setnx = lookupSymbol(index.passages, 'cache.Item.SetNX', ['example.com/cache', 'cache']);
    assert.equal(setnx.exact, true);
    assert.match(setnx.item!.documentation, /does not already exist/);
  });
});

// Go declarations that tree-sitter-go shapes differently from a plain spec: grouped vars (var_spec_list), type
// aliases (type_alias), a struct's fields (names of the struct's passage), an example's own name. Each is API as go/doc
// shows it.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromGoModule } from '../../../src/docs/extract/golang.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';

const source = `package cache

// Package-level errors.
var (
	// ErrCacheMiss means that a Get failed because the item wasn't present.
	ErrCacheMiss = errors.New("cache miss")
	ErrOther = errors.New("other") // not a doc of the next one
	// ErrClosed is returned after Close.
	ErrClosed = errors.New("closed")
)

// Status codes.
const (
	StatusContinue = 100 // RFC 9110, 15.2.1
	// StatusNone has a doc above it.
	StatusNone = 0 // and a line comment
	StatusBare = 1
)

// Handler is an alias kept for compatibility.
type Handler = func(string)

// Config configures a Decoder.
type Config struct {
	// WeaklyTypedInput, if true, converts strings to ints and ints to strings.
	WeaklyTypedInput bool
	Mask rune // Mask hides what the user types.
	hidden int
	// Embedded fields have no name of their own.
	Embedded
	Size int
}
`;

describe('Go specs beyond the plain ones', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['go']); });
  const extract = () => apiFromGoModule(parsers, {
    module: 'example.com/cache', files: new Map([['cache.go', source]]), locate: (file, where) => `${file}#${where.anchor ?? ''}`,
  });

  it('extracts each documented var of a grouped var block with its own comment', async () => {
    const drafts = await extract();
    const miss = drafts.find((d) => d.symbol === 'cache.ErrCacheMiss');
    assert.ok(miss, 'grouped var extracted');
    assert.match(miss.content, /Get failed because the item wasn't present/);
    const closed = drafts.find((d) => d.symbol === 'cache.ErrClosed');
    assert.ok(closed);
    // The trailing comment of ErrOther's line is not ErrClosed's doc.
    assert.doesNotMatch(closed.content, /not a doc/);
    assert.match(closed.content, /returned after Close/);
  });

  it('extracts a type alias', async () => {
    const alias = (await extract()).find((d) => d.symbol === 'cache.Handler');
    assert.ok(alias);
    assert.match(alias.content, /type Handler = func\(string\)/);
    assert.match(alias.content, /alias kept for compatibility/);
  });

  it('names a struct\'s exported fields as identifiers of its passage, with no passage of their own', async () => {
    const drafts = await extract();
    const config = drafts.filter((d) => d.symbol === 'cache.Config');
    assert.equal(config.length, 1);
    // The fields and their comments stay in the signature.
    assert.match(config[0]!.content, /WeaklyTypedInput bool Mask rune \/\/ Mask hides what the user types\./);
    for (const id of ['config.weaklytypedinput', 'weaklytypedinput', 'config.mask', 'mask', 'config.size', 'size']) assert.ok(config[0]!.identifiers?.includes(id), id);
    assert.ok(!config[0]!.identifiers?.includes('config.hidden'));
    assert.ok(!drafts.some((d) => d.symbol?.startsWith('cache.Config.')));
  });

  it('names an example passage by its example function too', async () => {
    const drafts = await apiFromGoModule(parsers, {
      module: 'example.com/cache', locate: (file, where) => `${file}#${where.anchor ?? ''}`,
      files: new Map([['cache.go', source], ['cache_test.go', 'package cache_test\n\nfunc ExampleConfig_strict() {\n\tcache.Config{}\n}\n']]),
    });
    const example = drafts.find((d) => d.source === 'cache_test.go');
    assert.equal(example?.symbol, 'cache.Config');
    assert.ok(example?.identifiers?.includes('exampleconfig_strict'));
  });

  it('reads a grouped spec\'s own line comment as its doc when nothing is above it', async () => {
    const drafts = await extract();
    assert.match(drafts.find((d) => d.symbol === 'cache.StatusContinue')?.content ?? '', /RFC 9110, 15\.2\.1/);
    const none = drafts.find((d) => d.symbol === 'cache.StatusNone')?.content ?? '';
    assert.match(none, /has a doc above it/);
    assert.doesNotMatch(none, /line comment/);
    // Nothing above, nothing beside: not documented, no passage (as before).
    assert.ok(!drafts.some((d) => d.symbol === 'cache.StatusBare'));
  });
});

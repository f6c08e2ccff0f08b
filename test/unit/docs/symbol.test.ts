// Exact symbol lookup over a package's API passages as the extractors write them: the item's parts, package prefixes and
// separators, tails of a path, and near misses answered with the closest names (never nothing).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IndexedPassage } from '../../../src/docs/rank.ts';
import { editDistance, lookupSymbol, symbolSegments } from '../../../src/docs/symbol.ts';

let id = 0;
const api = (symbol: string, signature: string, doc: string, language = 'ts', extra: Partial<IndexedPassage> = {}): IndexedPassage => ({
  id: id++, url: `https://example.test/${symbol}`, title: symbol, headings: [symbol], content: `\`\`\`${language}\n${signature}\n\`\`\`\n\n${doc}`,
  source: 'src/lib.rs', identifiers: [], symbol, importance: 0.8, internal: false, ...extra,
});
const guide = (title: string, content: string): IndexedPassage => ({
  id: id++, url: `https://example.test/README.md#${title}`, title, headings: ['pkg', title], content, source: 'README.md', identifiers: [], symbol: null, importance: 1, internal: false,
});

const tokio = [
  api('tokio::time::timeout', 'pub fn timeout<F>(duration: Duration, future: F) -> Timeout<F>', 'Requires a `Future` to complete before the specified duration has elapsed.\n\n```rust\nlet res = timeout(Duration::from_millis(10), rx).await;\n```', 'rust'),
  api('tokio::time::Timeout', 'pub struct Timeout<T>', 'Future returned by `timeout`.', 'rust'),
  api('tokio::time::sleep', 'pub fn sleep(duration: Duration) -> Sleep', 'Waits until `duration` has elapsed.', 'rust'),
  api('tokio::net::TcpStream::set_linger', 'pub fn set_linger(&self, dur: Option<Duration>) -> io::Result<()>', 'Sets the linger duration.', 'rust'),
  api('tokio::spawn', 'pub fn spawn<F>(future: F) -> JoinHandle<F::Output>', 'Spawns a new asynchronous task.', 'rust'),
  guide('Timeouts', 'Cancel work that takes too long:\n\n```rust\nmatch tokio::time::timeout(Duration::from_secs(1), fetch()).await {\n    Ok(v) => v,\n    Err(_) => fallback(),\n}\n```'),
];

describe('symbolSegments', () => {
  it('splits on ::, ., # and /, drops a trailing () and a scope @', () => {
    assert.deepEqual(symbolSegments('tokio::time::timeout'), ['tokio', 'time', 'timeout']);
    assert.deepEqual(symbolSegments('requests.Session#mount()'), ['requests', 'Session', 'mount']);
    assert.deepEqual(symbolSegments('@scope/pkg.fn'), ['scope', 'pkg', 'fn']);
    assert.deepEqual(symbolSegments('anyhow::bail!'), ['anyhow', 'bail!']);
  });
});

describe('editDistance', () => {
  it('counts an adjacent transposition as one edit', () => {
    assert.equal(editDistance('debounce', 'debounce'), 0);
    assert.equal(editDistance('debuonce', 'debounce'), 1);
    assert.equal(editDistance('mont', 'mount'), 1);
    assert.equal(editDistance('', 'abc'), 3);
  });
});

describe('lookupSymbol', () => {
  it('answers the signature, documentation, examples (its own, then the guides that call it) and where it is defined', () => {
    const found = lookupSymbol(tokio, 'tokio::time::timeout', ['tokio']);
    assert.equal(found.found, true);
    assert.equal(found.exact, true);
    const item = found.item!;
    assert.equal(item.symbol, 'tokio::time::timeout');
    assert.equal(item.signature, 'pub fn timeout<F>(duration: Duration, future: F) -> Timeout<F>');
    assert.match(item.documentation, /^Requires a `Future` to complete/);
    assert.doesNotMatch(item.documentation, /```/, 'code blocks go to examples');
    assert.equal(item.examples.length, 2);
    assert.match(item.examples[0]!.code, /timeout\(Duration::from_millis\(10\), rx\)/);
    assert.equal(item.examples[0]!.url, 'https://example.test/tokio::time::timeout');
    assert.match(item.examples[1]!.code, /tokio::time::timeout\(Duration::from_secs\(1\)/);
    assert.equal(item.examples[1]!.url, 'https://example.test/README.md#Timeouts');
    assert.equal(item.source, 'src/lib.rs');
    assert.equal(item.url, 'https://example.test/tokio::time::timeout');
  });

  it('takes other separators, no package name, a tail of the path, and folds case last', () => {
    for (const asked of ['tokio.time.timeout', 'time::timeout', 'timeout', 'tokio#time#timeout']) {
      const found = lookupSymbol(tokio, asked, ['tokio']);
      assert.equal(found.item?.symbol, 'tokio::time::timeout', asked);
    }
    // Case as written first: `Timeout` is the struct, `timeout` the function.
    assert.equal(lookupSymbol(tokio, 'Timeout', ['tokio']).item?.symbol, 'tokio::time::Timeout');
    assert.equal(lookupSymbol(tokio, 'tokio::SPAWN', ['tokio']).item?.symbol, 'tokio::spawn');
    // A leading package name the index does not repeat (Go import paths, module paths) is dropped.
    const gorm = [api('gorm.DB.Where', 'func (db *DB) Where(query interface{}, args ...interface{}) (tx *DB)', 'Where adds conditions.', 'go')];
    assert.equal(lookupSymbol(gorm, 'gorm.io/gorm.DB.Where', ['gorm.io/gorm', 'gorm']).item?.symbol, 'gorm.DB.Where');
    assert.equal(lookupSymbol(gorm, 'DB.Where', ['gorm.io/gorm']).exact, true);
    // The short alias code imports a package as (`z`, `_`, `np`) is dropped too, but a misspelt parent is not.
    const zod = [api('zod.safeParse', 'export declare const safeParse: …', 'Parses without throwing.'), api('zod.parse', 'export declare const parse: …', 'Parses.')];
    assert.equal(lookupSymbol(zod, 'z.safeParse', ['zod']).item?.symbol, 'zod.safeParse');
    assert.equal(lookupSymbol(tokio, 'tokio::tiem::timeout', ['tokio']).found, false);
  });

  it('answers a near miss with the closest names, the name first and then its path', () => {
    const miss = lookupSymbol(tokio, 'tokio::time::timout', ['tokio']);
    assert.equal(miss.found, false);
    assert.equal(miss.item, undefined);
    assert.equal(miss.suggestions[0]!.symbol, 'tokio::time::timeout');
    assert.ok(miss.suggestions.length >= 3 && miss.suggestions.length <= 5);
    // Path-aware: asked under `time`, `sleep` in time ranks above a same-distance name elsewhere.
    assert.equal(lookupSymbol(tokio, 'tokio::time::slep', ['tokio']).suggestions[0]!.symbol, 'tokio::time::sleep');
    const requests = [
      api('requests.Session.mount', 'def mount(self, prefix, adapter)', 'Registers a connection adapter to a prefix.', 'python'),
      api('requests.Session.get', 'def get(self, url, **kwargs)', 'Sends a GET request.', 'python'),
      api('requests.adapters.HTTPAdapter.mount', 'def mount(self)', 'Not the one.', 'python'),
    ];
    assert.equal(lookupSymbol(requests, 'requests.Sesion.mount', ['requests']).suggestions[0]!.symbol, 'requests.Session.mount');
  });

  it('never answers an empty list for a package with docs: without API items, the nearest section titles', () => {
    const gem = [guide('Configuration', 'Set options.'), guide('Retrying requests', 'Retry with `retry: 3`.')];
    const miss = lookupSymbol(gem, 'Faraday::Retry', ['faraday']);
    assert.equal(miss.found, false);
    assert.ok(miss.suggestions.length > 0);
    assert.equal(miss.suggestions[0]!.symbol, 'Retrying requests');
    const garbage = lookupSymbol(tokio, 'zzzzqqqq', ['tokio']);
    assert.equal(garbage.found, false);
    assert.equal(garbage.suggestions.length, 5);
  });

  it('prefers public, current items when a tail names several, and lists the others', () => {
    const passages = [
      api('pkg.internal.parse', 'function parse(): void', 'Internal.', 'ts', { internal: true }),
      api('pkg.parse', 'function parse(s: string): Ast', 'Parses.', 'ts'),
    ];
    const found = lookupSymbol(passages, 'parse', ['pkg']);
    assert.equal(found.item?.symbol, 'pkg.parse');
    assert.deepEqual(found.suggestions.map((s) => s.symbol), ['pkg.internal.parse']);
  });
});

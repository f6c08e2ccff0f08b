// Round 11's declared ranking features (src/docs/rank.ts, src/docs/lexical.ts), read through RankOptions.observe: a
// member's owner's centrality; the question's share the text says beyond the
// passage's name; and the guide section that calls an item.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LexicalIndex } from '../../../src/docs/lexical.ts';
import { rankPassages, type FeatureRow, type IndexedPassage } from '../../../src/docs/rank.ts';

const item = (id: number, symbol: string, heading: string, content: string, extra: Partial<IndexedPassage> = {}): IndexedPassage => ({
  id, url: `u${id}`, title: heading, headings: ['url', heading], content, source: 'src/lib.rs', identifiers: [], symbol, importance: 0.7, internal: false, ...extra,
});
const passages: IndexedPassage[] = [
  item(0, 'url::Url', 'Url', '```rust\npub struct Url { serialization: String }\n```\n\nA parsed URL record.', { centrality: 0.9 }),
  item(1, 'url::Url::join', 'Url::join', '```rust\npub fn join(&self, input: &str) -> Result<Url, ParseError>\n```\n\nParse a string as an URL, with this URL as the base URL.'),
  item(2, 'url::Url::serialization', 'Url::serialization', '```rust\npub serialization: String\n```\n\nThe URL as a string, kept for speed.'),
  // An example passage of the method: not a declaration, it takes the method's verdict (callable).
  item(3, 'url::Url::join', 'Url::join example', 'Example of `Url::join`:\n\n```rust\nlet base = Url::parse("https://a.b/c/")?;\nbase.join("d")?;\n```'),
  item(4, 'url::Origin::join', 'Origin::join', '```rust\npub fn join(&self) -> String\n```\n\nJoin the origin into a string.'),
  item(5, 'url::Origin', 'Origin', '```rust\npub struct Origin\n```\n\nThe origin of an URL.', { centrality: 0.1 }),
  // A module's page (its trail starts at its own symbol): a function in it is no member of it.
  { ...item(6, 'url::form', 'url::form', 'Form helpers.'), headings: ['url::form'] },
  item(7, 'url::form::join', 'join', '```rust\npub fn join(parts: &[&str]) -> String\n```\n\nJoin form parts.'),
  { ...item(8, '', 'Relative links', 'To resolve a relative link against a base URL, join it:\n\n```rust\nlet url = base.join("../x")?;\n```'), symbol: null, headings: ['Relative links'], source: 'README.md' },
  // TypeScript members: a method (name then parameters) and a property.
  { ...item(9, 'lib.Client', 'Client', '```ts\ninterface Client\n```\n\nA client.', { centrality: 0.4 }), source: 'index.d.ts' },
  { ...item(10, 'lib.Client.send', 'Client.send', '```ts\nsend(request: Request): Promise<Response>\n```\n\nSends the request.'), source: 'index.d.ts' },
  { ...item(11, 'lib.Client.timeout', 'Client.timeout', '```ts\ntimeout?: number\n```\n\nMilliseconds before the request is aborted.'), source: 'index.d.ts' },
];
const lexical = new LexicalIndex(passages.map((p) => ({
  title: `${p.title ?? ''} ${p.symbol ?? ''}`, trail: p.headings.slice(0, -1).join(' '), body: p.content, name: p.symbol ? p.symbol.split(/::|\./).pop()! : p.title ?? '',
})));
const links = (doc: number) => (doc === 8 ? [1] : []);

function rows(question: string): Map<number, FeatureRow> {
  let seen: FeatureRow[] = [];
  rankPassages(passages, lexical, question, { limit: 5, identifiers: [], uses: links, observe: (pool) => { seen = pool.rows; } });
  return new Map(seen.map((r) => [r.doc, r]));
}

describe('round-11 ranking features', () => {
  it('gives a member of a documented type its owner\'s centrality, and nothing else', () => {
    const r = rows('join url string base request timeout client origin form serialization');
    const f = (doc: number) => r.get(doc)!.features;
    assert.equal(f(1).ownerCentrality, 0.9); // url::Url::join, a method of url::Url
    assert.equal(f(2).ownerCentrality, 0.9); // a field of it
    assert.equal(f(3).ownerCentrality, 0.9); // the method's example passage
    assert.equal(f(4).ownerCentrality, 0.1); // url::Origin::join
    assert.equal(f(0).ownerCentrality, 0); // the type itself
    assert.equal(f(7).ownerCentrality, 0); // a function of a module page: a module page owns no members
    assert.equal(f(8).ownerCentrality, 0); // a guide section
    assert.equal(f(10).ownerCentrality, 0.4); // TypeScript members
    assert.equal(f(11).ownerCentrality, 0.4);
    // Pruned in round 12, their code deleted in round 13: no longer features.
    for (const gone of ['member', 'field', 'moduleDoc']) assert.equal(gone in f(1), false, gone);
  });

  it('counts the question\'s words the text says beyond the passage\'s title and symbol', () => {
    const r = rows('join a relative link against a base url');
    // Url::join's name holds "join" and "url": only "base" is text beyond its name. The guide section's title holds
    // "relative" and "links": its text says join, link (as "link"), against, base, url.
    const text = (doc: number) => r.get(doc)!.features.textCoverage;
    const body = (doc: number) => r.get(doc)!.features.bodyCoverage;
    assert.ok(text(1) > 0 && text(1) < body(1));
    assert.ok(text(8) > text(1));
    assert.ok(text(8) < body(8)); // "relative" is in its title
  });

  it('gives the item a well-matching guide section calls that section\'s body coverage', () => {
    const r = rows('resolve a relative link against a base url');
    assert.equal(r.get(1)!.features.guideCalled, r.get(8)!.features.bodyCoverage);
    assert.ok(r.get(1)!.features.guideCalled > 0);
    assert.equal(r.get(4)?.features.guideCalled ?? 0, 0);
    assert.equal(r.get(8)!.features.guideCalled, 0); // a section is not called
  });
});

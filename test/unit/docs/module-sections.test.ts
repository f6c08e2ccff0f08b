// A module's doc is a page of sections: rustdoc's `# Features` / "For `log` Users" in a crate's `//!` doc, and Go's
// `# Heading` sections of a package doc are each a passage, and ranking keeps them apart (one per section, as for a
// guide), while an item's chunks still count once. A package with nothing else to index still gets its metadata.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { metadataPassage, passagesFromArtifact } from '../../../src/docs/documents.ts';
import { apiFromGoModule } from '../../../src/docs/extract/golang.ts';
import { apiFromRustCrate } from '../../../src/docs/extract/rust.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';
import { LexicalIndex } from '../../../src/docs/lexical.ts';
import { rankPassages, type IndexedPassage } from '../../../src/docs/rank.ts';
import type { Artifact } from '../../../src/docs/sources/types.ts';

const locate = (file: string, where: { line?: number; anchor?: string }) => `${file}#${where.anchor ?? where.line ?? ''}`;
const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('module docs as sections', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['rust', 'go']); });

  it('Rust: a crate doc\'s first `# Heading` is a section of the crate, not its title (tracing)', async () => {
    const passages = await apiFromRustCrate(parsers, { crate: 'tracing', locate, files: files({
      'src/lib.rs': '//! A scoped, structured logging and diagnostics system.\n//!\n//! Spans and events record what a program does.\n//!\n'
        + '//! # For `log` Users\n//!\n//! Users of the log crate can migrate: the `info!` and `warn!` macros have the same names in tracing.\n//!\n'
        + '//! # Crate Feature Flags\n//!\n//! The following crate feature flags are available to turn optional behaviour on.\n\n'
        + '/// Constructs an event at the info level.\n#[macro_export]\nmacro_rules! info { () => {} }\n',
    }) });
    const crateDoc = passages.filter((p) => p.symbol === 'tracing');
    assert.deepEqual(crateDoc.map((p) => p.headings), [['tracing'], ['tracing', 'For `log` Users'], ['tracing', 'Crate Feature Flags']]);
    assert.equal(crateDoc[1]!.title, 'For `log` Users');
  });

  it('Go: a package doc\'s `# Heading` sections are passages of the package, with pkg.go.dev anchors', async () => {
    const passages = await apiFromGoModule(parsers, { module: 'example.com/rate', locate, files: files({
      'doc.go': '// Package rate provides a rate limiter.\n//\n// It implements a token bucket of size b, refilled at rate r tokens per second.\n//\n'
        + '// # Choosing a method\n//\n// Use Allow to drop events over the limit, Wait to block until one is allowed.\npackage rate\n',
      'rate.go': 'package rate\n\n// Allow reports whether an event may happen now.\nfunc Allow() bool { return true }\n',
    }) });
    const pkg = passages.filter((p) => p.symbol === 'example.com/rate');
    assert.deepEqual(pkg.map((p) => p.headings), [['example.com/rate'], ['example.com/rate', 'Choosing a method']]);
    assert.equal(pkg[0]!.title, 'example.com/rate');
    assert.equal(pkg[1]!.url, 'doc.go#hdr-Choosing_a_method');
    assert.ok(passages.some((p) => p.symbol === 'rate.Allow'));
  });

  it('Go: a package doc written before `# Heading` splits at go/doc\'s old-style headings, and only at them', async () => {
    const passages = await apiFromGoModule(parsers, { module: 'example.com/ws', locate, files: files({
      'doc.go': '// Package ws implements the WebSocket protocol.\n//\n// Overview\n//\n// The Conn type represents a connection. Call Upgrade.\n//\n'
        + '//\tconn, err := upgrader.Upgrade(w, r, nil)\n//\n// Origin Considerations\n//\n// Web browsers allow pages to open connections to any origin.\n//\n'
        + '// Compression EXPERIMENTAL\n//\n// Per message compression is supported.\n//\n// This is a sentence.\n//\n// A line ending in a colon:\n//\n// Still the compression section, version 1.2 of it.\npackage ws\n',
    }) });
    const pkg = passages.filter((p) => p.symbol === 'example.com/ws');
    assert.deepEqual(pkg.map((p) => p.headings[1] ?? ''), ['', 'Overview', 'Origin Considerations', 'Compression EXPERIMENTAL']);
    assert.equal(pkg[2]!.url, 'doc.go#hdr-Origin_Considerations');
    assert.match(pkg[3]!.content, /This is a sentence\.[\s\S]*A line ending in a colon:[\s\S]*version 1\.2/);
    assert.match(pkg[1]!.content, /```go\nconn, err := upgrader\.Upgrade/);
  });

  it('ranking keeps a module\'s sections apart but an item\'s chunks together', () => {
    const passage = (id: number, symbol: string, headings: string[], content: string): IndexedPassage => ({
      id, url: `u${id}`, title: headings[headings.length - 1]!, headings, content, source: 'src/lib.rs', identifiers: [], symbol, importance: 0.8, internal: false,
    });
    const passages = [
      passage(0, 'once_cell', ['once_cell'], 'Single assignment cells and lazy values, sync and unsync.'),
      passage(1, 'once_cell', ['once_cell', 'Should I use the sync or unsync flavor?'], 'The sync flavor is thread safe; the unsync flavor is not.'),
      passage(2, 'once_cell::sync::Lazy', ['once_cell::sync', 'Lazy'], 'A value which is initialized on the first access, sync flavor.'),
      passage(3, 'once_cell::sync::Lazy', ['once_cell::sync', 'Lazy'], 'Second chunk of Lazy: the sync flavor again.'),
    ];
    const lexical = new LexicalIndex(passages.map((p) => ({ title: p.title ?? '', trail: p.headings.join(' '), body: p.content, name: p.symbol!.split('::').pop()! })));
    const ranked = rankPassages(passages, lexical, 'sync or unsync flavor', { limit: 5, identifiers: [] }).map((p) => p.doc);
    assert.ok(ranked.includes(0) && ranked.includes(1), 'both sections of the crate doc are answers');
    assert.equal(ranked.filter((d) => d === 2 || d === 3).length, 1, 'one chunk of Lazy');
  });

  it('a package with no README, guide or documented item gets its metadata passage (thiserror-impl)', async () => {
    const artifact: Artifact = {
      files: [{ path: 'Cargo.toml', bytes: new TextEncoder().encode('[package]\nname = "thiserror-impl"\n') }, { path: 'src/lib.rs', bytes: new TextEncoder().encode('#[proc_macro_derive(Error)]\npub fn derive_error(input: TokenStream) -> TokenStream { todo!() }\n') }],
      facts: { description: 'Implementation detail of the `thiserror` crate', license: 'MIT OR Apache-2.0', repository: 'https://github.com/dtolnay/thiserror', entryPoints: ['thiserror_impl'], typesIncluded: null, requirements: {}, importName: 'thiserror_impl' },
      fileUrl: (path) => `https://docs.rs/crate/thiserror-impl/2.0.0/source/${path}`, skipped: 0,
    };
    const { passages } = await passagesFromArtifact(artifact, { ecosystem: 'crates', name: 'thiserror-impl', version: '2.0.0' });
    assert.equal(passages.length, 1);
    assert.match(passages[0]!.content, /^Implementation detail of the `thiserror` crate/);
    assert.match(passages[0]!.content, /Repository: https:\/\/github.com\/dtolnay\/thiserror/);
    assert.equal(passages[0]!.source, 'Cargo.toml');
    assert.equal(passages[0]!.url, 'https://docs.rs/crate/thiserror-impl/2.0.0/source/Cargo.toml');
    // Not added when there is anything else to index.
    const withReadme = { ...artifact, files: [...artifact.files, { path: 'README.md', bytes: new TextEncoder().encode('# thiserror-impl\n\nDerive macro behind thiserror: use thiserror instead.\n') }] };
    const { passages: readme } = await passagesFromArtifact(withReadme, { ecosystem: 'crates', name: 'thiserror-impl', version: '2.0.0' });
    assert.ok(readme.every((p) => p.source !== 'Cargo.toml'));
    assert.equal(metadataPassage({ ...artifact, facts: { ...artifact.facts, description: undefined } }, { ecosystem: 'crates', name: 'x' })[0]!.content.split('\n')[0], 'x publishes no description, README or documented API in this version.');
  });
});

describe('evidence from the guides (WEIGHTS.guideUse)', () => {
  it('lifts the item a top guide section uses in its code, and only with the weight on', async () => {
    const { WEIGHTS } = await import('../../../src/docs/rank.ts');
    const passage = (id: number, symbol: string | null, title: string, content: string): IndexedPassage => ({
      id, url: `u${id}`, title, headings: [title], content, source: symbol ? 'src/lib.py' : 'README.md', identifiers: [], symbol, importance: 0.8, internal: false,
    });
    const passages = [
      passage(0, null, 'Stopping', 'Give up retrying after ten seconds in total:\n\n```python\n@retry(stop=stop_after_delay(10))\n```'),
      passage(1, 'tenacity.stop_after_attempt', 'stop_after_attempt', 'Stop retrying after a number of attempts; give up after ten tries.'),
      passage(2, 'tenacity.stop_after_delay', 'stop_after_delay', 'Stop when the time from the first attempt >= limit.'),
    ];
    const lexical = new LexicalIndex(passages.map((p) => ({ title: p.title ?? '', trail: '', body: p.content, name: p.symbol?.split('.').pop() ?? p.title ?? '' })));
    const uses = (doc: number) => (doc === 0 ? [2] : []);
    const rank = () => rankPassages(passages, lexical, 'give up retrying after ten seconds', { limit: 3, identifiers: [], uses }).map((p) => p.doc);
    const weight = WEIGHTS.guideUse;
    try {
      WEIGHTS.guideUse = 0;
      const without = rank();
      WEIGHTS.guideUse = 1;
      const withEvidence = rank();
      assert.ok(withEvidence.indexOf(2) < without.indexOf(2), `stop_after_delay moves up: ${without} → ${withEvidence}`);
    } finally {
      WEIGHTS.guideUse = weight;
    }
  });
});

// A Rust type whose body is too long to stand in its signature lost the docs of its variants and fields; rustdoc shows
// each under the type (`#variant.Io`), so each documented variant and `pub` field is a member passage now.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromRustCrate } from '../../../src/docs/extract/rust.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';

const locate = (file: string, where: { line?: number; anchor?: string }) => `${file}#${where.anchor ?? where.line ?? ''}`;
const files = (entries: Record<string, string>) => new Map(Object.entries(entries));
const filler = 'x'.repeat(400);

const lib = `//! Crate docs.

/// The errors this crate returns.
pub enum Error {
    /// Reading or writing the underlying file failed.
    Io(std::io::Error),
    /// The configuration named a key twice: ${filler}
    DuplicateKey { key: String, line: usize },
    Undocumented,
    /// Hidden from the docs.
    #[doc(hidden)]
    Internal,
}

/// Settings for a connection.
pub struct Config {
    /// How long to wait for the server before giving up, ${filler}
    pub timeout: std::time::Duration,
    /// A private field is not API.
    retries: u32,
}

/// A short enum keeps its body, variant docs included, in its own passage.
pub enum Mode {
    /// Read only.
    Read,
    /// Read and write.
    Write,
}
`;

describe('Rust variants and fields of a long type', () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['rust']); });
  const extract = () => apiFromRustCrate(parsers, { crate: 'conf', locate, files: files({ 'src/lib.rs': lib }) });

  it('makes each documented variant and pub field a member passage', async () => {
    const passages = await extract();
    const io = passages.find((p) => p.symbol === 'conf::Error::Io');
    assert.ok(io, 'variant Io extracted');
    assert.match(io.content, /Io\(std::io::Error\)/);
    assert.match(io.content, /Reading or writing the underlying file failed/);
    assert.match(passages.find((p) => p.symbol === 'conf::Error::DuplicateKey')?.content ?? '', /DuplicateKey \{ key: String, line: usize \}/);
    const timeout = passages.find((p) => p.symbol === 'conf::Config::timeout');
    assert.ok(timeout, 'pub field extracted');
    assert.match(timeout.content, /How long to wait for the server/);
    // The type's own passage is still there, its body cut from its signature.
    assert.ok(passages.some((p) => p.symbol === 'conf::Error' && /The errors this crate returns/.test(p.content)));
  });

  it('leaves out undocumented and hidden variants, private fields, and the members of a short type', async () => {
    const symbols = (await extract()).map((p) => p.symbol);
    for (const absent of ['conf::Error::Undocumented', 'conf::Error::Internal', 'conf::Config::retries', 'conf::Mode::Read']) {
      assert.ok(!symbols.includes(absent), `${absent} is not a passage`);
    }
    assert.ok(symbols.includes('conf::Mode'));
  });
});

// Another crate's item macro invoked with parentheses (RustCrypto's `digest::buffer_fixed!( /// doc pub struct Md5(…);
// oid: …; )`) holds a documented public item that rustdoc shows; its token tree is read as items, as braces were.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { apiFromRustCrate } from '../../../src/docs/extract/rust.ts';
import { loadParsers, type Parsers } from '../../../src/docs/extract/treesitter.ts';

const locate = (file: string, where: { line?: number; anchor?: string }) => `${file}#${where.anchor ?? where.line ?? ''}`;

const lib = `//! Crate docs.
pub use digest::{self, Digest};

digest::buffer_fixed!(
    /// MD5 hasher state.
    pub struct Md5(block_api::Md5Core);
    oid: "1.2.840.113549.2.5";
    impl: FixedHashTraits;
);

other::helper!(
    /// A private item stays out.
    struct Hidden(u8);
);

impl_ops!(u8, u16, u32);
`;

describe("Rust items inside another crate's macro call", () => {
  let parsers: Parsers;
  before(async () => { parsers = await loadParsers(['rust']); });

  it('indexes a documented pub item inside parentheses, and nothing from arguments that are not items', async () => {
    const drafts = await apiFromRustCrate(parsers, { crate: 'md5', files: new Map([['src/lib.rs', lib]]), locate });
    const md5 = drafts.find((d) => d.symbol === 'md5::Md5');
    assert.ok(md5, 'md5::Md5 is a passage');
    assert.match(md5.content, /pub struct Md5\(block_api::Md5Core\);/);
    assert.match(md5.content, /MD5 hasher state\./);
    const symbols = drafts.map((d) => d.symbol).filter(Boolean);
    assert.ok(!symbols.some((s) => /Hidden|u16|oid/.test(s!)), symbols.join(', '));
  });
});

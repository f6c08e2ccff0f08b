// Rust builds in the sandbox write no debug information: cargo's dev profile writes full DWARF for every crate by
// default, most of a target folder's bytes, and heavy dependency graphs ran out of the build's disk. No package is
// fetched: the program reads its own executable's ELF section headers and prints the names of its debug sections.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.ts';
import { file, postTest, startSandboxServer } from './helpers.ts';

/** Lists the `.debug_*` sections of the running executable (ELF64, little-endian), one per line, then `sections: N`. */
const SECTIONS = `use std::convert::TryInto;
fn u16_at(b: &[u8], at: usize) -> usize { u16::from_le_bytes(b[at..at + 2].try_into().unwrap()) as usize }
fn u32_at(b: &[u8], at: usize) -> usize { u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize }
fn u64_at(b: &[u8], at: usize) -> usize { u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize }
fn main() {
    let b = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    let (shoff, shentsize, shnum, shstrndx) = (u64_at(&b, 0x28), u16_at(&b, 0x3a), u16_at(&b, 0x3c), u16_at(&b, 0x3e));
    let strtab = u64_at(&b, shoff + shstrndx * shentsize + 0x18);
    for i in 0..shnum {
        let name_at = strtab + u32_at(&b, shoff + i * shentsize);
        let end = b[name_at..].iter().position(|&c| c == 0).unwrap();
        let name = std::str::from_utf8(&b[name_at..name_at + end]).unwrap();
        if name.starts_with(".debug_") && name != ".debug_gdb_scripts" { println!("{}", name); }
    }
    println!("sections: {}", shnum);
}
`;

describe('rust builds without debug information', () => {
  let server: TestServer;
  before(async () => {
    server = await startSandboxServer();
  });
  after(() => server.close());

  it('the built executable has no .debug_* sections (cargo dev profile debug = 0 in the build\'s environment)', { timeout: 300_000 }, async () => {
    const reply = await postTest(server, { language: 'rust', runtime: 'rust', timeoutMs: 20_000, files: [file('src/main.rs', SECTIONS)], entry: 'src/main.rs' });
    assert.equal(reply.body.status, 'ran', reply.text.slice(0, 2000));
    // The parser found the section table (else the assertion below would pass on nothing).
    assert.match(reply.body.stdout, /^sections: [1-9]\d*\n$/m);
    assert.deepEqual(reply.body.stdout.split('\n').filter((line: string) => line.startsWith('.debug_')), []);
  });
});

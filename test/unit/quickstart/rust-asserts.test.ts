// Rust examples written as checks print what they check, and examples that only define the function doing the work
// call it. The examples are the real doctests and README blocks of spent fresh packages (float-cmp, typed-arena,
// xxhash-rust, ed25519-dalek, tempdir), which ran silent before; a std-only program is compiled and run with rustc.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rustProgram } from '../../../src/quickstart/programs/rust.ts';

const crate = (name: string) => ({ name, importName: name.replace(/-/g, '_'), version: '1.0.0', deps: {}, features: [] });

describe('rust checks print what they check', () => {
  it('assert! prints its condition, a macro or method call as it is (float-cmp)', async () => {
    const doc = [
      '  # #[macro_use]', '  # extern crate float_cmp;', '  # use float_cmp::{ApproxEq, F32Margin};', '  # fn main() {',
      '  # let a: f32 = 0.15 + 0.15 + 0.15;', '  # let b: f32 = 0.1 + 0.1 + 0.25;',
      '    assert!( approx_eq!(f32, a, b, ulps = 2) );', '    assert!( a.approx_eq(b, (0.0, 2)), "close enough" );', '  # }',
    ].join('\n');
    const made = await rustProgram(doc, 'doctest', crate('float-cmp'));
    assert.match(made.main, /\n\s*println!\("\{:\?\}", approx_eq!\(f32, a, b, ulps = 2\)\);\n/);
    assert.match(made.main, /\n\s*println!\("\{:\?\}", a\.approx_eq\(b, \(0\.0, 2\)\)\);\n/, 'the message argument goes with the check');
    assert.doesNotMatch(made.main, /assert!/);
  });

  it('a comparison prints its computed side, a negation the value under it (typed-arena, xxhash-rust)', async () => {
    const arena = await rustProgram('use typed_arena::Arena;\n\nstruct Monster {\n    level: u32,\n}\n\nlet monsters = Arena::new();\n\nlet goku = monsters.alloc(Monster { level: 9001 });\nassert!(goku.level > 9000);',
      'readme', crate('typed-arena'));
    assert.match(arena.main, /\n {4}println!\("\{:\?\}", goku\.level\);\n\}\n$/);
    const xxh = await rustProgram('use xxhash_rust::xxh3::xxh3_64;\n\nconst TEST: u64 = 7;\n\nfn test_input(text: &str) -> bool {\n    xxh3_64(text.as_bytes()) == TEST\n}\n\nassert!(!test_input("tEST"));\nassert!(TEST != xxh3_64(b"x"));',
      'readme', crate('xxhash-rust'));
    assert.match(xxh.main, /println!\("\{:\?\}", test_input\("tEST"\)\);/);
    assert.match(xxh.main, /println!\("\{:\?\}", xxh3_64\(b"x"\)\);/, 'the operand that calls, not the constant');
    assert.match(xxh.main, /xxh3_64\(text\.as_bytes\(\)\) == TEST/, 'a comparison that is no check stays');
  });

  it('prints the checks of the function the hidden main calls (ed25519-dalek)', async () => {
    const doc = [
      '# extern crate ed25519_dalek;', 'use ed25519_dalek::SigningKey;', 'use ed25519_dalek::SignatureError;', '',
      '# fn doctest() -> Result<SigningKey, SignatureError> {', 'let bytes: [u8; 32] = [7; 32];',
      'let signing_key: SigningKey = SigningKey::from_bytes(&bytes);', 'assert_eq!(signing_key.to_bytes(), bytes);', '',
      '# Ok(signing_key)', '# }', '#', '# fn main() {', '#     let result = doctest();', '#     assert!(result.is_ok());', '# }',
    ].join('\n');
    const made = await rustProgram(doc, 'doctest', crate('ed25519-dalek'));
    assert.match(made.main, /match \(&\(signing_key\.to_bytes\(\)\), &\(bytes\)\) \{ \(left, right\) => \{ println!\("\{:\?\}", left\); assert_eq!\(left, right\); \} \}/);
    assert.match(made.main, /let result = doctest\(\);\n\s*println!\("\{:\?\}", result\.is_ok\(\)\);/);
  });

  it('leaves a #[test] function\'s checks, and an example that prints its own results, as they are', async () => {
    const tested = await rustProgram('fn main() { let x = demo::f(); }\n\n#[test]\nfn works() {\n    assert_eq!(demo::f(), 2);\n}', 'doctest', crate('demo'));
    assert.match(tested.main, /\n {4}assert_eq!\(demo::f\(\), 2\);\n/);
    const printing = await rustProgram('let x = demo::f();\nprintln!("{x}");\nassert!(x > 1);', 'readme', crate('demo'));
    assert.match(printing.main, /assert!\(x > 1\);/);
  });
});

describe('rust examples that only define the function doing the work', () => {
  it('call it, printing or not (tempdir\'s README and doctest)', async () => {
    const readme = [
      'use std::io::{self, Write};', 'use std::fs::File;', 'use tempdir::TempDir;', '',
      'fn write_temp_folder_with_files() -> io::Result<()> {', '    let dir = TempDir::new("my_directory_prefix")?;',
      '    let file_path = dir.path().join("foo.txt");', '    println!("{:?}", file_path);', '    Ok(())', '}',
    ].join('\n');
    const made = await rustProgram(readme, 'readme', crate('tempdir'));
    assert.match(made.main, /\n {4}\}\n {4}println!\("\{:\?\}", write_temp_folder_with_files\(\)\);\n\}\n$/);
    const doc = [
      'use tempdir::TempDir;', '', '# use std::io;', '# fn run() -> Result<(), io::Error> {', 'let tmp_path;', '{',
      '   let tmp_dir = TempDir::new("example")?;', '   tmp_path = tmp_dir.path().to_owned();', '   assert!(tmp_path.exists());', '}',
      'assert_eq!(tmp_path.exists(), false);', '# Ok(())', '# }',
    ].join('\n');
    const run = await rustProgram(doc, 'doctest', crate('tempdir'));
    assert.match(run.main, /println!\("\{:\?\}", tmp_path\.exists\(\)\);/, 'the called function\'s checks print too');
    assert.match(run.main, /println!\("\{:\?\}", left\); assert_eq!\(left, right\);/);
    assert.match(run.main, /\n {4}println!\("\{:\?\}", run\(\)\);\n\}\n$/);
  });

  it('the program compiles and prints the checked values (std only, with rustc)', async (t) => {
    try { execFileSync('rustc', ['--version'], { stdio: 'ignore' }); } catch { t.skip('no rustc here'); return; }
    const made = await rustProgram([
      'use std::collections::HashMap;', '', 'fn count() -> Result<(), String> {', '    let mut m = HashMap::new();',
      '    m.insert("a", 1);', '    assert_eq!(m.get("a"), Some(&1));', '    assert!(m.len() >= 1);', '    assert!(!m.is_empty());', '    Ok(())', '}',
    ].join('\n'), 'readme', crate('demo'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rust-asserts-'));
    try {
      fs.writeFileSync(path.join(dir, 'main.rs'), made.main);
      execFileSync('rustc', ['--edition', '2021', '-o', path.join(dir, 'main'), path.join(dir, 'main.rs')], { stdio: 'pipe' });
      assert.equal(execFileSync(path.join(dir, 'main'), { encoding: 'utf8' }), 'Some(1)\n1\nfalse\nOk(())\n');
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  });
});

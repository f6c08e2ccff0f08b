// Rust examples that print nothing and check nothing show the values they compute (programs/rust-bindings.ts). The
// doctest is tempdir 0.3.7's `TempDir::new` example (src/lib.rs#141, spent set r15: all 7 of its examples ran silent
// or printed only `Ok(())`); a std-only program is compiled and run with rustc, a binding of a type with no Debug impl
// among them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rustProgram } from '../../../src/quickstart/programs/rust.ts';
import { programUsesPackage } from '../../../src/quickstart/package-use.ts';

const crate = (name: string) => ({ name, importName: name.replace(/-/g, '_'), version: '1.0.0', deps: {}, features: [] });
/** A program's stdout, compiled with rustc (edition 2021) in a scratch folder removed afterwards. */
function compileAndRun(main: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rust-bindings-'));
  try {
    fs.writeFileSync(path.join(dir, 'main.rs'), main);
    execFileSync('rustc', ['--edition', '2021', '-o', path.join(dir, 'main'), path.join(dir, 'main.rs')], { stdio: 'pipe' });
    return execFileSync(path.join(dir, 'main'), { encoding: 'utf8' });
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
}
const shows = (name: string) => new RegExp(`\\(&crate::__tooldex::Show\\(&${name}\\)\\)\\.tooldex_shown\\(\\) \\{ println!\\("${name} = \\{\\}", shown\\); \\}`);

describe('rust examples that print and check nothing show what they bind', () => {
  it('shows each computed binding of the function the doctest defines, right after its let (tempdir)', async () => {
    const doc = [
      'use std::fs::File;', 'use std::io::Write;', 'use tempdir::TempDir;', '', '# use std::io;', '# fn run() -> Result<(), io::Error> {',
      '// Create a directory inside of `std::env::temp_dir()`, named with', '// the prefix, "example".',
      'let tmp_dir = TempDir::new("example")?;', 'let file_path = tmp_dir.path().join("my-temporary-note.txt");',
      'let mut tmp_file = File::create(file_path)?;', 'writeln!(tmp_file, "Brian was here. Briefly.")?;', '',
      '// `tmp_dir` goes out of scope, the directory as well as', '// `tmp_file` will be deleted here.', '# Ok(())', '# }',
    ].join('\n');
    const made = await rustProgram(doc, 'doctest', crate('tempdir'));
    for (const name of ['tmp_dir', 'file_path', 'tmp_file']) assert.match(made.main, shows(name));
    // Before `File::create(file_path)` moves it: the show sits on the let's own line.
    assert.match(made.main, /let file_path = tmp_dir\.path\(\)\.join\("my-temporary-note\.txt"\); \{ #\[allow\(unused_imports\)\]/);
    assert.match(made.main, /\nmod __tooldex \{\n/, 'the helper at the crate root');
    const use = await programUsesPackage(made.main, { ecosystem: 'crates', name: 'tempdir', importName: 'tempdir' } as never);
    assert.equal(use.uses, true);
  });

  it('a doctest of plain statements shows its values to the package-use check, which counts them', async () => {
    const made = await rustProgram('use tempdir::TempDir;\nlet tmp_dir = TempDir::new("example").unwrap();\nlet name = "note.txt";\nlet path = tmp_dir.path().join(name);\nstd::fs::write(&path, "x").unwrap();', 'readme', crate('tempdir'));
    assert.match(made.main, shows('tmp_dir'));
    assert.match(made.main, shows('path'));
    assert.doesNotMatch(made.main, /Show\(&name\)/, 'a literal is the example\'s input, not its result');
    const use = await programUsesPackage(made.main, { ecosystem: 'crates', name: 'tempdir', importName: 'tempdir' } as never);
    assert.deepEqual([use.uses, use.why], [true, 'prints a value from the package (println)']);
  });

  it('leaves examples that print or check, and #[test] functions, as they are', async () => {
    const printing = await rustProgram('let x = demo::f();\nprintln!("{x}");', 'readme', crate('demo'));
    const checking = await rustProgram('let x = demo::f();\nassert!(x > 1);', 'readme', crate('demo'));
    const tested = await rustProgram('fn main() { demo::g(); }\n\n#[test]\nfn works() {\n    let y = demo::f();\n}', 'doctest', crate('demo'));
    for (const made of [printing, checking, tested]) assert.doesNotMatch(made.main, /__tooldex/);
  });

  it('the program compiles and prints the bindings whose type has Debug, and nothing for one without (rustc)', async (t) => {
    try { execFileSync('rustc', ['--version'], { stdio: 'ignore' }); } catch { t.skip('no rustc here'); return; }
    const made = await rustProgram([
      'struct Opaque(u8);', 'fn make() -> Opaque { Opaque(1) }', 'let words: Vec<&str> = "a b".split(\' \').collect();',
      'let opaque = make();', 'let n = 3;', 'let joined = words.join("+");', 'drop(words);', 'let _ = opaque.0 + n;',
      'for i in 0..2 { let twice = i * 2; drop(twice); }',
    ].join('\n'), 'readme', crate('demo'));
    assert.equal(compileAndRun(made.main), 'words = ["a", "b"]\njoined = "a+b"\n');
  });

  // rustls-native-certs 0.8.5's doctest (round 18's fresh run) fills `let mut roots = RootCertStore::empty()` in a loop:
  // shown right after its let it printed an empty store, and the package-use check refused the program.
  it('a let mut value is shown after the statements that fill it, and before a let that may move it (rustc)', async (t) => {
    const made = await rustProgram([
      'let mut seen = std::collections::BTreeSet::new();', 'for w in "b a b".split(\' \') {', '    seen.insert(w.to_string());', '}',
      'let mut parts = Vec::new();', 'parts.push(String::from("x"));', 'let joined = parts.concat();', 'drop(joined);',
    ].join('\n'), 'readme', crate('demo'));
    // After the loop that fills it; before the let that consumes the other (a show after `parts.concat()` is fine too,
    // but one after a move would not compile, so a let that uses it always goes after the show).
    assert.match(made.main, /seen\.insert\(w\.to_string\(\)\);\n\s*\} \{ #\[allow\(unused_imports\)\][^\n]*Show\(&seen\)/);
    assert.match(made.main, /Show\(&parts\)[^\n]*\} let joined = parts\.concat\(\);/);
    try { execFileSync('rustc', ['--version'], { stdio: 'ignore' }); } catch { t.skip('no rustc here'); return; }
    assert.equal(compileAndRun(made.main), 'seen = {"a", "b"}\nparts = ["x"]\njoined = "x"\n');
  });
});

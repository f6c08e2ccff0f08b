// Rust quickstart rules over real tree-sitter parses: examples that only define things get the lines that exercise and
// print them; crates without examples get programs written from their public API; proc-macro crates are said so.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rustProgram } from '../../../src/quickstart/programs/rust.ts';

const crate = { name: 'demo', importName: 'demo', version: '1.0.0', deps: {}, features: [] };

describe('rust examples that only define things', () => {
  it('construct a derived error type from plain values and print it with {} (a variant with plain fields first)', async () => {
    const made = await rustProgram([
      '# use std::io;', 'use thiserror::Error;', '', '#[derive(Error, Debug)]', 'pub enum StoreError {', '    #[error("disconnected")]',
      '    Disconnect(#[from] io::Error),', '    #[error("the data for key `{0}` is not available")]', '    Redaction(String),', '    #[error("unknown")]', '    Unknown,', '}',
    ].join('\n'), 'doctest', crate);
    assert.match(made.main, /^fn main\(\) \{\n {4}use std::io;/);
    assert.match(made.main, /\n {4}println!\("\{\}", StoreError::Redaction\(String::from\("example"\)\)\);\n\}\n$/);
    const debug = await rustProgram('#[derive(Debug)]\nstruct Point { x: i32, label: String }\n#[derive(Debug)]\nstruct Opaque(Box<dyn Fn()>);', 'doctest', crate);
    assert.match(debug.main, /println!\("\{:\?\}", Point \{ x: 2, label: String::from\("example"\) \}\);/);
    assert.doesNotMatch(debug.main, /println!\([^)]*Opaque/, 'a field that needs more than a plain value is not guessed');
  });

  it('fill a rustdoc `fn main() {}` stub with calls of what the example defines, functions inside a macro\'s input included', async () => {
    const made = await rustProgram([
      'demo::pick! {', '    if #[cfg(unix)] {', '        fn foo() { /* unix specific functionality */ }', '    } else {', '        fn foo() { /* fallback */ }', '    }', '}', '', '# fn main() {}',
    ].join('\n'), 'doctest', crate);
    assert.match(made.main, /fn foo\(\) \{ println!\("\{\}", "unix specific functionality"\); \}/, 'a body left to the reader prints its comment');
    assert.match(made.main, /fn main\(\) \{\n {4}foo\(\);\n\}/, 'called once, however many branches define it');
    const withMain = await rustProgram('fn foo() {\n    // does the work\n}\n\nfn main() {\n    foo();\n}', 'readme', crate);
    assert.match(withMain.main, /fn foo\(\) \{ println!\("\{\}", "does the work"\); \}\n\nfn main\(\) \{\n {4}foo\(\);\n\}/);
    const real = await rustProgram('fn area() -> u32 {\n    demo::square(3)\n}', 'doctest', crate);
    assert.match(real.main, /println!\("\{:\?\}", area\(\)\);/, 'a function that returns something is printed');
  });
});

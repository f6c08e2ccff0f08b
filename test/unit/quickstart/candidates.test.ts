// Candidate collection, scoring, Python pins and the reading of a run's output: pure logic, table-driven.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectCandidates, fencedBlocks, rustStringText } from '../../../src/quickstart/collect.ts';
import { meaningfulStdout } from '../../../src/quickstart/outcome.ts';
import { satisfies, wheelFits } from '../../../src/quickstart/python-pin.ts';
import { blockersOf, rankCandidates } from '../../../src/quickstart/score.ts';
import { statedDependencies } from '../../../src/quickstart/programs/rust.ts';

const file = (path: string, text: string) => ({ path, bytes: new TextEncoder().encode(text) });
const artifact = (files: Array<{ path: string; bytes: Uint8Array }>) => ({ files, importName: 'demo', fileUrl: (p: string, line?: number) => `u/${p}#${line ?? ''}` });

describe('collecting candidates', () => {
  it('reads fences of README and docs, rustdoc doctests (not ignore/compile_fail), Go Example functions and Python doctests', async () => {
    assert.deepEqual(fencedBlocks('a\n````js\nx()\n```\ny\n````\n~~~\nz\n~~~').map((b) => [b.info, b.code]), [['js', 'x()\n```\ny'], ['', 'z']]);
    const rust = await collectCandidates('crates', artifact([
      file('src/lib.rs', '//! ```\n//! let x = demo::f();\n//! ```\n/// ```ignore\n/// broken()\n/// ```\n/// ```rust,no_run\n/// demo::g();\n/// ```\npub fn f() {}'),
      file('README.md', '```rust\ndemo::h();\n```\n```toml\n[dependencies]\n```'),
    ]));
    assert.deepEqual(rust.map((c) => [c.origin, c.language, c.code]), [['readme', 'rust', 'demo::h();'], ['doctest', 'rust', 'let x = demo::f();'], ['doctest', 'rust-no-run', 'demo::g();']]);
    const go = await collectCandidates('go', artifact([file('example_test.go', 'package demo_test\n\nimport "fmt"\n\nfunc ExampleHello() {\n\tfmt.Println("hi")\n\t// Output: hi\n}\n')]));
    assert.equal(go[0]?.exampleName, 'ExampleHello');
    assert.equal(go[0]?.expectedOutput, 'hi');
    const py = await collectCandidates('pypi', artifact([file('demo/core.py', 'def f():\n    """Doubles.\n\n    >>> f()\n    2\n    """\n')]));
    assert.deepEqual(py.map((c) => [c.origin, c.code]), [['doctest', '>>> f()\n2']]);
  });

  it('reads fences written as doc attributes (a feature-gated doctest), so prose between doctests is not code', async () => {
    // As ed25519-dalek 3.0.0's lib.rs gates its doctests on a feature: the fence is an attribute, its `not(…)` twin ignores it.
    const gated = '#![cfg_attr(feature = "rand_core", doc = "```")]\n#![cfg_attr(not(feature = "rand_core"), doc = "```ignore")]\n';
    const text = `//! Sign:\n//!\n${gated}//! let key = demo::Key::generate();\n//! \`\`\`\n//!\n//! ## Serialisation\n//!\n//! Keys can be serialised by calling \`.to_bytes()\`.\n//!\n${gated}//! let bytes = demo::Key::generate().to_bytes();\n//! \`\`\`\n#![doc = "More prose."]\npub struct Key;`;
    const rust = await collectCandidates('crates', artifact([file('src/lib.rs', text)]));
    assert.deepEqual(rust.map((c) => c.code), ['let key = demo::Key::generate();', 'let bytes = demo::Key::generate().to_bytes();']);
    // With the crate's manifest, the gating feature becomes the dependency lines the program maker reads.
    const manifest = file('Cargo.toml', '[package]\nname = "demo-crate"\nversion = "1.0.0"\n');
    const withManifest = await collectCandidates('crates', artifact([manifest, file('src/lib.rs', text)]));
    // The added lines are not the file's: each block still points at its own line.
    assert.deepEqual(withManifest.map((c) => c.source), rust.map((c) => c.source));
    const gatedCode = withManifest[0]!.code;
    assert.equal(gatedCode, '// [dependencies]\n// demo-crate = { version = "*", features = ["rand_core"] }\nlet key = demo::Key::generate();');
    assert.deepEqual(statedDependencies(gatedCode), { 'demo-crate': { version: '*', features: ['rand_core'] } });
  });

  it("decodes a doc attribute's string escapes as Rust does, and keeps the line anchors of later blocks", async () => {
    assert.equal(rustStringText(String.raw`a\nb\tc\"d\\e\'f\0g\u{e9}\x41`), 'a\nb\tc"d\\e\'f\0géA');
    const text = '#![doc = "```\\nlet s = demo::quote(\\"a\\\\tb\\");\\nprintln!(\\"{s}\\\\n\\");\\n```"]\n//! Later:\n//! ```\n//! demo::later();\n//! ```\npub struct Key;';
    const rust = await collectCandidates('crates', artifact([file('src/lib.rs', text)]));
    assert.deepEqual(rust.map((c) => c.code), ['let s = demo::quote("a\\tb");\nprintln!("{s}\\n");', 'demo::later();']);
    const plain = await collectCandidates('crates', artifact([file('src/lib.rs', '#![doc = "Intro."]\n//! Later:\n//! ```\n//! demo::later();\n//! ```\npub struct Key;')]));
    assert.equal(rust[1]!.source, plain[0]!.source);
  });

  it('ranks runnable examples of the package first and names what blocks the others', () => {
    const ranked = rankCandidates([
      { code: 'import demo\nprint(demo.connect("postgres://localhost:5432/db"))', language: 'python', origin: 'readme', source: 'a', path: 'README.md' },
      { code: 'import demo', language: 'python', origin: 'readme', source: 'b', path: 'README.md' },
      { code: 'import demo\nkey = "<your-api-key>"\nprint(demo.Client(key).me())', language: 'python', origin: 'readme', source: 'c', path: 'README.md' },
      { code: 'import demo\nx = demo.double(2)\nprint(x)', language: 'python', origin: 'docs', source: 'd', path: 'docs/x.md' },
    ], 'pypi', 'demo', 'demo');
    assert.equal(ranked[0]?.source, 'd');
    assert.deepEqual(ranked.map((c) => c.source).sort(), ['a', 'c', 'd'], 'an import alone is not an example');
    assert.deepEqual(ranked.find((c) => c.source === 'a')?.blockers, ['needs a service']);
    assert.deepEqual(blockersOf('name = input("who? ")\nrequests.get("https://api.example.com/x")'), ['needs input', 'needs network']);
    assert.deepEqual(blockersOf('app.listen(3000)'), ['runs a server']);
  });
});

describe('python pins', () => {
  it('evaluates Requires-Python specifiers and wheel tags for the sandbox\'s interpreter', () => {
    for (const [spec, expected] of [['>=3.8', true], ['>=3.12', false], ['>=3.7,<4', true], ['!=3.11.*', false], ['~=3.10', true], ['==3.11.*', true], ['', true]] as const) {
      assert.equal(satisfies('3.11.7', spec), expected, spec);
    }
    assert.equal(wheelFits('numpy-2.3.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl', '3.11.7'), true);
    assert.equal(wheelFits('numpy-2.4.0-cp312-cp312-manylinux_2_17_x86_64.whl', '3.11.7'), false);
    assert.equal(wheelFits('six-1.17.0-py2.py3-none-any.whl', '3.11.7'), true);
    assert.equal(wheelFits('x-1.0-cp39-abi3-manylinux_2_28_x86_64.whl', '3.11.7'), true);
    assert.equal(wheelFits('x-1.0-cp311-cp311-win_amd64.whl', '3.11.7'), false);
  });
});

describe('meaningful output', () => {
  it('accepts results and refuses silence, empty values, definitions and bare errors', () => {
    for (const [stdout, ok] of [['true\nfalse\n', true], ['', false], ['  \n', false], ['undefined\n', false], ['None\nNone', false],
      ['[Function (anonymous)]', false], ['<function X.method at 0x7f01028789a0>', false], ['Traceback (most recent call last):\n  x\nValueError: y', false],
      ['{ name: "Ada" }', true], ['<Response [200]>', true], ['[]', false], ['<coroutine object main at 0x7f45>', false],
      ['<ref *1> [class Ajv extends Ajv] {\n  Ajv: [Circular *1]\n}', false]] as const) {
      assert.equal(meaningfulStdout(stdout).ok, ok, JSON.stringify(stdout));
    }
  });
});

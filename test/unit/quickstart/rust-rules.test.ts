// Rust quickstart rules over real tree-sitter parses: examples that only define things get the lines that exercise and
// print them; crates without examples get programs written from their public API; proc-macro crates are said so.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { optionalDependencies, rustProgram } from '../../../src/quickstart/programs/rust.ts';
import { crateNameOf, crateSpec, makeProgram } from '../../../src/quickstart/programs/index.ts';
import { cfgHolds } from '../../../src/docs/extract/rust-cfg.ts';
import { summariseFailure } from '../../../src/quickstart/outcome.ts';
import { defaultFeatures, nothingToCall, rustApiCandidates } from '../../../src/quickstart/rust-api.ts';

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
    const alias = await rustProgram('pub struct Raw(u8);\npub type Lock<T> = demo::Mutex<Raw, T>;\npub type Guard<\'a, T> = demo::MutexGuard<\'a, Raw, T>;\npub type Plain = demo::Mutex<Raw, u8>;', 'doctest', crate);
    assert.match(alias.main, /\n {4}println!\("\{:\?\}", Lock::new\(2\)\);\n\}\n$/, 'an alias of a wrapper type with one parameter open wraps a plain value');
    assert.doesNotMatch(alias.main, /(Guard|Plain)::new/);
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

const file = (path: string, text: string) => ({ path, bytes: new TextEncoder().encode(text) });
const artifact = (files: Array<{ path: string; bytes: Uint8Array }>) => ({ files, importName: 'demo', fileUrl: (p: string, line?: number) => `u/${p}#${line ?? ''}` });

describe('rust programs from the public API', () => {
  it('label each printed value with what it is, and call a type\'s argument-free constructor and a method, functions with plain arguments and read constants; nothing unsafe, generic or unprintable', async () => {
    const lib = [
      'mod spin;', 'pub use spin::Spin;', '/// Max.', 'pub const MAX: u32 = 7;', '/// A token.', 'pub const TOKEN: Token = Token(0);',
      '/// Is it a start?', 'pub fn is_start(c: char) -> bool { true }', '/// Parks.', 'pub unsafe fn park(key: usize) -> usize { key }',
      '/// Generic.', 'pub fn pick<T>(x: T) -> u8 { 0 }', '/// Makes a token.', 'pub fn token(n: usize) -> Token { Token(n) }',
      '/// Waits.', 'pub fn sleep_for(ms: u64) -> bool { true }',
    ].join('\n');
    const spin = ['/// Spins.', 'pub struct Spin { n: u32 }', 'impl Spin {', '    /// Default.', '    pub fn default() -> Self { Spin { n: 0 } }', '    /// New.', '    pub const fn new() -> Self { Spin { n: 0 } }',
      '    /// One spin.', '    pub fn spin(&mut self) -> bool { true }', '    /// With a callback.', '    pub fn each(&self, f: impl Fn()) -> u32 { 0 }', '}'].join('\n');
    const found = await rustApiCandidates(artifact([file('Cargo.toml', '[package]\nname = "demo"\n'), file('src/lib.rs', lib), file('src/spin.rs', spin)]));
    assert.deepEqual(found.map((c) => c.code), [
      'let mut value = demo::Spin::new();\nprintln!("demo::Spin::new().spin() = {:?}", value.spin());',
      'println!("demo::is_start(\'a\') = {:?}", demo::is_start(\'a\'));',
      'println!("demo::MAX = {:?}", demo::MAX);',
    ]);
    assert.ok(found.every((c) => c.origin === 'api' && c.language === 'rust'));
    const made = await rustProgram(found[0]!.code, 'api', crate);
    assert.match(made.main, /^fn main\(\) \{\n {4}let mut value = demo::Spin::new\(\);\n {4}println!\("demo::Spin::new\(\)\.spin\(\) = \{:\?\}", value\.spin\(\)\);\n\}\n$/);
  });

  it('use a constructed value: its writes with plain data, then the reads that show them, printed; nothing that consumes it', async () => {
    const lib = [
      '/// A buffer.', 'pub struct Buf { s: String }', 'impl Buf {', '    /// New.', '    pub fn new() -> Self { Buf { s: String::new() } }',
      '    /// Appends.', '    pub fn push_str(&mut self, s: &str) { self.s.push_str(s) }', '    /// Appends bytes.', '    pub fn extend(&mut self, b: &[u8]) -> usize { b.len() }',
      '    /// Length.', '    pub fn len(&self) -> usize { self.s.len() }', '    /// Text.', '    pub fn as_str(&self) -> &str { &self.s }',
      '    /// Ends it.', '    pub fn finish(self) -> String { self.s }', '    /// Read-only with data.', '    pub fn contains(&self, s: &str) -> bool { true }', '}',
    ].join('\n');
    const found = await rustApiCandidates(artifact([file('Cargo.toml', '[package]\nname = "demo"\n'), file('src/lib.rs', lib)]));
    const used = found.find((c) => c.code.includes('value.push_str('));
    assert.ok(used, found.map((c) => c.code).join('\n---\n'));
    assert.equal(found[0], used, 'ranked above the one-call programs');
    const lines = used.code.split('\n');
    assert.equal(lines[0], 'let mut value = demo::Buf::new();');
    // Writes (data in, as statements) before the reads that print what they did.
    assert.ok(lines.indexOf('value.push_str("example");') > 0 && lines.indexOf('value.extend(b"example");') > 0, used.code);
    assert.ok(lines.findIndex((l) => l.startsWith('println!')) > lines.indexOf('value.push_str("example");'), used.code);
    assert.ok(lines.includes('println!("len() = {:?}", value.len());') && lines.includes('println!("as_str() = {:?}", value.as_str());'), used.code);
    assert.doesNotMatch(used.code, /finish|contains/, 'a method taking self by value ends the value; a read that takes data is no plain read');
  });

  it('say why a crate without examples has nothing to call: a procedural-macro crate, a crate of traits', async () => {
    const macro = await nothingToCall(artifact([file('Cargo.toml', '[package]\nname = "demo-impl"\ndescription = "Implementation detail of the `demo` crate"\n[lib]\nproc-macro = true\n')]), 'demo-impl');
    assert.match(macro ?? '', /^a procedural-macro crate: its macros are meant to be used through `demo`, not on their own/);
    const unnamed = await nothingToCall(artifact([file('Cargo.toml', '[package]\nname = "demo-macro"\n[lib]\nproc-macro = true\n')]), 'demo-macro');
    assert.match(unnamed ?? '', /through `demo`/, 'else the facade is the crate\'s own name without its suffix');
    const traits = await nothingToCall(artifact([file('Cargo.toml', '[package]\nname = "demo"\n'), file('src/lib.rs', '/// Reads.\npub trait Read {\n    /// Polls.\n    fn poll(&mut self) -> u8;\n}\n/// Writes.\npub trait Write {}\n')]), 'demo');
    assert.match(traits ?? '', /^its public API is traits \(Read, Write\) for other crates to implement and use/);
    assert.equal(await nothingToCall(artifact([file('Cargo.toml', '[package]\nname = "demo"\n'), file('src/lib.rs', '/// Max.\npub const MAX: u8 = 1;\n')]), 'demo'), undefined);
  });
});

describe('reading a crate as it builds on the sandbox\'s target', () => {
  const target = { values: { target_os: ['linux'], target_arch: ['x86_64'], target_pointer_width: ['64'] }, names: ['unix'], features: ['std'] };

  it('evaluates cfg predicates and keeps the first cfg_if branch that holds, for its programs from the API', async () => {
    for (const [predicate, holds] of [['unix', true], ['windows', false], ['all(unix, not(target_os = "aix"))', true], ['any(target_os = "nto", target_os = "qnx")', false],
      ['feature = "std"', true], ['not(feature = "alloc")', true], ['libc_deny_warnings', false]] as const) {
      assert.equal(cfgHolds(predicate, target), holds, predicate);
    }
    const lib = [
      'pub type size_t = usize;', 'cfg_if! {', '    if #[cfg(windows)] {', '        mod windows;', '        pub use windows::*;', '    } else if #[cfg(unix)] {',
      '        mod unix;', '        pub use unix::*;', '    } else {', '        mod other;', '    }', '}',
    ].join('\n');
    const found = await rustApiCandidates(artifact([file('Cargo.toml', '[package]\nname = "demo"\n[features]\ndefault = ["std"]\nstd = []\n'), file('src/lib.rs', lib),
      file('src/windows.rs', 'pub const WIN: u32 = 1;'), file('src/unix.rs', '#[cfg(feature = "nope")]\npub const OFF: u8 = 0;\npub const SIG_DFL: crate::size_t = 0;\npub const ON: u8 = 2;'),
      file('src/other.rs', 'pub const OTHER: u8 = 3;')]));
    assert.deepEqual(found.map((c) => c.code), ['println!("demo::SIG_DFL = {:?}", demo::SIG_DFL);', 'println!("demo::ON = {:?}", demo::ON);'], 'undocumented constants of the branch built here; aliases followed');
    assert.deepEqual(defaultFeatures({ default: ['std'], std: ['alloc', 'dep:x'], alloc: [], extra: [] }).sort(), ['alloc', 'std']);
  });
});

describe('failure summaries', () => {
  it('name the compiler\'s first error, not its closing count, and a panic\'s message, not the backtrace hint', () => {
    const result = { status: 'failed_run', stdout: '', stderr: '   Compiling quickstart v0.1.0\nerror[E0433]: failed to resolve: use of undeclared type `Foo`\n --> src/main.rs:3:5\nerror: could not compile `quickstart` (bin "quickstart") due to 1 previous error\n' } as never;
    assert.equal(summariseFailure(result), 'failed_run: error[E0433]: failed to resolve: use of undeclared type `Foo`');
    const panic = { status: 'failed_run', stdout: '', stderr: "thread 'main' panicked at src/main.rs:4:14:\ncalled `Result::unwrap()` on an `Err` value: no OUT_DIR specified!\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n" } as never;
    assert.equal(summariseFailure(panic), "failed_run: thread 'main' panicked at src/main.rs:4:14: called `Result::unwrap()` on an `Err` value: no OUT_DIR specified!");
  });
});

describe('dependencies an example states', () => {
  it('take the features and companions its `// [dependencies]` comment names', async () => {
    const made = await rustProgram([
      '// [dependencies]', '// quote = "1"', '// demo = { version = "3", features = ["fold", "full"] }', '', 'use quote::quote;', 'use demo::fold::Fold;',
      'fn main() {', '    let code = quote! { a() + b };', '    println!("{}", demo::parse(code));', '}',
    ].join('\n'), 'doctest', { ...crate, deps: { quote: { version: '1.0.35', features: [] } } });
    assert.deepEqual(made.deps.demo, { version: '=1.0.0', features: ['fold', 'full'] }, 'the crate stays pinned to the version verified');
    assert.deepEqual(made.deps.quote, { version: '1', features: [] });
  });
});

describe('crate-level lines of a doctest', () => {
  it('keep `#[macro_use] extern crate` at the crate root, on one line or two, outside the main they are wrapped in', async () => {
    for (const head of ['#[macro_use] extern crate demo;', '#[macro_use]\nextern crate demo;']) {
      const made = await rustProgram(`${head}\nuse demo::Vector;\nlet v = vector![1, 2];\nprintln!("{:?}", v);`, 'doctest', crate);
      assert.ok(made.main.startsWith(`${head}\nfn main() {\n    use demo::Vector;`), made.main);
    }
  });
});

describe('the sandbox request of a Rust program', () => {
  it('lists each crate with the features its Cargo.toml gives it, as `packages` take the same name over the manifest', async () => {
    const info = { ecosystem: 'crates' as const, name: 'demo', slug: 'crates-demo', version: '0.12.16', importName: 'demo',
      rustDeps: { tokio: { version: '1.19', features: ['macros', 'rt-multi-thread', 'time'] } }, rustFeatures: ['future', 'sync'] };
    const code = '// [dependencies]\n// demo = { version = "0.12", features = ["future"] }\nuse demo::future::Cache;\n\n#[tokio::main]\nasync fn main() {\n    let cache = Cache::new(10);\n    println!("{}", cache.entry_count());\n}';
    const host = { pythonStdlib: new Set<string>(), goStd: new Map<string, string>(), runtimes: {} };
    const program = await makeProgram({ code, language: 'rust', origin: 'doctest', path: 'src/lib.rs', source: 'u' }, info, host, { rustFeatures: ['sync'] });
    assert.equal(program.request.packages[0], 'demo@=0.12.16[future,sync]');
    assert.ok(program.request.packages.includes('tokio@1.19[macros,rt-multi-thread,time]'), program.request.packages.join(' '));
    // The same features in the manifest the build reads.
    assert.match(program.request.files[0]!.code, /^tokio = \{ version = "1\.19", features = \["macros", "rt-multi-thread", "time"\] \}$/m);
    assert.equal(crateSpec('odd', { version: '>=1, <3', features: ['a', 'dep:b', 'c/d'] }), 'odd[a]');
  });

  it('lists a crate once when its manifest line has features and no plain version (`mio[net]`) and a feature also enables it', async () => {
    const info = { ecosystem: 'crates' as const, name: 'demo', slug: 'crates-demo', version: '0.3.0', importName: 'demo',
      rustDeps: { mio: { version: '1.0.1', features: [] } }, rustFeatures: ['net'], rustFeatureMap: { net: ['mio/os-poll'] } };
    const code = '// [dependencies]\n// demo = { version = "0.3", features = ["net"] }\n// mio = { version = "*", features = ["net"] }\nuse demo::Thing;\nfn main() {\n    println!("{}", Thing::new());\n}';
    const host = { pythonStdlib: new Set<string>(), goStd: new Map<string, string>(), runtimes: {} };
    const program = await makeProgram({ code, language: 'rust', origin: 'doctest', path: 'src/lib.rs', source: 'u' }, info, host);
    assert.deepEqual(program.request.packages.filter((p) => crateNameOf(p) === 'mio'), ['mio[net]']);
    assert.deepEqual(['tokio', 'tokio@1', 'tokio[macros]', 'tokio@1[macros,time]'].map(crateNameOf), ['tokio', 'tokio', 'tokio', 'tokio']);
  });
});

describe('features the program turns on', () => {
  it('list the optional crates those features enable, so the sandbox vendors them; a runtime crate stays pinned', async () => {
    const featureMap = { default: [], macros: ['demo-macros'], full: ['fs', 'macros', 'net'], fs: [], net: ['dep:socket', 'mio/os-poll'] };
    const deps = { 'demo-macros': { version: '~2.6.0', features: [] }, socket: { version: '0.6', features: [] }, mio: { version: '1.0.1', features: [] }, odd: { version: '>=1, <3', features: [] } };
    assert.deepEqual(optionalDependencies(['macros'], featureMap, deps), ['demo-macros@~2.6.0']);
    assert.deepEqual(optionalDependencies(['full'], featureMap, deps).sort(), ['demo-macros@~2.6.0', 'mio@1.0.1', 'socket@0.6']);
    assert.deepEqual(optionalDependencies(['fs'], featureMap, deps), []);
    const made = await rustProgram('let n = tokio::fs::read_to_string("x").await;\nprintln!("{:?}", n.is_err());', 'doctest', { ...crate, name: 'tokio', importName: 'tokio' });
    assert.deepEqual(made.deps.tokio, { version: '=1.0.0', features: ['macros', 'rt-multi-thread'] });
  });
});

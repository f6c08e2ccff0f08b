// Rust programs: examples that log through a facade (log, tracing) and print nothing else get the usual
// logger or subscriber first, on stdout, unless they bring their own; a bare trait object builds as edition 2018. Nothing is run.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeProgram, repairFor } from '../../../src/quickstart/programs/index.ts';
import { cargoManifest, rustProgram, withLogOutput } from '../../../src/quickstart/programs/rust.ts';
import type { PackageInfo } from '../../../src/quickstart/types.ts';

const host = { pythonStdlib: new Set<string>(), goStd: new Map<string, string>(), runtimes: {} };

const crate = (name: string, deps = {}) => ({ name, importName: name.replace(/-/g, '_'), version: '0.1.0', deps, features: [] });

describe('examples that log and print nothing else', () => {
  it('get a tracing subscriber on stdout when they use tracing, with its crates', async () => {
    const made = await rustProgram('use tracing::info;\n\n#[tracing::instrument]\nfn work(x: u32) -> u32 { info!("working"); x + 1 }\n\nwork(1);', 'doctest', crate('tracing-attributes', { tracing: { version: '0.1.35', features: [] } }));
    assert.match(made.main, /fn main\(\) \{\n {4}let _ = tracing::subscriber::set_global_default\(tracing_subscriber::fmt\(\)\.with_max_level\(tracing::Level::TRACE\)/);
    assert.equal(made.deps['tracing-subscriber']?.version, '0.3');
    assert.equal(made.deps.tracing?.version, '0.1.35');
  });

  it('get env_logger on stdout when they use the log facade', async () => {
    const made = await rustProgram('use log::{info, warn};\n\ninfo!("starting up");\nwarn!("low disk");', 'readme', crate('log'));
    assert.match(made.main, /env_logger::Builder::new\(\)\.filter_level\(log::LevelFilter::Trace\)\.target\(env_logger::Target::Stdout\)\.try_init\(\)/);
    assert.equal(made.deps.env_logger?.version, '0.11');
  });

  it('are left alone when they install their own logger, print already, or the crate is a logger', async () => {
    const own = 'use log::{Record, Level, Metadata};\nstruct SimpleLogger;\nimpl log::Log for SimpleLogger {\n    fn enabled(&self, _: &Metadata) -> bool { true }\n    fn log(&self, r: &Record) { let _ = r; }\n    fn flush(&self) {}\n}\nfn main() {}\n';
    assert.equal(withLogOutput(own, 'log'), own);
    const printed = await rustProgram('log::info!("x");\nprintln!("{}", 1);', 'readme', crate('log'));
    assert.doesNotMatch(printed.main, /env_logger/);
    const subscriber = 'fn main() {\n    tracing_subscriber::fmt::init();\n    tracing::info!("hi");\n}\n';
    assert.equal(withLogOutput(subscriber, 'tracing_subscriber'), subscriber);
    assert.equal(withLogOutput('fn main() {\n    let v = vec![1];\n}\n', 'smallvec'), 'fn main() {\n    let v = vec![1];\n}\n');
  });

  it('read the code, not its comments, for a logger of its own (tracing-log\'s "available for Subscribers")', () => {
    const code = 'use tracing_log::LogTracer;\nfn main() -> Result<(), Box<Error>> {\n    LogTracer::init()?;\n    // will be available for Subscribers as a tracing Event\n    log::trace!("an example trace log");\n    Ok(())\n}\n';
    assert.match(withLogOutput(code, 'tracing_log'), /\{\n {4}let _ = tracing::subscriber::set_global_default\(/);
  });

  it('find main\'s body under attributes and an async signature', () => {
    const code = '#[tokio::main]\nasync fn main() -> Result<(), Box<dyn std::error::Error>> {\n    tracing::info!("x");\n    Ok(())\n}\n';
    assert.match(withLogOutput(code, 'tokio'), /async fn main\(\) -> Result<\(\), Box<dyn std::error::Error>> \{\n {4}let _ = tracing::subscriber::set_global_default\(/);
  });
});

describe('the edition a program is built in', () => {
  const info: PackageInfo = { ecosystem: 'crates', name: 'tracing-log', slug: 'crates-tracing-log', version: '0.2.0', importName: 'tracing_log' };
  it('is 2018 once a build fails on a bare trait object (E0782), and only once', async () => {
    const stderr = 'error[E0782]: expected a type, found a trait\n --> src/main.rs:4:34\n  |\n4 | fn main() -> Result<(), Box<Error>> {';
    const adjust = repairFor(info, stderr, {});
    assert.deepEqual(adjust, { rustEdition: '2018' });
    assert.equal(repairFor(info, stderr, adjust!), undefined);
    const program = await makeProgram({ code: 'use tracing_log::LogTracer;\nLogTracer::init().unwrap();', language: 'rust', origin: 'doctest', path: 'src/lib.rs', source: 'u' }, info, host, adjust);
    assert.match(program.request.files.find((f) => f.path === 'Cargo.toml')!.code, /\nedition = "2018"\n/);
    assert.match(cargoManifest({ demo: { version: '=1.0.0', features: [] } }), /\nedition = "2021"\n/);
  });
});

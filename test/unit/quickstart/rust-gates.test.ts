// A crate's names that only a non-default feature compiles, read from its source, and the features a program turns on
// for the names its example uses. The sources are excerpts of spent fresh packages whose examples failed with
// "unresolved import" / "cannot find" for such names: cacache 13.1.0 (link_to, r15), postcard 1.2.0 (to_allocvec,
// r10), ed25519-dalek 3.0.0 (verify_batch, r7), pollster 1.0.3 (`#[pollster::main]`, r15), backoff 0.4.0 (future, r15).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { enabledByDefault, featureGatedNames } from '../../../src/quickstart/rust-gates.ts';
import { rustProgram } from '../../../src/quickstart/programs/rust.ts';
import { featuresForGatedNames } from '../../../src/quickstart/programs/rust-features.ts';

describe('names a feature gates, read from the crate', () => {
  it('follows a gated module declaration into its file, and a gated re-export (cacache, ed25519-dalek)', async () => {
    const cacache = [
      { path: 'src/lib.rs', text: '#[cfg(feature = "link_to")]\nmod linkto;\nmod get;\n\npub use get::*;\n#[cfg(feature = "link_to")]\npub use linkto::*;\n' },
      { path: 'src/linkto.rs', text: 'pub async fn link_to<P>(cache: P) {}\npub struct ToLinker;\nfn private_helper() {}\n' },
      { path: 'src/get.rs', text: 'pub async fn read<P>(cache: P) {}\n' },
    ];
    const gated = await featureGatedNames(cacache, ['default', 'async-std', 'tokio-runtime', 'link_to', 'mmap'], ['async-std', 'mmap']);
    assert.deepEqual(gated, { link_to: ['link_to'], 'linkto::link_to': ['link_to'], ToLinker: ['link_to'], 'linkto::ToLinker': ['link_to'] });
    const dalek = [{ path: 'src/lib.rs', text: '#[cfg(feature = "batch")]\nmod batch;\n#[cfg(feature = "batch")]\npub use crate::batch::*;\n' },
      { path: 'src/batch.rs', text: 'pub fn verify_batch(messages: &[&[u8]]) -> Result<(), SignatureError> { Ok(()) }\n' }];
    assert.deepEqual(await featureGatedNames(dalek, ['batch', 'std'], ['std']), { verify_batch: ['batch'], 'batch::verify_batch': ['batch'] });
  });

  it('answers a second reading of the same sources the same, as a copy of its own (the kept answer per input)', async () => {
    const files = [{ path: 'src/lib.rs', text: '#[cfg(feature = "batch")]\nmod batch;\n#[cfg(feature = "batch")]\npub use crate::batch::*;\n' },
      { path: 'src/batch.rs', text: 'pub fn verify_batch(messages: &[&[u8]]) {}\n' }];
    const first = await featureGatedNames(files, ['batch', 'std'], ['std']);
    first.verify_batch!.push('changed by a caller');
    assert.deepEqual(await featureGatedNames(files, ['batch', 'std'], ['std']), { verify_batch: ['batch'], 'batch::verify_batch': ['batch'] });
    // Other features declared or on by default are another input, with its own answer.
    assert.deepEqual(await featureGatedNames(files, ['batch', 'std'], ['std', 'batch']), {});
  });

  it('needs nothing for names the default features give, one way or another (postcard)', async () => {
    const postcard = [{ path: 'src/lib.rs', text: [
      '#[cfg(feature = "alloc")]', 'pub use ser::{to_allocvec, to_allocvec_cobs};', '#[cfg(feature = "use-std")]', 'pub use ser::to_stdvec;',
      '#[cfg(feature = "heapless")]', 'pub use ser::to_vec;', '#[cfg(not(feature = "heapless"))]', 'pub fn to_vec() {}',
      '#[cfg(any(feature = "embedded-io-04", feature = "use-std"))]', 'pub mod io {}', '#[cfg(test)]', 'mod tests { #[cfg(feature = "alloc")] pub fn t() {} }',
    ].join('\n') }];
    const featureMap = { default: ['heapless-cas'], 'heapless-cas': ['heapless', 'heapless/cas'], alloc: [], 'use-std': ['serde/std', 'alloc'], 'embedded-io-04': ['dep:embedded-io-04'] };
    const on = enabledByDefault(featureMap);
    assert.deepEqual(on.sort(), ['heapless', 'heapless-cas']);
    assert.deepEqual(await featureGatedNames(postcard, [...Object.keys(featureMap), 'heapless', 'embedded-io-04'], on),
      { to_allocvec: ['alloc'], to_allocvec_cobs: ['alloc'], to_stdvec: ['use-std'], io: ['embedded-io-04'] });
  });

  it('tells a name one module declares plainly from the same name another gates (backoff\'s retry)', async () => {
    const backoff = [
      { path: 'src/lib.rs', text: 'mod retry;\npub use crate::retry::{retry, Error};\n#[cfg(feature = "futures")]\npub mod future;\n' },
      { path: 'src/retry.rs', text: 'pub fn retry<F>(backoff: B, op: F) {}\n' },
      { path: 'src/future.rs', text: '#[cfg(any(feature = "tokio", feature = "async-std"))]\npub fn retry<F>(backoff: B, op: F) {}\npub trait Sleeper {}\n' },
    ];
    const gated = await featureGatedNames(backoff, ['futures', 'tokio', 'async-std', 'wasm-bindgen'], []);
    assert.deepEqual(gated, { future: ['futures'], 'future::retry': ['futures', 'tokio'], Sleeper: ['futures'], 'future::Sleeper': ['futures'] });
    assert.deepEqual(await featuresForGatedNames('use backoff::future::retry;\nlet v = retry(b, op).await;', 'backoff', gated), ['futures', 'tokio']);
    assert.deepEqual(await featuresForGatedNames('use backoff::{retry, Error};\nlet v = retry(b, op);', 'backoff', gated), []);
  });
});

describe('features a program turns on for the gated names it uses', () => {
  it('paths through the crate, attribute paths, macro arguments and derives', async () => {
    const gated = { to_allocvec: ['alloc'], main: ['macro'], future: ['futures'], Dummy: ['derive'], colors: ['colored'] };
    assert.deepEqual(await featuresForGatedNames('use postcard::{to_allocvec, from_bytes};\nlet v = to_allocvec(&1u8).unwrap();', 'postcard', gated), ['alloc']);
    assert.deepEqual(await featuresForGatedNames('#[pollster::main]\nasync fn main() { println!("{}", 1); }', 'pollster', gated), ['macro']);
    assert.deepEqual(await featuresForGatedNames('fn main() { println!("{:?}", backoff::future::retry(b, op)); }', 'backoff', gated), ['futures']);
    assert.deepEqual(await featuresForGatedNames('use fake::Fake;\n#[derive(Debug, Dummy)]\nstruct Order { id: u64 }', 'fake', gated), ['derive']);
    // `main` the program's own function and a name of another crate are no use of the crate's gated names.
    assert.deepEqual(await featuresForGatedNames('fn main() { let colors = other::colors(); }', 'fern', gated), []);
  });

  it('puts them on the crate dependency of the program (pollster)', async () => {
    const made = await rustProgram('#[pollster::main]\nasync fn main() {\n    let v = async { 7 }.await;\n    println!("{v}");\n}', 'readme',
      { name: 'pollster', importName: 'pollster', version: '1.0.3', deps: {}, features: ['macro'], gatedNames: { main: ['macro'], test: ['macro'] } });
    assert.deepEqual(made.deps.pollster, { version: '=1.0.3', features: ['macro'] });
  });
});

// Feature gates in Rust examples read the documented crate's features, as rustdoc compiles a doctest; in a program
// they would read the program's own (none) and compile the gated code out. The examples are the real doctests of
// spent fresh packages: cacache 13.1.0's lib.rs (rated wrong in r15: it read a key the gated `link_to` never wrote),
// k256 0.14.0's README (the PKCS#8 example, all under `#[cfg(feature = "pem")]`) and curve25519-dalek 5.0.0's
// traits.rs (`#[cfg(feature = "alloc")]` around the whole example).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rustProgram } from '../../../src/quickstart/programs/rust.ts';
import { crateSpec } from '../../../src/quickstart/programs/index.ts';
import { featuresToSatisfy, resolveFeatureGates } from '../../../src/quickstart/programs/rust-features.ts';

const crate = (name: string, features: string[]) => ({ name, importName: name.replace(/-/g, '_'), version: '1.0.0', deps: {}, features });

describe('feature gates of the documented crate', () => {
  it('keeps the gated statement and turns the feature on (cacache)', async () => {
    const doc = [
      '#[async_attributes::main]', 'async fn main() -> cacache::Result<()> {', '  #[cfg(feature = "link_to")]',
      '  cacache::link_to("./my-cache", "key", "/path/to/my-other-file.txt").await?;', '  let data = cacache::read("./my-cache", "key").await?;',
      '  assert_eq!(data, b"my-data");', '  Ok(())', '}',
    ].join('\n');
    const made = await rustProgram(doc, 'doctest', crate('cacache', ['default', 'async-std', 'tokio-runtime', 'link_to', 'mmap']));
    assert.doesNotMatch(made.main, /cfg\(/);
    assert.match(made.main, /\n {2}cacache::link_to\("\.\/my-cache", "key", "\/path\/to\/my-other-file\.txt"\)\.await\?;\n/);
    assert.deepEqual(made.deps.cacache!.features, ['link_to']);
    assert.equal(crateSpec('cacache', made.deps.cacache!), 'cacache@=1.0.0[link_to]');
  });

  it('keeps a gated block inside the hidden main (k256 README, curve25519-dalek traits.rs)', async () => {
    const k256 = [
      '# fn main() -> Result<(), Box<dyn std::error::Error>> {', '# #[cfg(feature = "pem")]', '# {', 'use k256::SecretKey;', '',
      'let pem = r#"-----BEGIN PRIVATE KEY-----', 'MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQg5gaqCR3sHPJeQHw2qXBM', '-----END PRIVATE KEY-----"#;',
      'let secret_key = SecretKey::from_pem(pem)?;', '# let _ = secret_key;', '# }', '# Ok(())', '# }',
    ].join('\n');
    const made = await rustProgram(k256, 'readme', crate('k256', ['alloc', 'arithmetic', 'ecdh', 'pem', 'pkcs8', 'std']));
    assert.match(made.main, /-> Result<\(\), Box<dyn std::error::Error>> \{\n\{\nuse k256::SecretKey;/);
    assert.deepEqual(made.deps.k256!.features, ['pem']);
    const dalek = [
      '# #[cfg(feature = "alloc")]', '# {', 'use curve25519_dalek::constants;', 'use curve25519_dalek::traits::MultiscalarMul;',
      'use curve25519_dalek::ristretto::RistrettoPoint;', 'use curve25519_dalek::scalar::Scalar;', 'let a = Scalar::from(87329482u64);',
      'let P = constants::RISTRETTO_BASEPOINT_POINT;', 'let A1 = RistrettoPoint::multiscalar_mul(&[a], &[P]);', 'assert_eq!(A1.compress(), (a * P).compress());', '# }',
    ].join('\n');
    const program = await rustProgram(dalek, 'doctest', crate('curve25519-dalek', ['alloc', 'precomputed-tables', 'rand_core', 'zeroize']));
    assert.match(program.main, /^fn main\(\) \{\n {4}\{\n {4}use curve25519_dalek::constants;/);
    assert.deepEqual(program.deps['curve25519-dalek']!.features, ['alloc']);
  });

  it('drops what the enabled features gate off, and code gated on a feature the crate does not declare', async () => {
    const code = [
      '#[cfg(feature = "std")]', 'fn store() -> Vec<u8> { vec![1] }', '#[cfg(not(feature = "std"))]', 'fn store() -> [u8; 1] { [1] }',
      'fn main() {', '    #[cfg(feature = "nightly")]', '    demo::unstable();', '    let v = Conf {', '        #[cfg(feature = "nightly")]',
      '        fast: true,', '        size: 1,', '    };', '    if cfg!(feature = "std") { println!("{:?}", store()); }', '}',
    ].join('\n');
    const gated = await resolveFeatureGates(code, ['std']);
    assert.deepEqual(gated.features, ['std']);
    assert.equal(gated.code, [
      'fn store() -> Vec<u8> { vec![1] }', 'fn main() {', '    let v = Conf {', '        size: 1,', '    };', '    if true { println!("{:?}", store()); }', '}',
    ].join('\n'));
  });

  it('leaves gates that name no feature, and a whole doctest gated off, to rustc', async () => {
    const code = '#![cfg(feature = "unknown")]\n#[cfg(unix)]\nfn main() {}\n';
    assert.deepEqual(await resolveFeatureGates(code, ['std']), { code, features: [] });
    assert.deepEqual(featuresToSatisfy('all(feature = "b", not(feature = "c"), any(feature = "d", feature = "e"))'), ['b', 'd']);
    // Of two alternatives (cacache's two async runtimes exclude each other) one is turned on, none when one is on.
    assert.deepEqual(featuresToSatisfy('any(feature = "async-std", feature = "tokio-runtime")', ['tokio-runtime']), []);
  });
});

// Names that are no crates: every attempt of half r15 failed on `f16` read as one ("the crate `f16` could not be found
// in registry index"), pickledb's on a method's turbofish in a macro, jpeg-decoder's on an `extern crate … as` alias.
describe('crates a program depends on', () => {
  it('are not primitive types, turbofish methods or aliases of the crate (half, pickledb, jpeg-decoder)', async () => {
    const c = (name: string) => ({ name, importName: name.replace(/-/g, '_'), version: '1.0.0', deps: {}, features: [] });
    const half = await rustProgram('# use half::prelude::*;\nlet float_buffer = [f16::from_f32(1.), f16::from_f32(2.)];\nlet int_buffer = float_buffer.reinterpret_cast();\nassert_eq!(int_buffer, [float_buffer[0].to_bits(), float_buffer[1].to_bits()]);', 'doctest', c('half'));
    assert.deepEqual(Object.keys(half.deps), ['half']);
    const pickledb = await rustProgram('# let mut db = pickledb::PickleDb::new_bin("1.db", pickledb::PickleDbDumpPolicy::AutoDump);\nfor kv in db.iter() {\n    println!("{}: {}", kv.get_key(), kv.get_value::<String>().unwrap());\n    println!("{:?}", serde_json::to_string(&1));\n}', 'doctest', c('pickledb'));
    assert.deepEqual(Object.keys(pickledb.deps), ['pickledb', 'serde_json'], 'a path in a macro still names its crate');
    const jpeg = await rustProgram('extern crate jpeg_decoder as jpeg;\nuse std::fs::File;\nfn main() {\n    let mut decoder = jpeg::Decoder::new(File::open("a.jpg").unwrap());\n    println!("{:?}", decoder.info());\n}', 'example-file', c('jpeg-decoder'));
    assert.deepEqual(Object.keys(jpeg.deps), ['jpeg-decoder']);
  });
});

// The docs index reads a crate as docs.rs documents it (x86_64 Linux, rustdoc with `--cfg docsrs`, features on):
// `cfg_if!` branches followed, other platforms' twins dropped, feature-gated items kept.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { passagesFromArtifact } from '../../../src/docs/documents.ts';
import { cfgHolds, docsRsCfgNames, docsRsTarget } from '../../../src/docs/extract/rust-cfg.ts';
import type { Artifact } from '../../../src/docs/sources/types.ts';

function crate(sources: Record<string, string>): Artifact {
  return {
    files: Object.entries(sources).map(([path, text]) => ({ path, bytes: new TextEncoder().encode(text) })),
    facts: { importName: 'demo', entryPoints: ['demo'], typesIncluded: null, requirements: {} },
    fileUrl: (path, where) => `${path}#${where?.line ?? ''}`,
    skipped: 0,
  };
}

async function indexed(sources: Record<string, string>): Promise<{ symbol: string; content: string }[]> {
  const { passages } = await passagesFromArtifact(crate(sources), { ecosystem: 'crates', name: 'demo', version: '1.0.0' });
  return passages.filter((p) => p.symbol).map((p) => ({ symbol: p.symbol!, content: p.content }));
}

const CARGO = '[package]\nname = "demo"\nversion = "1.0.0"\n';

describe('docs index: Rust cfg read as docs.rs builds', () => {
  it('indexes the items of the cfg_if! branch that holds on x86_64 Linux, and none of the other platforms', async () => {
    const passages = await indexed({
      'Cargo.toml': CARGO,
      'src/lib.rs': [
        'cfg_if! {',
        '    if #[cfg(windows)] {',
        '        mod windows;',
        '        pub use windows::*;',
        '    } else if #[cfg(all(unix, target_os = "linux"))] {',
        '        mod linux;',
        '        pub use linux::*;',
        '    } else {',
        '        mod other;',
        '        pub use other::*;',
        '    }',
        '}',
      ].join('\n'),
      'src/windows.rs': '/// Largest path on Windows.\npub const PATH_MAX: usize = 260;\n/// Only on Windows.\npub fn windows_only() {}\n',
      'src/linux.rs': '/// Largest path on Linux.\npub const PATH_MAX: usize = 4096;\n/// Opens a file descriptor.\npub fn open_fd() -> i32 { 0 }\n',
      'src/other.rs': '/// Largest path elsewhere.\npub const PATH_MAX: usize = 1024;\n',
    });
    const paths = passages.filter((p) => p.symbol === 'demo::PATH_MAX');
    assert.equal(paths.length, 1, JSON.stringify(passages));
    assert.match(paths[0]!.content, /4096/);
    assert.ok(passages.some((p) => p.symbol === 'demo::open_fd'));
    assert.ok(!passages.some((p) => p.symbol === 'demo::windows_only'));
  });

  it('keeps feature-gated items, drops their not(feature) fallbacks and other targets\' twins', async () => {
    const passages = await indexed({
      'Cargo.toml': `${CARGO}\n[features]\ndefault = ["std"]\nstd = []\nextra = []\n`,
      'src/lib.rs': [
        '/// Only with the non-default `extra` feature.',
        '#[cfg(feature = "extra")]',
        'pub fn extra() {}',
        '/// Error type with std.',
        '#[cfg(feature = "std")]',
        'pub struct Error { inner: std::io::Error }',
        '/// Error type without std.',
        '#[cfg(not(feature = "std"))]',
        'pub struct Error { code: i32 }',
        '/// Wide on 64-bit targets.',
        '#[cfg(target_pointer_width = "64")]',
        'pub type Word = u64;',
        '/// Narrow on 32-bit targets.',
        '#[cfg(target_pointer_width = "32")]',
        'pub type Word = u32;',
        '/// Documented on docs.rs whatever the platform.',
        '#[cfg(any(windows, docsrs))]',
        'pub fn everywhere_in_docs() {}',
        '/// A test helper.',
        '#[cfg(test)]',
        'pub fn helper() {}',
      ].join('\n'),
    });
    const symbols = passages.map((p) => p.symbol);
    assert.ok(symbols.includes('demo::extra'), symbols.join(', '));
    assert.deepEqual(passages.filter((p) => p.symbol === 'demo::Error').map((p) => /with std/.test(p.content)), [true]);
    assert.deepEqual(passages.filter((p) => p.symbol === 'demo::Word').map((p) => /u64/.test(p.content)), [true]);
    assert.ok(symbols.includes('demo::everywhere_in_docs'));
    assert.ok(!symbols.includes('demo::helper'));
  });

  it('sets the cfgs a crate asks docs.rs for in [package.metadata.docs.rs]', async () => {
    const passages = await indexed({
      'Cargo.toml': `${CARGO}\n[package.metadata.docs.rs]\nall-features = true\nrustdoc-args = ["--cfg", "docsrs", "--cfg", "demo_unstable"]\n`,
      'src/lib.rs': '/// An unstable API docs.rs shows.\n#[cfg(demo_unstable)]\npub fn unstable() {}\n/// Not built anywhere docs.rs looks.\n#[cfg(demo_never)]\npub fn never() {}\n',
    });
    const symbols = passages.map((p) => p.symbol);
    assert.ok(symbols.includes('demo::unstable'), symbols.join(', '));
    assert.ok(!symbols.includes('demo::never'));
  });

  it('evaluates predicates for x86_64-unknown-linux-gnu', () => {
    const target = docsRsTarget(['tokio_unstable']);
    const cases: [string, boolean][] = [
      ['unix', true], ['windows', false], ['target_os = "linux"', true], ['target_os = "macos"', false],
      ['all(target_arch = "x86_64", target_env = "gnu")', true], ['target_env = "musl"', false],
      ['feature = "anything"', true], ['not(feature = "std")', false], ['doc', true], ['not(docsrs)', false],
      ['tokio_unstable', true], ['test', false], ['any(target_os = "android", target_os = "linux")', true],
    ];
    for (const [predicate, holds] of cases) assert.equal(cfgHolds(predicate, target), holds, predicate);
  });

  it('reads --cfg names from rustdoc-args and rustc-args', () => {
    assert.deepEqual(docsRsCfgNames({ 'rustdoc-args': ['--cfg', 'docsrs', '--cfg', 'tokio_unstable', '--generate-link-to-definition'], 'rustc-args': ['--cfg=tokio_taskdump', '--cfg', 'key="v"'] }),
      ['docsrs', 'tokio_unstable', 'tokio_taskdump']);
    assert.deepEqual(docsRsCfgNames(undefined), []);
  });
});

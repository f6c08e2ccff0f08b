// A procedural-macro crate without examples of its own is verified through its facade crate's examples, with the macro
// crate pinned: a loopback registry serves both .crate files; a recording stand-in takes the sandbox's place.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/log.ts';
import { verifyVersion } from '../../../src/quickstart/verify.ts';
import type { TestRequest, TestResult } from '../../../src/sandbox/schema.ts';
import { makeTgz } from '../../integration/docs/fixtures.ts';

const crates: Record<string, Buffer> = {
  '/crates/fxerr-impl/fxerr-impl-2.0.1.crate': makeTgz([
    { name: 'fxerr-impl-2.0.1/Cargo.toml', body: '[package]\nname = "fxerr-impl"\nversion = "2.0.1"\ndescription = "Implementation detail of the `fxerr` crate"\n\n[lib]\nproc-macro = true\n' },
    { name: 'fxerr-impl-2.0.1/src/lib.rs', body: '#[proc_macro_derive(Error)]\npub fn derive_error(input: proc_macro::TokenStream) -> proc_macro::TokenStream { input }\n' },
  ]),
  '/crates/fxerr/fxerr-2.0.1.crate': makeTgz([
    { name: 'fxerr-2.0.1/Cargo.toml', body: '[package]\nname = "fxerr"\nversion = "2.0.1"\n\n[dependencies.fxerr-impl]\nversion = "=2.0.1"\n' },
    { name: 'fxerr-2.0.1/README.md', body: '# fxerr\n\n```rust\nuse fxerr::Error;\n\n#[derive(Error, Debug)]\npub enum E {\n    #[error("missing {0}")]\n    Missing(String),\n}\n```\n' },
    { name: 'fxerr-2.0.1/src/lib.rs', body: 'pub use fxerr_impl::Error;\n' },
  ]),
  '/crates/fxfut-macro/fxfut-macro-0.3.4.crate': makeTgz([
    { name: 'fxfut-macro-0.3.4/Cargo.toml', body: '[package]\nname = "fxfut-macro"\nversion = "0.3.4"\nrepository = "https://example.invalid/fxfut"\n\n[lib]\nproc-macro = true\n' },
  ]),
  '/crates/fxfut/fxfut-0.3.4.crate': makeTgz([
    { name: 'fxfut-0.3.4/Cargo.toml', body: '[package]\nname = "fxfut"\nversion = "0.3.4"\nrepository = "https://example.invalid/fxfut.git"\n\n[dependencies.fxfut-util]\nversion = "0.3.4"\n' },
    { name: 'fxfut-0.3.4/README.md', body: '# fxfut\n\n```rust\nlet v = fxfut::executor::block_on(async { 1 + 1 });\nprintln!("{}", v);\n```\n' },
  ]),
  '/crates/fxlone-macro/fxlone-macro-1.0.0.crate': makeTgz([
    { name: 'fxlone-macro-1.0.0/Cargo.toml', body: '[package]\nname = "fxlone-macro"\nversion = "1.0.0"\nrepository = "https://example.invalid/a"\n\n[lib]\nproc-macro = true\n' },
  ]),
  '/crates/fxlone/fxlone-1.0.0.crate': makeTgz([
    { name: 'fxlone-1.0.0/Cargo.toml', body: '[package]\nname = "fxlone"\nversion = "1.0.0"\nrepository = "https://example.invalid/b"\n' },
    { name: 'fxlone-1.0.0/README.md', body: '```rust\nprintln!("{}", fxlone::hi());\n```\n' },
  ]),
};

const recording = (sent: TestRequest[]) => ({
  run: async (request: TestRequest): Promise<TestResult> => {
    sent.push(request);
    return { status: 'ran', stdout: 'missing example\n', stderr: '', exitCode: 0, phases: { provisionMs: 1, installMs: 1, runMs: 1 } } as unknown as TestResult;
  },
});
const host = async () => ({ pythonStdlib: new Set<string>(), goStd: new Map<string, string>(), runtimes: { rust: 'rustc 1.95.0' } });

describe('a procedural-macro crate without examples', () => {
  let registry: http.Server;
  let base = '';
  before(async () => {
    registry = http.createServer((request, response) => {
      const body = crates[request.url ?? ''];
      if (body) response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => registry.close(resolve)));
  const verify = (name: string, version: string, sent: TestRequest[]) => verifyVersion({
    config: loadConfig({ TOOLDEX_CRATES_DOWNLOAD_URL: `${base}/crates`, LOG_LEVEL: 'silent' }, {}), logger: createLogger('silent'),
    sandbox: recording(sent), keepAlive: async () => true, host,
  }, { slug: `crates-${name}`, ecosystem: 'crates', name } as Parameters<typeof verifyVersion>[1], version);

  it('runs its facade\'s example of the same version, built with the macro crate pinned, and says so', async () => {
    const sent: TestRequest[] = [];
    const outcome = await verify('fxerr-impl', '2.0.1', sent);
    assert.equal(outcome.status, 'ran');
    const manifest = sent[0]?.files.find((f) => f.path === 'Cargo.toml')?.code ?? '';
    assert.match(manifest, /^fxerr = \{ version = "=2\.0\.1" \}$/m);
    assert.match(manifest, /^fxerr-impl = \{ version = "=2\.0\.1" \}$/m);
    assert.deepEqual(sent[0]?.packages, ['fxerr@=2.0.1', 'fxerr-impl@=2.0.1']);
    assert.match(sent[0]?.files.find((f) => f.path === 'src/main.rs')?.code ?? '', /println!\("\{\}", E::Missing\(String::from\("example"\)\)\);/);
    assert.equal(outcome.result.verified.version, '2.0.1');
    assert.match(outcome.result.verified.note ?? '', /fxerr-impl is a procedural-macro crate used through fxerr: this is fxerr 2\.0\.1's example, built with fxerr-impl pinned to 2\.0\.1\./);
  });

  it('takes a facade of the same repository that reaches it through another crate, and no unrelated one', async () => {
    const sent: TestRequest[] = [];
    const outcome = await verify('fxfut-macro', '0.3.4', sent);
    assert.equal(outcome.status, 'ran');
    assert.deepEqual(sent[0]?.packages, ['fxfut@=0.3.4', 'fxfut-macro@=0.3.4']);
    const lone: TestRequest[] = [];
    const unrelated = await verify('fxlone-macro', '1.0.0', lone);
    assert.equal(unrelated.status, 'unverifiable');
    assert.equal(lone.length, 0);
    assert.match(unrelated.result.verified.reason ?? '', /^a procedural-macro crate: its macros are meant to be used through `fxlone`/);
  });
});

// Rust crate features in `packages` (issue 24 §5), through POST /tools/test with real sandboxes and crates.io:
// `name@version[feature,…]` is enabled by the fetch step (its optional crates vendored), the offline build sees
// exactly those features, a later pin without them drops them again, and malformed features are refused.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.ts';
import { file, postTest, startSandboxServer } from './helpers.ts';

// smallvec's `write` feature implements std::io::Write for SmallVec<[u8; N]>: without it this does not compile.
const WRITES = 'use smallvec::SmallVec;\nuse std::io::Write;\n\nfn main() {\n    let mut v: SmallVec<[u8; 8]> = SmallVec::new();\n' +
  '    v.write_all(b"featured").unwrap();\n    println!("{}", String::from_utf8(v.to_vec()).unwrap());\n}\n';

describe('rust crate features in packages', () => {
  let server: TestServer;
  before(async () => {
    server = await startSandboxServer();
  });
  after(async () => {
    await server.close();
  });

  it('enables the listed features through the fetch step; a later pin without them builds without them', async () => {
    const featured = await postTest(server, {
      language: 'rust', runtime: 'rust', packages: ['smallvec@1[write]'], timeoutMs: 60_000, files: [file('src/main.rs', WRITES)],
    });
    assert.equal(featured.body.status, 'ran', featured.text);
    assert.equal(featured.body.stdout, 'featured\n');
    const plain = await postTest(server, {
      language: 'rust', runtime: 'rust', sessionId: featured.body.sessionId, entry: 'src/main.rs', packages: ['smallvec@1'], timeoutMs: 60_000, files: [],
    });
    assert.equal(plain.body.status, 'failed_run', plain.text);
    assert.match(plain.body.stderr, /write_all/, 'the build no longer has the feature');
    const again = await postTest(server, {
      language: 'rust', runtime: 'rust', sessionId: featured.body.sessionId, entry: 'src/main.rs', packages: ['smallvec@1[write]'], timeoutMs: 60_000, files: [],
    });
    assert.equal(again.body.status, 'ran', again.text);
    assert.equal(again.body.stdout, 'featured\n');
  });

  it('the issue\'s request: tokio@1[macros,rt-multi-thread,time] runs a program using tokio::time::timeout', async () => {
    const reply = await postTest(server, {
      language: 'rust', runtime: 'rust', packages: ['tokio@1[macros,rt-multi-thread,time]'], timeoutMs: 60_000,
      files: [file('src/main.rs', 'use std::time::Duration;\n\n#[tokio::main]\nasync fn main() {\n' +
        '    let slow = tokio::time::sleep(Duration::from_secs(5));\n' +
        '    let outcome = tokio::time::timeout(Duration::from_millis(50), slow).await;\n' +
        '    println!("timed out: {}", outcome.is_err());\n}\n')],
    });
    assert.equal(reply.body.status, 'ran', reply.text.slice(0, 2000));
    assert.equal(reply.body.stdout, 'timed out: true\n');
  });

  it('refuses features that are not plain names (422 invalid_package)', async () => {
    for (const spec of ['smallvec@1[../x]', 'smallvec@1[dep:serde]', 'smallvec@1[smallvec/write]', 'smallvec@1[write', 'smallvec@1[]', 'smallvec[write]@1']) {
      const reply = await postTest(server, { language: 'rust', runtime: 'rust', packages: [spec], files: [file('src/main.rs', 'fn main() {}')] });
      assert.equal(reply.status, 422, `${spec}: ${reply.text}`);
      assert.equal(reply.body.error.code, 'invalid_package');
    }
  });
});

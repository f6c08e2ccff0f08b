// Seed-name verification against registry endpoints, served here by a loopback server that plays crates.io's sparse
// index and the Go module proxy.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkNames, withoutNames } from '../../../src/catalog/verify-seeds.ts';

describe('verify seed names', () => {
  const asked: string[] = [];
  let server: http.Server;
  let base = '';
  before(async () => {
    server = http.createServer((request, response) => {
      asked.push(request.url ?? '');
      const answers: Record<string, [number, string]> = {
        '/index/se/rd/serde': [200, '{"name":"serde","vers":"1.0.0","yanked":false}\n'],
        '/index/3/s/syn': [200, '{"name":"syn","vers":"2.0.0","yanked":false}\n'],
        '/proxy/github.com/!burnt!sushi/toml/@v/list': [200, 'v1.0.0\nv1.4.0\n'],
        '/proxy/github.com/pseudo/only/@v/list': [200, ''],
        '/proxy/github.com/flaky/mod/@v/list': [500, 'boom'],
      };
      const [status, body] = answers[request.url ?? ''] ?? [404, 'not found'];
      response.writeHead(status).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('reads the sparse index and the proxy version list, case-encoded, with bounded concurrency', async () => {
    const options = { cratesIndexUrl: `${base}/index/`, goProxyUrl: `${base}/proxy`, concurrency: 2, timeoutMs: 2000 };
    assert.deepEqual(await checkNames('crates', ['serde', 'syn', 'no-such-crate'], options), ['exists', 'exists', 'missing']);
    assert.deepEqual(
      await checkNames('go', ['github.com/BurntSushi/toml', 'github.com/pseudo/only', 'github.com/no/such', 'github.com/flaky/mod'], options),
      ['exists', 'exists', 'missing', 'unknown'],
      'a module with pseudo-versions only exists; a registry error is not a missing name');
    assert.ok(asked.includes('/proxy/github.com/!burnt!sushi/toml/@v/list'));
  });

  it('removes only the missing names from a seed file, keeping comments and header', () => {
    const text = '# comment\nname\tsummary\nserde\tSerialization\nno-such-crate\tNothing\nsyn\tParser\n';
    assert.equal(withoutNames(text, new Set(['No-Such-Crate'])), '# comment\nname\tsummary\nserde\tSerialization\nsyn\tParser\n');
  });
});

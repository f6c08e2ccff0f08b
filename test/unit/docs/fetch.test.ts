// Network reads of the docs capability against a loopback server: a connection the server drops before answering is
// tried once more on a new connection; a server that keeps failing is still reported as unavailable (503).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchBytes } from '../../../src/docs/fetch.ts';
import { ToolDexError } from '../../../src/errors.ts';

describe('fetchBytes', () => {
  let server: http.Server;
  let base: string;
  const seen: Record<string, number> = {};
  before(async () => {
    server = http.createServer((request, response) => {
      const count = (seen[request.url ?? ''] = (seen[request.url ?? ''] ?? 0) + 1);
      // /drops-once: the first request's connection is closed with no answer, as a stale kept-alive one is.
      if (request.url === '/always-drops' || (request.url === '/drops-once' && count === 1)) {
        request.socket.destroy();
        return;
      }
      response.end('answer');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('tries a GET once more when the connection is dropped before any answer', async () => {
    const bytes = await fetchBytes(`${base}/drops-once`, { timeoutMs: 5_000, maxBytes: 1024 });
    assert.equal(Buffer.from(bytes!).toString('utf8'), 'answer');
    assert.equal(seen['/drops-once'], 2);
  });

  it('reports a server that drops every connection as unavailable, after one more try', async () => {
    await assert.rejects(fetchBytes(`${base}/always-drops`, { timeoutMs: 5_000, maxBytes: 1024 }),
      (error: unknown) => error instanceof ToolDexError && error.status === 503 && error.code === 'upstream_unavailable');
    assert.equal(seen['/always-drops'], 2);
  });
});

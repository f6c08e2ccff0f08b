// createEmbedder with TOOLDEX_EMBEDDINGS_URL against a real HTTP server on 127.0.0.1 that speaks the OpenAI
// embeddings API (vectors = letter counts, so answers are checkable), plus the off / auto / on fallbacks.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config.ts';
import { createEmbedder, type Embedder } from '../../../src/semantic/index.ts';

interface Seen { authorization?: string; model?: string; input: string[]; dimensions?: number }

const LETTERS = 'abcdefgh';
const letterCounts = (text: string) => Array.from(LETTERS, (letter) => text.split(letter).length - 1 + 0.001);

describe('OpenAI-compatible embeddings endpoint', () => {
  const seen: Seen[] = [];
  let mode: 'ok' | 'fail' | 'short' = 'ok';
  let server: http.Server;
  let url = '';
  const logger = pino({ level: 'silent' });

  before(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      request.on('end', () => {
        const parsed = JSON.parse(body) as { model: string; input: string[]; dimensions?: number };
        seen.push({ authorization: request.headers.authorization, model: parsed.model, input: parsed.input, dimensions: parsed.dimensions });
        if (request.url !== '/v1/embeddings' || request.method !== 'POST') {
          response.writeHead(404).end();
          return;
        }
        if (mode === 'fail') {
          response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
          return;
        }
        const inputs = mode === 'short' ? parsed.input.slice(1) : parsed.input;
        // Answer in reverse order with explicit indexes, as the API allows.
        const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: letterCounts(text) })).reverse();
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const config = (extra: Record<string, string> = {}) => loadConfig({}, {
    TOOLDEX_EMBEDDINGS_URL: url, TOOLDEX_EMBEDDINGS_KEY: 'sk-test', TOOLDEX_EMBEDDINGS_MODEL: 'fake-embed', ...extra,
  });

  it('embeds through the endpoint with the key and model, in input order, normalised', async () => {
    mode = 'ok';
    const embedder = (await createEmbedder(config(), logger)) as Embedder;
    assert.ok(embedder);
    assert.equal(embedder.kind, 'remote');
    assert.equal(embedder.dimensions, LETTERS.length);
    assert.equal(embedder.id, 'remote:fake-embed:8');
    const [aa, hh] = await embedder.embed(['aa', 'hh'], 'passage');
    assert.ok(aa![0]! > 0.99 && hh![7]! > 0.99, 'vectors come back in input order and unit length');
    const last = seen.at(-1)!;
    assert.equal(last.authorization, 'Bearer sk-test');
    assert.equal(last.model, 'fake-embed');
    assert.deepEqual(last.input, ['aa', 'hh']);
  });

  it('caches query vectors: a repeated query does not reach the endpoint', async () => {
    mode = 'ok';
    const embedder = (await createEmbedder(config(), logger))!;
    const before = seen.length;
    await embedder.embed(['cache me'], 'query');
    await embedder.embed(['cache me'], 'query');
    assert.equal(seen.length, before + 1);
  });

  it('with `dimensions` configured, starts while the endpoint is down, sends them, and recovers by itself', async () => {
    mode = 'fail';
    const embedder = (await createEmbedder(config({ TOOLDEX_EMBEDDINGS_DIMENSIONS: '8' }), logger))!;
    assert.ok(embedder);
    assert.equal(embedder.dimensions, 8);
    await assert.rejects(embedder.embed(['abc'], 'passage'), /semantic_unavailable|endpoint failed/);
    mode = 'ok';
    const [vector] = await embedder.embed(['abc'], 'passage');
    assert.equal(vector!.length, 8);
    assert.equal(seen.at(-1)!.dimensions, 8);
  });

  it('rejects vectors of another size than configured', async () => {
    mode = 'ok';
    const embedder = (await createEmbedder(config({ TOOLDEX_EMBEDDINGS_DIMENSIONS: '4' }), logger))!;
    await assert.rejects(embedder.embed(['abc'], 'passage'), /a vector has 8 dimensions, expected 4/);
  });

  it('turns endpoint failures into semantic_unavailable', async () => {
    mode = 'ok';
    const embedder = (await createEmbedder(config(), logger))!;
    mode = 'fail';
    await assert.rejects(embedder.embed(['x'], 'passage'), (error: { code?: string; status?: number }) =>
      error.code === 'semantic_unavailable' && error.status === 503);
    mode = 'short';
    await assert.rejects(embedder.embed(['x', 'y'], 'passage'), /expected 2 embeddings, got 1/);
  });

  it('falls back to lexical (null) under auto when the endpoint is down at start, and fails under on', async () => {
    mode = 'fail';
    assert.equal(await createEmbedder(config(), logger), null);
    await assert.rejects(createEmbedder(config({ TOOLDEX_SEMANTIC: 'on' }), logger), /semantic_unavailable|endpoint failed/);
  });

  it('returns null when semantic ranking is off, without calling anything', async () => {
    const before = seen.length;
    assert.equal(await createEmbedder(config({ TOOLDEX_SEMANTIC: 'off' }), logger), null);
    assert.equal(seen.length, before);
  });

  it('reports a missing local model: null under auto, semantic_model_missing under on', async () => {
    const local = (mode: string) => loadConfig({}, { TOOLDEX_SEMANTIC: mode, TOOLDEX_SEMANTIC_MODEL_DIR: '/nonexistent/tooldex-model' });
    assert.equal(await createEmbedder(local('auto'), logger), null);
    await assert.rejects(createEmbedder(local('on'), logger), (error: { code?: string; message: string }) =>
      error.code === 'semantic_model_missing' && error.message.includes('npm run semantic:model'));
  });
});

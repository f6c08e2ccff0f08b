// The service foundation through the front door: health, OpenAPI, errors, formats and rate limits.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decode } from '@toon-format/toon';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';

for (const store of storeKinds()) {
  describe(`service foundation on ${store}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ store, config: { TOOLDEX_RATE_LIMIT_RPM: 40 } });
    });
    after(() => server.close());

    it('answers /healthz with the store kind once ready', async () => {
      const response = await fetch(`${server.url}/healthz`);
      assert.equal(response.status, 200);
      const body = await response.json();
      assert.equal(body.status, 'ok');
      assert.equal(body.store, store);
    });

    it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
      const doc = await (await fetch(`${server.url}/openapi.json`)).json();
      assert.equal(doc.openapi, '3.1.0');
      const params = doc.paths['/tools/search'].get.parameters.map((p: { name: string }) => p.name);
      for (const name of ['q', 'limit', 'language', 'ecosystem', 'category', 'format']) assert.ok(params.includes(name), name);
    });

    it('answers an unknown route with a JSON not_found error', async () => {
      const response = await fetch(`${server.url}/nope`);
      assert.equal(response.status, 404);
      assert.deepEqual(Object.keys((await response.json()).error).sort(), ['code', 'message', 'status']);
    });

    const badQueries: Array<[string, number, string]> = [
      ['', 422, 'invalid_query'],
      ['?q=', 422, 'invalid_query'],
      ['?q=%20%20', 422, 'invalid_query'],
      [`?q=${'x'.repeat(1001)}`, 422, 'invalid_query'],
      ['?q=zod&format=xml', 422, 'invalid_format'],
      ['?q=zod&limit=0', 422, 'invalid_limit'],
      ['?q=zod&limit=51', 422, 'invalid_limit'],
      ['?q=zod&limit=ten', 422, 'invalid_limit'],
      ['?q=zod&ecosystem=maven', 422, 'invalid_request'],
    ];
    for (const [query, status, code] of badQueries) {
      it(`rejects /tools/search${query.slice(0, 40)} with ${code}`, async () => {
        const response = await fetch(`${server.url}/tools/search${query}&format=toon`.replace('search&', 'search?'));
        assert.equal(response.status, status);
        assert.match(response.headers.get('content-type') ?? '', /application\/json/);
        const body = await response.json();
        assert.equal(body.error.code, code);
        assert.equal(body.error.status, status);
        assert.ok(body.error.message.length > 10);
      });
    }

    it('encodes the same result as json and as toon', async () => {
      const json = await (await fetch(`${server.url}/tools/search?q=schema%20validation&limit=3`)).json();
      const toonResponse = await fetch(`${server.url}/tools/search?q=schema%20validation&limit=3&format=toon`);
      assert.equal(toonResponse.headers.get('content-type'), 'text/toon; charset=utf-8');
      assert.deepEqual(decode(await toonResponse.text()), json);
    });

    it('limits requests per client with 429, Retry-After and RateLimit headers', async () => {
      let limited: Response | undefined;
      for (let i = 0; i < 60 && !limited; i++) {
        const response = await fetch(`${server.url}/tools/search?q=http`);
        assert.ok(response.headers.get('ratelimit-limit'), 'RateLimit-Limit header');
        if (response.status === 429) limited = response;
      }
      assert.ok(limited, 'the 41st request within a minute is limited');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      const body = await limited.json();
      assert.equal(body.error.code, 'rate_limited');
      assert.match(body.error.message, /40 requests per minute/);
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'health stays open');
    });
  });
}

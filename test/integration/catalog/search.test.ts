// GET /tools/search over the shipped catalog snapshot, through a real server on each store kind.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';
import { upsertTools } from '../../../src/catalog/repository.ts';
import { toSlug } from '../../../src/catalog/slug.ts';

const SEED_FIELDS = ['id', 'name', 'description', 'shortDescription', 'languages', 'frameworks', 'categories', 'slug', 'updatedAt', 'image'];

for (const store of storeKinds()) {
  describe(`directory search on ${store}`, () => {
    let server: TestServer;
    const search = async (query: string) => {
      const response = await fetch(`${server.url}/tools/search?${query}`);
      assert.equal(response.status, 200, await response.clone().text());
      return (await response.json()) as { results: Array<Record<string, unknown>> };
    };
    before(async () => {
      server = await startServer({ store });
    });
    after(() => server.close());

    it('holds the whole shipped catalog across the five ecosystems', async () => {
      const counts = await server.app.store.query<{ ecosystem: string; n: number }>(
        'select ecosystem, count(*)::int as n from tools group by ecosystem');
      const by = Object.fromEntries(counts.map((row) => [row.ecosystem, row.n]));
      assert.ok((by.npm ?? 0) >= 4000 && (by.pypi ?? 0) >= 3000, JSON.stringify(by));
      assert.ok((by.crates ?? 0) >= 300 && (by.go ?? 0) >= 300 && (by.rubygems ?? 0) >= 100, JSON.stringify(by));
    });

    it('returns the seed fields on every result, best first', async () => {
      const { results } = await search('q=schema%20validation&limit=5');
      assert.equal(results.length, 5);
      for (const result of results) {
        for (const field of SEED_FIELDS) assert.ok(field in result, `${field} missing`);
        assert.equal(result.id, result.slug);
        assert.ok(Array.isArray(result.languages) && (result.languages as string[]).length > 0);
        assert.ok(result.updatedAt === null || !Number.isNaN(Date.parse(result.updatedAt as string)));
      }
      const scores = results.map((r) => r.score as number);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    });

    it('puts the package named by the query first', async () => {
      assert.equal((await search('q=zod')).results[0]?.slug, 'npm-zod');
      assert.equal((await search('q=requests%20python')).results[0]?.slug, 'pypi-requests');
      assert.equal((await search('q=serde')).results[0]?.slug, 'crates-serde');
    });

    it('reads "in python", "for rust", "golang" as ecosystem intent', async () => {
      assert.equal((await search('q=http%20client%20in%20python')).results[0]?.ecosystem, 'pypi');
      assert.equal((await search('q=web%20framework%20for%20rust')).results[0]?.ecosystem, 'crates');
      assert.equal((await search('q=golang%20http%20router')).results[0]?.ecosystem, 'go');
      assert.equal((await search('q=ruby%20background%20jobs')).results[0]?.ecosystem, 'rubygems');
    });

    it('filters by ecosystem, language and category, and honours limit', async () => {
      const crates = await search('q=json&ecosystem=crates&limit=20');
      assert.ok(crates.results.length > 0 && crates.results.every((r) => r.ecosystem === 'crates'));
      const typed = await search('q=date&language=TypeScript&limit=20');
      assert.ok(typed.results.every((r) => (r.languages as string[]).includes('TypeScript')));
      const logging = await search('q=fast&category=logging&limit=7');
      assert.ok(logging.results.length > 0 && logging.results.length <= 7);
      assert.ok(logging.results.every((r) => (r.categories as string[]).includes('logging')));
    });

    it('answers a query that matches nothing with an empty list', async () => {
      assert.deepEqual((await search('q=qqqxxzzv%20wwwkkjj')).results, []);
    });

    it('picks up a tool written to the store (by an ingest or another instance) without a restart', async () => {
      const name = `zz-quasar-frobnicator-${store}`;
      const sizeBefore = server.app.catalog.size();
      await upsertTools(server.app.store, [{
        slug: toSlug('npm', name), ecosystem: 'npm', name, version: '1.0.0', description: 'Frobnicates quasars with zero allocations',
        shortDescription: 'Frobnicates quasars', keywords: ['quasar'], languages: ['JavaScript'], frameworks: [], categories: ['utilities'],
        license: 'MIT', homepage: null, repository: null, docsUrl: null, popularity: 0.1, downloads: null, updatedAt: null, extra: {},
      }]);
      assert.equal((await search('q=frobnicate%20quasars')).results.length, 0, 'answered from the index until it refreshes');
      assert.equal(await server.app.catalog.refresh(), true);
      assert.equal((await search('q=frobnicate%20quasars')).results[0]?.slug, toSlug('npm', name));
      assert.equal(server.app.catalog.size(), sizeBefore + 1);
    });

    it('resolves other spellings of a tool to its canonical slug, with hints when unknown', async () => {
      for (const spelling of ['zod', 'npm:zod', 'NPM-Zod', 'npm-zod']) {
        assert.equal((await server.app.catalog.resolve(spelling)).slug, 'npm-zod', spelling);
      }
      assert.equal((await server.app.catalog.resolve('@tanstack/react-query')).slug, 'npm-tanstack__react-query');
      assert.equal((await server.app.catalog.resolve('python:Requests')).slug, 'pypi-requests');
      await assert.rejects(server.app.catalog.resolve('zodd'), (error: { code: string; details: { hints: string[] } }) =>
        error.code === 'not_found' && error.details.hints.includes('npm-zod'));
    });
  });
}

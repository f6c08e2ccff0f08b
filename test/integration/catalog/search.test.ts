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
      assert.ok(Object.values(by).reduce((a, b) => a + b, 0) >= 60_000, JSON.stringify(by));
      assert.ok((by.npm ?? 0) >= 50_000 && (by.pypi ?? 0) >= 14_000, JSON.stringify(by));
      assert.ok((by.crates ?? 0) >= 2000 && (by.go ?? 0) >= 1500 && (by.rubygems ?? 0) >= 500, JSON.stringify(by));
      for (const slug of ['npm-drizzle-orm', 'crates-jiff', 'crates-pyo3', 'crates-sled', 'go-github.com__knadh__koanf__v2', 'rubygems-solid_queue']) {
        assert.ok(server.app.catalog.size() > 0 && (await server.app.catalog.resolve(slug)).slug === slug, slug);
      }
    });

    it('answers the README tour query with schema validators, zod among the first five', async () => {
      await server.app.catalog.semanticReady();
      const tour = (await search('q=validate%20typescript%20object%20schemas%20at%20runtime&limit=5')).results.map((r) => r.slug);
      // The goal is zod first; today it ranks 3rd-4th behind typebox (see docs/search.md, "Known misses"), and only the
      // semantic layer (present when `npm run semantic:model` has built the model) lifts it into the first five.
      if (server.app.catalog.semanticOn()) assert.ok(tour.includes('npm-zod'), tour.join(' '));
      const validators = ['npm-zod', 'npm-sinclair__typebox', 'npm-yup', 'npm-joi', 'npm-valibot', 'npm-ajv', 'npm-superstruct'];
      assert.ok(tour.filter((slug) => validators.includes(String(slug))).length >= 2, tour.join(' '));
      assert.ok(!tour.includes('npm-eslint__object-schema'), 'a sub-package of eslint is not an answer');
    });

    it('puts a package searched by its exact name first, not its stubs or plugins', async () => {
      assert.equal((await search('q=boto3&ecosystem=pypi')).results[0]?.slug, 'pypi-boto3');
      assert.equal((await search('q=mypy&ecosystem=pypi')).results[0]?.slug, 'pypi-mypy');
    });

    // A regression of the round-5 weights (docs/search.md, "Round 5") until round 12: for a bare name held by two
    // ecosystems, npm's `clap` (whose one line reads closer to the word) came first. Since round 12's refit without
    // popularity the crate is first again; kept as a test so that a refit that loses it again fails the suite.
    it('puts the crate first for a bare name two ecosystems share, not the npm package of the same name', async () => {
      assert.equal((await search('q=clap')).results[0]?.slug, 'crates-clap', 'the crate, not the npm package of the same name');
    });

    it('shows a family by its head, and a member when the query names it', async () => {
      const clap = (await search('q=command%20line%20argument%20parser%20for%20rust&limit=10')).results.map((r) => r.slug);
      assert.ok(clap.includes('crates-clap'), clap.join(' '));
      assert.ok(!clap.includes('crates-clap-builder') && !clap.includes('crates-clap-lex'), clap.join(' '));
      const derive = (await search('q=clap%20derive&limit=5')).results.map((r) => r.slug);
      assert.ok(derive.includes('crates-clap-derive'), derive.join(' '));
    });

    it('reads framework cues as ecosystem intent without flooding the answer with the framework', async () => {
      const rails = (await search('q=rails%20auth&limit=5')).results.map((r) => r.slug);
      assert.ok(rails.includes('rubygems-devise'), rails.join(' '));
      assert.ok(!rails.includes('rubygems-rails') && !rails.includes('rubygems-actionpack'), rails.join(' '));
      const pydantic = (await search('q=pydantic-like%20data%20validation&limit=5')).results;
      assert.ok(pydantic.every((r) => r.ecosystem === 'pypi'), pydantic.map((r) => r.slug).join(' '));
    });

    it('reads "library for sqlite" as a description, and "sqlite" alone as a name', async () => {
      await server.app.catalog.semanticReady();
      const described = (await search('q=rust%20library%20for%20sqlite&limit=5')).results.map((r) => r.slug);
      assert.ok(['crates-rusqlite', 'crates-sqlx', 'crates-diesel', 'crates-libsqlite3-sys'].includes(String(described[0])), described.join(' '));
      const named = (await search('q=sqlite&limit=3')).results;
      // A tool named sqlite (a Go module by its last path element) comes first.
      assert.equal(String(named[0]?.name).split('/').pop(), 'sqlite', named.map((r) => r.slug).join(' '));
    });

    it('keeps a package out of another project\'s family: eslint answers "lint javascript code"', async () => {
      await server.app.catalog.semanticReady();
      // A shared name prefix once chained babel, eslint and jest into one family headed by jest, and eslint vanished.
      const lint = (await search('q=lint%20javascript%20code&limit=3')).results.map((r) => r.slug);
      assert.ok(lint.includes('npm-eslint'), lint.join(' '));
    });

    it('takes the categories a query asks for from its words, not from the framework it names as context', async () => {
      await server.app.catalog.semanticReady();
      // "tokio" is async, but the query asks for an actor framework: tokio's TLS adapters are not filed as answers.
      const actors = (await search('q=tokio%20based%20actor%20framework&limit=3')).results.map((r) => r.slug);
      assert.equal(actors[0], 'crates-actix', actors.join(' '));
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
      const name = `zz-zqxvortex-frobnicator-${store}`;
      const sizeBefore = server.app.catalog.size();
      await upsertTools(server.app.store, [{
        slug: toSlug('npm', name), ecosystem: 'npm', name, version: '1.0.0', description: 'Frobnicates zqxvortexes with zero allocations',
        shortDescription: 'Frobnicates zqxvortexes', keywords: ['zqxvortex'], languages: ['JavaScript'], frameworks: [], categories: ['utilities'],
        license: 'MIT', homepage: null, repository: null, docsUrl: null, popularity: 0.1, downloads: null, updatedAt: null, extra: {},
      }]);
      assert.equal((await search('q=zqxvortex%20frobnicator')).results.length, 0, 'answered from the index until it refreshes');
      assert.equal(await server.app.catalog.refresh(), true);
      assert.equal((await search('q=zqxvortex%20frobnicator')).results[0]?.slug, toSlug('npm', name));
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

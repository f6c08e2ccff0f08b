// `tooldex docs --symbol`, `--max-tokens` and the passage flags through the bin, against a server whose npm registry is a
// loopback fixture: json equal to REST, readable human output, and the server's 422s as usage errors (exit 2).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { addTools } from '../docs/catalog-fixture.ts';
import { apiPackage, injectedPackage } from '../docs/agent-fixtures.ts';
import { startFakeRegistry, type FakeRegistry } from '../docs/fixtures.ts';
import { bin, cleanEnv, run } from '../mcp/fixtures.ts';

describe('tooldex docs --symbol / --max-tokens (fixture registry)', () => {
  let registry: FakeRegistry;
  let server: TestServer;
  const cli = (args: string[]) => run(process.execPath, [bin, ...args], { env: cleanEnv({ TOOLDEX_URL: server.url }) });
  const rest = async (path: string) => (await fetch(`${server.url}${path}`)).json();

  before(async () => {
    registry = await startFakeRegistry([
      { name: 'fx-timing', versions: { '1.0.0': apiPackage('fx-timing') } },
      { name: 'fx-injected', versions: { '1.0.0': injectedPackage('fx-injected') } },
    ]);
    server = await startServer({ config: { TOOLDEX_NPM_REGISTRY: registry.url, TOOLDEX_DOCS_SITES: 'off', TOOLDEX_RATE_LIMIT_RPM: 10_000 } });
    await addTools(server, ['fx-timing', 'fx-injected'].map((name) => ({ slug: `npm-${name}`, ecosystem: 'npm' as const, name })));
  });
  after(async () => {
    await server?.close();
    await registry?.close();
  });

  it('--symbol prints the item: json as REST (--detail full), and signature, documentation and examples for a person', async () => {
    const json = await cli(['docs', 'npm-fx-timing', '--symbol', 'fx-timing.debounce', '--detail', 'full']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), await rest('/tools/docs/npm-fx-timing?symbol=fx-timing.debounce'));
    const human = await cli(['docs', 'npm-fx-timing', '-s', 'debounce', '--format', 'human']);
    assert.equal(human.code, 0, human.stderr);
    const lines = human.stdout.split('\n');
    assert.match(lines[0]!, /^npm-fx-timing 1\.0\.0/);
    assert.equal(lines[2], 'fx-timing.debounce');
    assert.match(human.stdout, /\n {3}export declare function debounce<T extends/);
    assert.match(human.stdout, /\n {3}Creates a debounced function that delays/);
    assert.match(human.stdout, /\nexample 1 \S+index\.d\.ts#L\d+\n {3}const save = debounce\(persist, 200\);/);
  });

  it('a near miss prints the closest names (exit 0); no question and no symbol is the server\'s 422 (exit 2)', async () => {
    const miss = await cli(['docs', 'npm-fx-timing', '--symbol', 'fx-timing.debunce', '--format', 'human']);
    assert.equal(miss.code, 0, miss.stderr);
    assert.match(miss.stdout, /has no API item named "fx-timing\.debunce"/);
    assert.match(miss.stdout, /\nclosest names\n {3}fx-timing\.debounce /);
    const compact = JSON.parse((await cli(['docs', 'npm-fx-timing', '--symbol', 'fx-timing.debunce'])).stdout);
    assert.equal(compact.found, false);
    assert.deepEqual(Object.keys(compact.suggestions[0]), ['symbol', 'url']);
    const none = await cli(['docs', 'npm-fx-timing']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^tooldex: invalid_query: /);
    const both = await cli(['docs', 'npm-fx-timing', 'debounce', '--symbol', 'debounce']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /^tooldex: invalid_symbol: /);
  });

  it('--max-tokens fits docs and context answers, lists pointers after the passages, and a budget out of range exits 2', async () => {
    const path = '/tools/docs/npm-fx-timing?q=debounce%20a%20widget%20timer&maxTokens=400';
    const json = await cli(['docs', 'npm-fx-timing', 'debounce', 'a', 'widget', 'timer', '--max-tokens', '400', '--detail', 'full']);
    assert.equal(json.code, 0, json.stderr);
    const body = JSON.parse(json.stdout);
    assert.deepEqual(body, await rest(path));
    assert.ok(body.pointers.length > 0);
    const human = await cli(['docs', 'npm-fx-timing', 'debounce', 'a', 'widget', 'timer', '--max-tokens', '400', '--format', 'human']);
    const n = body.results.length;
    assert.match(human.stdout, new RegExp(`\\n${n + 1}\\. ${body.pointers[0].title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n {3}\\S+`));
    assert.match(human.stdout, /\nabout \d+ of 400 tokens\n?$/);
    const context = await cli(['context', 'npm-fx-timing', '--max-tokens', '200', '--detail', 'full']);
    assert.equal(context.code, 0, context.stderr);
    assert.equal(JSON.parse(context.stdout).budget.maxTokens, 200);
    const out = await cli(['docs', 'npm-fx-timing', 'debounce', '--max-tokens', '50']);
    assert.equal(out.code, 2);
    assert.match(out.stderr, /^tooldex: invalid_max_tokens: /);
  });

  it('labels flagged passages in the human output and carries the flags in the compact rows', async () => {
    const human = await cli(['docs', 'npm-fx-injected', 'parse', 'widget', 'files', '-n', '5', '--format', 'human']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /\d\. fx-injected › Parsing widget files\n {3}agent-directed\n/);
    const compact = JSON.parse((await cli(['docs', 'npm-fx-injected', 'parse', 'widget', 'files', '-n', '5'])).stdout) as { results: Array<{ heading: string; flags: string }> };
    assert.equal(compact.results.find((r) => r.heading.endsWith('Parsing widget files'))?.flags, 'agent-directed');
  });
});

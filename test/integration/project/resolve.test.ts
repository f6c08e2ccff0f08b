// POST /tools/resolve through the front door on both stores (issue 23): a real npm project's lockfile and manifest,
// malformed and oversized files in the error envelope, the project id scoped to its owner and expiring, and MCP.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { storeKinds } from '../../helpers/stores.ts';

const fixtures = path.join(import.meta.dirname, '../../fixtures/project');
const file = (name: string) => ({ name: path.basename(name), content: fs.readFileSync(path.join(fixtures, name), 'utf8') });

interface Dependency { slug: string; version: string | null; inCatalog: boolean; docsIndexed: boolean; latest: string | null; dev?: boolean }
interface Resolved { project: string; expiresAt: string; dependencies: Dependency[]; transitive?: Dependency[]; counts: { direct: number; transitive: number }; notes: string[] }

for (const store of storeKinds()) {
  describe(`POST /tools/resolve on ${store}`, () => {
    let server: TestServer;
    before(async () => { server = await startServer({ store }); });
    after(() => server.close());

    const resolve = (body: unknown) => fetch(`${server.url}/tools/resolve`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });

    it('answers the direct dependencies of package-lock.json at their locked versions, with catalog facts', async () => {
      const response = await resolve({ files: [file('npm/package-lock.json')] });
      assert.equal(response.status, 200);
      const body = await response.json() as Resolved;
      assert.match(body.project, /^prj_[A-Za-z0-9_-]{16}$/);
      assert.ok(Date.parse(body.expiresAt) > Date.now() + 6 * 24 * 3600_000, 'kept a week by default');
      const bySlug = new Map(body.dependencies.map((d) => [d.slug, d]));
      assert.deepEqual([...bySlug.keys()].sort(), ['npm-axios', 'npm-typescript', 'npm-zod']);
      assert.equal(bySlug.get('npm-zod')!.version, '3.25.76');
      assert.equal(bySlug.get('npm-axios')!.version, '0.27.2');
      assert.equal(bySlug.get('npm-typescript')!.dev, true);
      for (const dependency of body.dependencies) {
        assert.equal(dependency.inCatalog, true, `${dependency.slug} is in the shipped catalog`);
        assert.ok(dependency.latest, `${dependency.slug} has a newest version`);
        assert.equal(dependency.docsIndexed, false, 'nothing indexed in a fresh store');
      }
      assert.equal(body.transitive, undefined, 'transitive only on request');
      assert.ok(body.counts.transitive >= 20);
      const all = await (await resolve({ files: [file('npm/package-lock.json')], transitive: true })).json() as Resolved;
      assert.equal(all.transitive!.length, all.counts.transitive);
      assert.ok(all.transitive!.some((d) => d.slug === 'npm-follow-redirects'));
    });

    it('reads several ecosystems in one call and says what a lockfile alone cannot tell', async () => {
      const body = await (await resolve({ files: [file('yarn/yarn.lock'), file('go/go.mod'), file('python/requirements.txt')] })).json() as Resolved;
      const slugs = body.dependencies.map((d) => d.slug);
      assert.ok(slugs.includes('go-github.com__spf13__cobra'));
      assert.ok(slugs.includes('pypi-django'));
      assert.ok(!slugs.some((s) => s.startsWith('npm-')), 'yarn.lock v1 alone names no direct dependency');
      assert.match(body.notes.join(' '), /npm files sent do not say which dependencies are direct/);
    });

    it('refuses malformed and unknown files with 422 and the failing line, and oversized ones with 413', async () => {
      const broken = await resolve({ files: [{ name: 'Cargo.toml', content: '[package]\nname = "x"\n[dependencies\nserde = "1"\n' }] });
      assert.equal(broken.status, 422);
      const error = (await broken.json() as { error: { code: string; line: number; file: string; message: string } }).error;
      assert.equal(error.code, 'unreadable_project_file');
      assert.equal(error.line, 3);
      assert.equal(error.file, 'Cargo.toml');
      assert.match(error.message, /Cargo\.toml \(line 3\)/);
      const unknown = await resolve({ files: [{ name: 'build.gradle', content: 'plugins {}' }] });
      assert.equal(unknown.status, 422);
      assert.match((await unknown.json() as { error: { message: string } }).error.message, /supported: package-lock\.json/);
      for (const body of [{ files: [] }, { files: [{ name: 'go.mod' }] }, { nope: 1 }]) {
        const response = await resolve(body);
        assert.equal(response.status, 422, JSON.stringify(body));
      }
      const big = await resolve({ files: [{ name: 'requirements.txt', content: `${'# padding\n'.repeat(540_000)}requests==2.32.3\n` }] });
      assert.equal(big.status, 413);
      assert.equal((await big.json() as { error: { code: string } }).error.code, 'payload_too_large');
    });

    it('keeps a project for its owner only, and turns a bare tool name into the project\'s version', async () => {
      const body = await (await resolve({ files: [file('npm/package-lock.json')] })).json() as Resolved;
      const owner = 'ip:127.0.0.1';
      assert.equal(await server.app.projects.atProjectVersion('zod', body.project, owner), 'npm-zod@3.25.76');
      assert.equal(await server.app.projects.atProjectVersion('npm:axios', body.project, owner), 'npm-axios@0.27.2');
      assert.equal(await server.app.projects.atProjectVersion('zod@4', body.project, owner), 'zod@4', 'an explicit version wins');
      assert.equal(await server.app.projects.atProjectVersion('express', body.project, owner), 'express', 'not a dependency: unchanged');
      await assert.rejects(server.app.projects.atProjectVersion('zod', body.project, 'org:someone-else'), { code: 'project_not_found', status: 404 });
      await server.app.store.query('update projects set expires_at = now() - interval \'1 second\' where id = $1', [body.project]);
      await assert.rejects(server.app.projects.atProjectVersion('zod', body.project, owner), { code: 'project_not_found' });
    });

    it('docs and context answer at the project\'s version of a tool named without one', async () => {
      const { project } = await (await resolve({ files: [file('npm/package-lock.json')] })).json() as Resolved;
      const docs = await fetch(`${server.url}/tools/docs/zod?q=${encodeURIComponent('make a field optional')}&project=${project}`);
      assert.equal(docs.status, 200);
      assert.equal((await docs.json() as { version: string }).version, '3.25.76', 'the locked zod, not the newest');
      const context = await fetch(`${server.url}/tools/context/npm-zod?project=${project}`);
      assert.equal((await context.json() as { version: string }).version, '3.25.76');
      const unknown = await fetch(`${server.url}/tools/docs/zod?q=x&project=prj_doesnotexist0000`);
      assert.equal(unknown.status, 404);
      assert.equal((await unknown.json() as { error: { code: string } }).error.code, 'project_not_found');
      const malformed = await fetch(`${server.url}/tools/docs/zod?q=x&project=nope`);
      assert.equal(malformed.status, 422);
    });

    it('MCP resolve_project answers the same dependencies as a compact table', async () => {
      const client = new Client({ name: 'resolve-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      try {
        const result = await client.callTool({ name: 'resolve_project', arguments: { files: [file('cargo/Cargo.lock')], format: 'json' } });
        assert.equal(result.isError, undefined);
        const body = JSON.parse((result.content as { text: string }[])[0]!.text) as { project: string; dependencies: { slug: string; version: string }[] };
        assert.match(body.project, /^prj_/);
        assert.deepEqual(body.dependencies.find((d) => d.slug === 'crates-clap')?.version, '3.2.25');
      } finally {
        await client.close();
      }
    });
  });
}

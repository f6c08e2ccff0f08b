// `tooldex keys` through the front door: directly on an unheld store, through a running server's admin socket,
// a clear store_locked error when another process holds the store, and on PostgreSQL beside a running server.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { buildServer } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/log.ts';
import { startServer } from '../../helpers/server.ts';
import { freshHome, freshPostgresUrl } from '../../helpers/stores.ts';
import { search } from './dashboard-client.ts';

const bin = path.resolve(import.meta.dirname, '../../../bin/tooldex.js');
const baseEnv = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', NO_COLOR: '1' };
  delete env.DATABASE_URL;
  return env;
};

function tooldex(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function startServeProcess(home: string, extra: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...baseEnv(), TOOLDEX_HOME: home, LOG_LEVEL: 'info', TOOLDEX_AUTH: 'required', ...extra }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 120_000);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
      const address = /"address":"(http:\/\/[^"]+)".*tooldex ready/.exec(log)?.[1];
      if (address) {
        clearTimeout(timer);
        resolve(address);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
  });
  return { url, child };
}

const stop = (child: ChildProcess) => new Promise<void>((resolve) => {
  if (child.exitCode !== null) return resolve();
  child.once('exit', () => resolve());
  child.kill('SIGTERM');
});

describe('tooldex keys', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('opens the embedded store directly when no server holds it', async () => {
    const home = await freshHome();
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    const env = { ...baseEnv(), TOOLDEX_HOME: home };
    const created = await tooldex(['keys', 'create', '--org', 'acme', '--name', 'ci', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const body = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'id', 'key', 'name', 'org']);
    assert.equal(body.org, 'acme');
    assert.match(body.key, /^tdx_/);

    const listed = await tooldex(['keys', 'list', '--org', 'acme', '--format', 'human'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^ID +ORG +NAME +PREFIX +CREATED +LAST USED +STATUS\n/);
    assert.match(listed.stdout, new RegExp(`${body.id} +acme +ci +${body.key.slice(0, 10)}… .* never +active`));
    assert.ok(!listed.stdout.includes(body.key), 'listing never prints a key');
    assert.equal((await tooldex(['keys', 'list', '--org', 'nope', '--json'], env)).code, 2, 'unknown org is a usage error');
    const badId = await tooldex(['keys', 'revoke', 'nonsense'], env);
    assert.equal(badId.code, 2);
    assert.match(badId.stderr, /invalid_request/);
  });

  it('refuses with store_locked, without touching the files, while another process holds the store', async () => {
    const home = await freshHome();
    const config = loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'silent', TOOLDEX_AUTH: 'required' }, {});
    const app = await createApp(config, createLogger('silent'));
    const server = await buildServer(app);
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(async () => {
      await server.close();
      await app.close();
      fs.rmSync(home, { recursive: true, force: true });
    });
    const refused = await tooldex(['keys', 'create', '--org', 'acme', '--json'], { ...baseEnv(), TOOLDEX_HOME: home });
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /store_locked: The embedded store in .* is held by process \d+/);
    assert.equal(refused.stdout, '');
    assert.equal((await fetch(`${url}/healthz`)).status, 200, 'the holder keeps working');
  });

  it('goes through the admin socket of a running server, which sees each change at once', async () => {
    const home = await freshHome();
    const { url, child } = await startServeProcess(home);
    cleanups.push(async () => {
      await stop(child);
      fs.rmSync(home, { recursive: true, force: true });
    });
    const socket = path.join(home, 'admin.sock');
    assert.equal(fs.statSync(socket).mode & 0o777, 0o600, 'only the owner may open the socket');
    const env = { ...baseEnv(), TOOLDEX_HOME: home };
    const created = await tooldex(['keys', 'create', '--org', 'acme', '--name', 'ops', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const { id, key } = JSON.parse(created.stdout);
    assert.equal((await search(url, key)).status, 200);

    const listed = JSON.parse((await tooldex(['keys', 'list', '--json'], env)).stdout);
    assert.equal(listed.keys[0].id, id);

    const revoked = await tooldex(['keys', 'revoke', id, '--json'], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.ok(JSON.parse(revoked.stdout).revokedAt);
    assert.equal((await search(url, key)).status, 403, 'revoked on the very next request');
  });

  it('acts on PostgreSQL directly while a server runs on the same database', { skip: !process.env.TEST_DATABASE_URL }, async () => {
    const database = await freshPostgresUrl();
    const server = await startServer({ config: { DATABASE_URL: database.url, TOOLDEX_AUTH: 'required' } });
    cleanups.push(async () => {
      await server.close();
      await database.drop();
    });
    const env = { ...baseEnv(), DATABASE_URL: database.url };
    const created = await tooldex(['keys', 'create', '--org', 'pg-org', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const { id, key } = JSON.parse(created.stdout);
    assert.equal((await search(server.url, key)).status, 200);
    assert.equal((await tooldex(['keys', 'revoke', id], env)).code, 0);
    assert.equal((await search(server.url, key)).status, 403);
  });
});

// No API key, password or session token ever reaches the log, at the most verbose level, across the key's life.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import fs from 'node:fs';
import { pino } from 'pino';
import { createApp, type App } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { buildServer, type Server } from '../../../src/http/server.ts';
import { freshHome } from '../../helpers/stores.ts';
import { DashboardClient, search } from './dashboard-client.ts';

describe('secrets stay out of the log', () => {
  const lines: string[] = [];
  let app: App;
  let server: Server;
  let url: string;
  let home: string;
  before(async () => {
    home = await freshHome();
    const sink = new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } });
    const logger = pino({ level: 'trace' }, sink);
    app = await createApp(loadConfig({ TOOLDEX_HOME: home, TOOLDEX_AUTH: 'required', LOG_LEVEL: 'trace' }, {}), logger);
    server = await buildServer(app);
    url = await server.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await server.close();
    await app.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('logs requests, key creation and revocation without the key, password or cookie', async () => {
    const password = 'a very secret passphrase';
    const client = new DashboardClient(url);
    const signup = await client.signUp('logs@example.com', password);
    const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0]?.split('=')[1] ?? '';
    const orgId = await client.createOrg('Logs Org');
    const { id, key } = await client.createKey(orgId, 'logged');
    assert.equal((await search(url, key)).status, 200);
    await client.call('POST', `/dashboard/api/orgs/${orgId}/keys/${id}/revoke`);
    assert.equal((await search(url, key)).status, 403);
    await search(url, undefined, `Bearer ${key.slice(0, -1)}x`);
    await new DashboardClient(url).call('POST', '/dashboard/api/login', { email: 'logs@example.com', password: `${password}!` });

    const log = lines.join('');
    assert.ok(log.includes('API key created') && log.includes('API key revoked'), 'the events are logged');
    assert.ok(log.includes(id), 'by key id');
    for (const secret of [key, key.slice(4, 20), password, cookie, client.csrf]) {
      assert.ok(secret.length > 8);
      assert.ok(!log.includes(secret), `log contains a secret (${secret.slice(0, 6)}…)`);
    }
  });
});

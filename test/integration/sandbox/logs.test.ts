// Logs of a sandbox run name env variables but never carry a secret value (nor its encodings).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { buildServer } from '../../../src/http/server.ts';
import { secretForms } from '../../../src/sandbox/redact.ts';
import { freshHome } from '../../helpers/stores.ts';
import { file, postTest, SHARED_CACHE } from './helpers.ts';

describe('sandbox logs', () => {
  it('record env names only', async () => {
    const home = await freshHome();
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } });
    const config = loadConfig({ TOOLDEX_HOME: home, LOG_LEVEL: 'debug', TOOLDEX_SANDBOX_CACHE_DIR: SHARED_CACHE }, {});
    const app = await createApp(config, pino({ level: 'debug' }, sink));
    const server = await buildServer(app);
    const url = await server.listen({ port: 0, host: '127.0.0.1' });
    const secret = 'log-secret-value-5531';
    try {
      const reply = await postTest({ url, app, server, home, close: async () => undefined }, {
        language: 'javascript', runtime: 'node', files: [file('a.js', 'console.error(process.env.SERVICE_KEY); process.exit(2)')],
        env: [{ name: 'SERVICE_KEY', secret }, { name: 'MODE', value: 'test' }],
      });
      assert.equal(reply.body.status, 'failed_run', reply.text);
      assert.equal(reply.body.stderr, '[REDACTED]\n');
      await app.sandbox.settled();
    } finally {
      await server.close();
      await app.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
    const runLine = lines.find((line) => line.includes('"sandbox run"'));
    assert.ok(runLine, 'a log line per run');
    assert.deepEqual(JSON.parse(runLine).env, ['SERVICE_KEY', 'MODE']);
    const all = lines.join('');
    for (const form of secretForms(secret)) assert.ok(!all.includes(form), `log carries ${form}`);
  });
});

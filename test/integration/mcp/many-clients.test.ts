// Many MCP clients on one machine: several `tooldex mcp` stdio processes on one TOOLDEX_HOME, with no server
// running beforehand, all answer (one holds the store, the others connect to it), and keep answering when the
// holder exits (another takes over). Also: `tooldex mcp` beside a running `tooldex serve`, and operator commands.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freshHome } from '../../helpers/stores.ts';
import { bin, cleanEnv, run } from './fixtures.ts';

interface Editor { client: Client; transport: StdioClientTransport; stderr: () => string }

async function openEditor(home: string, name: string): Promise<Editor> {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [bin, 'mcp'], stderr: 'pipe', env: cleanEnv({ TOOLDEX_HOME: home }) as Record<string, string>,
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

const lockOf = (home: string) => JSON.parse(fs.readFileSync(`${home}/store.lock`, 'utf8')) as { pid: number; url?: string };

async function searchSlugs(editor: Editor, query: string): Promise<string[]> {
  const result = await editor.client.callTool({ name: 'search_tools', arguments: { query, limit: 3, format: 'json' } }) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  assert.equal(result.isError, undefined, `${text.slice(0, 300)}\n${editor.stderr().slice(-1000)}`);
  return (JSON.parse(text) as { results: Array<{ slug: string }> }).results.map((tool) => tool.slug);
}

async function waitFor(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  for (const started = Date.now(); !check(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() - started > ms) assert.fail(`timed out waiting for ${what}`);
  }
}

describe('three tooldex mcp processes on one TOOLDEX_HOME, no server beforehand', () => {
  let home: string;
  let editors: Editor[] = [];
  before(async () => {
    home = await freshHome();
  });
  after(async () => {
    await Promise.all(editors.map((editor) => editor.client.close().catch(() => undefined)));
    await waitFor(() => !fs.existsSync(`${home}/store.lock`), 'the store lock to be released').catch(() => undefined);
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('all three start at once and answer the same; exactly one of them holds the store', async () => {
    editors = await Promise.all(['cursor', 'claude', 'vscode'].map((name) => openEditor(home, name)));
    const answers = await Promise.all(editors.map((editor) => searchSlugs(editor, 'schema validation')));
    assert.ok(answers[0]!.length > 0);
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
    const holder = lockOf(home).pid;
    assert.equal(editors.filter((editor) => editor.transport.pid === holder).length, 1, 'the store is held by one of the three');
  });

  it('operator commands work while an MCP process holds the store (through its admin socket)', async () => {
    const listed = await run(process.execPath, [bin, 'keys', 'list', '--json'], { env: cleanEnv({ TOOLDEX_HOME: home }) });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), { keys: [] });
  });

  it('when the holder exits, the others keep answering: one of them takes the store over', async () => {
    const first = editors.find((editor) => editor.transport.pid === lockOf(home).pid)!;
    const firstPid = first.transport.pid;
    const rest = editors.filter((editor) => editor !== first);
    // The holder's stdin closes (an editor window goes away) while the others' calls are in flight: whatever the
    // holder left unanswered is resent to the next one.
    const [, ...answers] = await Promise.all([first.client.close(), ...rest.map((editor) => searchSlugs(editor, 'http client'))])
      .catch((error: Error) => assert.fail(`${error.message}\n${rest.map((editor) => editor.stderr().slice(-1500)).join('\n---\n')}`));
    editors = rest;
    assert.ok(answers[0]!.length > 0);
    assert.deepEqual(answers[1], answers[0]);
    // The answers may have come from the first holder before it left; the take-over follows its exit.
    await waitFor(() => rest.some((editor) => fs.existsSync(`${home}/store.lock`) && editor.transport.pid === lockOf(home).pid),
      'a remaining process to hold the store');
    const holder = lockOf(home).pid;
    assert.notEqual(holder, firstPid);

    // And again: the last one standing takes over from the second holder, in the same MCP session.
    const second = rest.find((editor) => editor.transport.pid === holder)!;
    const last = rest.find((editor) => editor !== second)!;
    await second.client.close();
    editors = [last];
    assert.ok((await searchSlugs(last, 'parse yaml')).length > 0);
    await waitFor(() => fs.existsSync(`${home}/store.lock`) && lockOf(home).pid === last.transport.pid, 'the last process to hold the store');
    assert.equal((await last.client.listTools()).tools.length, 6);
  });

  it('the last one releases the store and its sockets when its client closes', async () => {
    await editors[0]!.client.close();
    editors = [];
    await waitFor(() => !fs.existsSync(`${home}/store.lock`), 'the store lock to be released');
    assert.equal(fs.existsSync(`${home}/mcp.sock`), false);
    assert.equal(fs.existsSync(`${home}/admin.sock`), false);
  });
});

describe('tooldex mcp beside a running tooldex serve', () => {
  let home: string;
  let serve: ChildProcess;
  let url: string;
  before(async () => {
    home = await freshHome();
    serve = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      env: cleanEnv({ TOOLDEX_HOME: home, LOG_LEVEL: 'info' }), stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let log = '';
      serve.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const ready = /"address":"(http:[^"]+)"[^\n]*tooldex ready/.exec(log);
        if (ready) resolve(ready[1]!);
      });
      serve.once('exit', (code) => reject(new Error(`tooldex serve exited ${code}: ${log.slice(-1000)}`)));
    });
  });
  after(async () => {
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve.once('exit', resolve));
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('connects to the server that holds the store (its MCP socket) and answers as its REST API does', async () => {
    const editor = await openEditor(home, 'beside-serve');
    try {
      const result = await editor.client.callTool({ name: 'search_tools', arguments: { query: 'zod', format: 'json', detail: 'full' } }) as CallToolResult;
      assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), await (await fetch(`${url}/tools/search?q=zod`)).json());
      assert.notEqual(lockOf(home).pid, editor.transport.pid, 'the server keeps the store');
    } finally {
      await editor.client.close();
    }
  });
});

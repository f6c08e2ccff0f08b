// Pending is explicit: while verification runs, a context offers at most one candidate, labelled unverified, and only
// one that could run as shown and exit by itself (servers, endless loops, transcripts, placeholders and fragments are
// withheld). Real tree-sitter parses; no network.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withVerification } from '../../../src/docs/context.ts';
import type { ToolContext } from '../../../src/docs/schema.ts';
import { neverExits } from '../../../src/quickstart/exits.ts';
import { withheldBecause } from '../../../src/quickstart/offer.ts';

describe('programs that cannot exit', () => {
  const cases: Array<[string, Parameters<typeof neverExits>[1], RegExp | undefined]> = [
    ["const net = require('net');\nconst server = net.createServer((s) => s.pipe(s));\nserver.listen(1337, '127.0.0.1');", 'javascript', /runs a server: server\.listen/],
    ["// app.listen(3000) is how you would serve it\nconsole.log(add(1, 2));", 'javascript', undefined],
    ["const s = 'app.listen(3000)';\nconsole.log(s);", 'javascript', undefined],
    ['while (true) { poll(); }', 'javascript', /loops forever/],
    ['while (true) { if (poll()) break; }', 'javascript', undefined],
    // The break belongs to the inner loop: the outer one still never ends.
    ['for (;;) { for (const a of b) { break; } }', 'javascript', /loops forever/],
    ['setInterval(() => console.log(Date.now()), 1000);', 'javascript', /setInterval/],
    ['const t = setInterval(tick, 10);\nsetTimeout(() => clearInterval(t), 50);', 'javascript', undefined],
    ['while True:\n    print(read())\n', 'python', /loops forever/],
    ['while True:\n    if done():\n        break\n', 'python', undefined],
    ['app = Flask(__name__)\napp.run(debug=True)\n', 'python', /runs a server/],
    ["uvicorn.run(app, host='0.0.0.0', port=8000)\n", 'python', /runs a server/],
    ['import asyncio\nasyncio.run(main())\n', 'python', undefined],
    ['package main\nfunc main() {\n\thttp.ListenAndServe(":8080", nil)\n}', 'go', /ListenAndServe/],
    ['package main\nfunc main() {\n\tfor {\n\t\tstep()\n\t}\n}', 'go', /loops forever/],
    ['package main\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tstep()\n\t}\n}', 'go', undefined],
    ['package main\nfunc main() {\n\tr := gin.Default()\n\tr.Run()\n}', 'go', /r\.Run/],
    ['package main\nfunc main() {\n\tselect {}\n}', 'go', /select/],
    ['package main\nfunc main() {\n\tcmd.Run()\n}', 'go', undefined],
    ['fn main() { loop { println!("x"); } }', 'rust', /loops forever/],
    ['fn main() { loop { if done() { break; } } }', 'rust', undefined],
  ];
  for (const [code, grammar, expected] of cases) {
    it(`${grammar}: ${code.split('\n').slice(-2).join(' ').slice(0, 60)}`, async () => {
      const why = await neverExits(code, grammar);
      if (expected) assert.match(why ?? '', expected);
      else assert.equal(why, undefined);
    });
  }
});

describe('what a pending context may offer', () => {
  it('withholds the kinds an agent was handed while verification ran', async () => {
    assert.match(await withheldBecause('npm', "const server = net.createServer((socket) => socket.pipe(socket));\nserver.listen(1337);", 'javascript', 'index.cjs') ?? '', /server/);
    assert.match(await withheldBecause('npm', "import got from 'got';\nconst options = { /* stuff */ };\nawait got('x', options);", 'javascript', 'index.mjs') ?? '', /body to the reader/);
    assert.match(await withheldBecause('pypi', '>>> import requests\n>>> requests.codes.ok\n200', 'python', 'main.py') ?? '', /transcript/);
    assert.match(await withheldBecause('go', 'type Association struct {\n\tDB *DB\n}', 'go', 'main.go') ?? '', /fragment/);
    assert.match(await withheldBecause('npm', 'Papa.unparse(data[, config])', 'javascript', 'index.mjs') ?? '', /does not parse/);
  });

  it('offers a whole program that exits', async () => {
    assert.equal(await withheldBecause('npm', "import isNumber from 'is-number';\n\nconsole.log(isNumber(5));\n", 'javascript', 'index.mjs'), undefined);
    assert.equal(await withheldBecause('pypi', 'import six\nprint(six.PY3)\n', 'python', 'main.py'), undefined);
  });
});

describe('the pending answer', () => {
  const context: ToolContext = {
    slug: 'npm-demo', name: 'demo', ecosystem: 'npm', version: '1.0.0', latestVersion: '1.0.0', description: '', license: null,
    links: { docs: null, repository: null, homepage: null, registry: 'r' }, install: [], imports: [],
    quickstart: { code: 'server.listen(3000)', language: 'js', source: 'README#L1' }, entryPoints: [], typesIncluded: null, requirements: {},
    testRequest: { runtime: 'node', files: [{ path: 'index.mjs', code: 'server.listen(3000)' }] },
  };
  const row = { status: 'pending' as const, attempts: 0, error: null };

  it('offers the verifier\'s preview, labelled unverified', () => {
    const preview = { verified: { status: 'pending' as const }, quickstart: { code: 'console.log(1)', language: 'javascript', source: 'README#L9' }, testRequest: { runtime: 'node' as const, language: 'javascript', files: [{ path: 'index.mjs', code: 'console.log(1)' }], packages: [], slug: 'npm-demo', env: [], timeoutMs: 30_000 }, tried: [] };
    const out = withVerification(context, { ...row, result: preview }, { waitedMs: 2000 });
    assert.equal(out.quickstart?.verified?.status, 'pending');
    assert.equal(out.quickstart?.verified?.offer, 'unverified');
    assert.equal(out.quickstart?.code, 'console.log(1)');
    assert.deepEqual(out.testRequest, preview.testRequest);
    assert.match(out.quickstart?.verified?.reason ?? '', /waited 2000 ms.*has not run yet/);
  });

  it('offers nothing when the docs\' example was withheld and there is no preview yet', () => {
    const out = withVerification(context, { ...row, result: null }, { docsExampleWithheld: 'runs a server' });
    assert.equal(out.quickstart?.code, '');
    assert.equal(out.testRequest, null);
    assert.equal(out.quickstart?.verified?.offer, 'none');
    assert.match(out.quickstart?.verified?.reason ?? '', /not offered: runs a server/);
  });

  it('labels a verdict: the program that ran is verified, a failed one unverified', () => {
    const request = { runtime: 'node' as const, language: 'javascript', files: [], packages: [], slug: 'npm-demo', env: [], timeoutMs: 30_000 };
    const ran = withVerification(context, { status: 'ran', attempts: 1, error: null, result: { verified: { status: 'ran' }, quickstart: { code: 'a', language: 'javascript', source: 's' }, testRequest: request, tried: [] } });
    assert.equal(ran.quickstart?.verified?.offer, 'verified');
    const failed = withVerification(context, { status: 'failed', attempts: 1, error: null, result: { verified: { status: 'failed', reason: 'x' }, quickstart: { code: 'a', language: 'javascript', source: 's' }, testRequest: request, tried: [] } });
    assert.equal(failed.quickstart?.verified?.offer, 'unverified');
  });

  it('hands out the import lines the verification proved load, not the docs\' guess', () => {
    const guessed = { ...context, imports: ["import luxon from 'luxon';"] };
    const result = { verified: { status: 'failed' as const, reason: 'x' }, quickstart: null, testRequest: null, tried: [], imports: ["import { DateTime } from 'luxon';"] };
    assert.deepEqual(withVerification(guessed, { status: 'failed', attempts: 1, error: null, result }).imports, ["import { DateTime } from 'luxon';"]);
    assert.deepEqual(withVerification(guessed, { status: 'failed', attempts: 1, error: null, result: { ...result, imports: undefined } }).imports, ["import luxon from 'luxon';"]);
  });
});

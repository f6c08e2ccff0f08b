// Network examples verified offline (real sandbox, real registries): requests' README example, its URL pointed at the
// local stand-in, runs with the sandbox's network off and shows the client at work; and the bench's import-line check
// runs each line verbatim, telling a line that loads from one that fails (luxon has no default export).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeProgram } from '../../../src/quickstart/programs/index.ts';
import { localWebVariants } from '../../../src/quickstart/local-web.ts';
import { importLinesCheck, readImportLinesCheck } from '../../../src/quickstart/import-check.ts';
import { readHostFacts } from '../../../src/quickstart/host-facts.ts';
import { blockersOf } from '../../../src/quickstart/score.ts';
import { SERVICE_OWNER } from '../../../src/quickstart/verify.ts';
import type { Candidate, PackageInfo } from '../../../src/quickstart/types.ts';
import type { TestServer } from '../../helpers/server.ts';
import { startSandboxServer } from '../sandbox/helpers.ts';

describe('network examples against a local stand-in, import lines run', () => {
  let server: TestServer;
  before(async () => { server = await startSandboxServer({ TOOLDEX_QUICKSTART_VERIFY: 'off' }); });
  after(async () => server?.close());

  it('runs requests\' README example offline: status, content type and the echoed request', async () => {
    const readme: Candidate = {
      code: ">>> import requests\n>>> r = requests.get('https://api.github.com/user', auth=('user', 'pass'), params={'page': 2})\n>>> r.status_code\n200\n>>> r.headers['content-type']\n'application/json'\n>>> r.json()['args']\n{}",
      language: 'pycon', origin: 'readme', path: 'README.md', source: 'README.md',
    };
    const [variant] = await localWebVariants([readme], 'pypi', blockersOf);
    assert.ok(variant);
    const info: PackageInfo = { ecosystem: 'pypi', name: 'requests', slug: 'pypi-requests', version: '2.32.3', importName: 'requests' };
    const host = await readHostFacts(await server.app.sandbox.toolchains());
    const program = await makeProgram(variant, info, host);
    assert.match(program.note ?? '', /local stand-in/);
    assert.equal(program.request.files.length, 2);
    const result = await server.app.sandbox.run(program.request, SERVICE_OWNER);
    assert.equal(result.status, 'ran', result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines[0], '200');
    assert.equal(lines[1], "'application/json'");
    assert.equal(lines[2], "{'page': '2'}");
  });

  it('tells an import line that loads from one that fails, each run verbatim', async () => {
    const lines = ["import { DateTime } from 'luxon';", "import luxon from 'luxon';", "const luxon = require('luxon');"];
    const result = await server.app.sandbox.run(importLinesCheck('npm', { name: 'luxon', version: '3.7.2', slug: 'npm-luxon' }, lines), SERVICE_OWNER);
    const verdicts = readImportLinesCheck(result.stdout, lines.length);
    assert.deepEqual(verdicts.map((v) => v?.ok), [true, false, true], result.stdout + result.stderr);
    assert.match(verdicts[1]!.detail!, /default/);
    const py = await server.app.sandbox.run(importLinesCheck('pypi', { name: 'idna', version: '3.10', slug: 'pypi-idna' }, ['import idna', 'from idna import nothing_here']), SERVICE_OWNER);
    assert.deepEqual(readImportLinesCheck(py.stdout, 2).map((v) => v?.ok), [true, false], py.stdout + py.stderr);
  });
});

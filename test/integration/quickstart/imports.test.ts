// Import lines handed out are verified: the probe run reports an npm package's real exports (real sandbox, real
// registry), the lines derived from it load, and a program's own import lines are read from its parse.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { npmExportsProbe, npmImportLines, programImportLines, readNpmExports } from '../../../src/quickstart/imports.ts';
import { SERVICE_OWNER } from '../../../src/quickstart/verify.ts';
import { nodeProgram } from '../../../src/quickstart/programs/node.ts';
import type { TestServer } from '../../helpers/server.ts';
import { startSandboxServer } from '../sandbox/helpers.ts';

describe('verified import lines', () => {
  let server: TestServer;
  before(async () => { server = await startSandboxServer({ TOOLDEX_QUICKSTART_VERIFY: 'off' }); });
  after(async () => server?.close());

  it('luxon has no default export: the probe says so, and the lines derived from it load', async () => {
    const info = { name: 'luxon', version: '3.7.2', slug: 'npm-luxon' };
    const probe = await server.app.sandbox.run(npmExportsProbe(info), SERVICE_OWNER);
    assert.equal(probe.status, 'ran', probe.stderr);
    const exports = readNpmExports(probe.stdout)!;
    assert.equal(exports.esm?.default, false);
    assert.ok(exports.esm?.named.includes('DateTime'));
    // Node imports luxon's ES build: its default is not require()'s module.exports.
    assert.notEqual(exports.commonjs, true);
    const lines = await npmImportLines('luxon', exports, 'const dt = DateTime.now();\nconsole.log(dt.year);');
    assert.deepEqual(lines, ["import { DateTime } from 'luxon';", "const luxon = require('luxon');"]);
    // Each line, run as its own module kind, loads.
    for (const [line, path] of [[lines[0]!, 'index.mjs'], [lines[1]!, 'index.cjs']] as const) {
      const run = await server.app.sandbox.run({ language: 'javascript', runtime: 'node', files: [{ path, code: `${line}\nconsole.log('loaded');\n` }], packages: ['luxon@3.7.2'], slug: 'npm-luxon', env: [], timeoutMs: 30_000 }, SERVICE_OWNER);
      assert.equal(run.stdout.trim(), 'loaded', `${line}: ${run.stderr}`);
    }
  });

  it('a CommonJS package (module.exports = a function not named like the package): the probe says so, and a README call of it becomes a default import that runs', async () => {
    const info = { name: 'currency.js', version: '2.0.4', slug: 'npm-currency.js' };
    const probe = await server.app.sandbox.run(npmExportsProbe(info), SERVICE_OWNER);
    assert.equal(probe.status, 'ran', probe.stderr);
    const exports = readNpmExports(probe.stdout)!;
    assert.equal(exports.commonjs, true);
    assert.ok(!exports.esm?.named.includes('currency'));
    const readme = 'console.log(currency(2.51).add(.01).value);';
    // Without the probe's facts the bare call is imported by name, which Node refuses for a CommonJS module.
    const blind = await nodeProgram(readme, 'js', 'currency.js', 'commonjs');
    assert.match(blind.code, /^import \{ currency \} from 'currency\.js';$/m);
    const made = await nodeProgram(readme, 'js', 'currency.js', 'commonjs', { kind: 'named' }, {}, [], { exports });
    assert.match(made.code, /^import currency from 'currency\.js';$/m);
    for (const [program, expected] of [[blind, /Named export 'currency' not found/], [made, /^2\.52$/]] as const) {
      const run = await server.app.sandbox.run({ language: 'javascript', runtime: 'node', files: [{ path: program.path, code: program.code }], packages: ['currency.js@2.0.4'], slug: 'npm-currency.js', env: [], timeoutMs: 30_000 }, SERVICE_OWNER);
      assert.match(`${run.stdout.trim()}${run.stderr}`, expected, run.stderr);
    }
  });

  it('reads the package\'s import lines of a program that ran', async () => {
    assert.deepEqual(await programImportLines({ ecosystem: 'npm', name: 'zod', importName: 'zod' }, "import { z } from 'zod';\nimport fs from 'node:fs';\nconst x = z.string();", 'javascript', 'index.mjs'), ["import { z } from 'zod';"]);
    assert.deepEqual(await programImportLines({ ecosystem: 'pypi', name: 'pandas', importName: 'pandas' }, 'import pandas as pd\nimport os\nfrom pandas.api import types\nprint(pd.DataFrame())', 'python'), ['import pandas as pd', 'from pandas.api import types']);
    // The doctest prelude's alias is tooldex's scaffolding, not an import line to hand out.
    assert.deepEqual(await programImportLines({ ecosystem: 'pypi', name: 'numpy', importName: 'numpy' }, 'import numpy.ma as _module\nglobals().update(vars(_module))\nimport numpy as np\nprint(np.ma.masked_array([1]))', 'python'), ['import numpy as np']);
    assert.deepEqual(await programImportLines({ ecosystem: 'go', name: 'github.com/google/uuid', importName: 'github.com/google/uuid' }, 'package main\n\nimport (\n\t"fmt"\n\t"github.com/google/uuid"\n)\n\nfunc main() { fmt.Println(uuid.New()) }', 'go'), ['import "github.com/google/uuid"']);
  });
});

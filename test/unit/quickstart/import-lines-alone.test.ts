// Import lines read from a program that ran with other packages beside the package (src/quickstart/verify.ts
// importLinesAlone): they are run alone, verbatim, and a line that needs the other packages is not handed out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importLinesAlone } from '../../../src/quickstart/verify.ts';
import type { PackageInfo } from '../../../src/quickstart/types.ts';
import type { TestRequest, TestResult } from '../../../src/sandbox/schema.ts';

const info = (ecosystem: 'pypi' | 'npm', name: string): PackageInfo => ({ ecosystem, name, slug: `${ecosystem}-${name}`, version: '2.0.0', importName: name.replace(/-/g, '_') } as PackageInfo);

function sandbox(stdout: (request: TestRequest) => string) {
  const requests: TestRequest[] = [];
  return {
    requests,
    deps: {
      keepAlive: async () => true,
      sandbox: { run: async (request: TestRequest) => { requests.push(request); return { status: 'ran', stdout: stdout(request), stderr: '', exitCode: 0 } as unknown as TestResult; } },
    },
  };
}

describe('import lines of a program that ran with other packages', () => {
  it('PyPI: a submodule line that needs the other package is dropped; the package is installed alone, at the version that ran', async () => {
    const box = sandbox(() => 'tooldex-import-line 0 fail ModuleNotFoundError No module named \'numpy\'\ntooldex-import-line 1 ok\n');
    const out = await importLinesAlone(box.deps, info('pypi', 'tensor-files'), ['from tensor_files.numpy import save_file', 'import tensor_files'], ['tensor-files==1.5.0', 'numpy']);
    assert.deepEqual(out.lines, ['import tensor_files']);
    assert.deepEqual(box.requests[0]?.packages, ['tensor-files==1.5.0']);
    assert.match(out.tried?.detail ?? '', /tensor_files\.numpy/);
  });

  it('npm: a scoped package with a helper beside it; lines whose check did not report are kept', async () => {
    const box = sandbox(() => 'tooldex-import-line 0 ok\n');
    const out = await importLinesAlone(box.deps, info('npm', '@scope/lib'), ["import { a } from '@scope/lib'", "const b = require('@scope/lib/b')"], ['@scope/lib@3.1.0', 'react@18']);
    assert.deepEqual(out.lines, ["import { a } from '@scope/lib'", "const b = require('@scope/lib/b')"]);
    assert.deepEqual(box.requests[0]?.packages, ['@scope/lib@3.1.0']);
  });

  it('no run when the program ran with the package alone, or for crates and Go', async () => {
    const box = sandbox(() => '');
    assert.deepEqual((await importLinesAlone(box.deps, info('pypi', 'tensor-files'), ['import tensor_files'], ['tensor_files==1.5.0'])).lines, ['import tensor_files']);
    const go = { ...info('pypi', 'x'), ecosystem: 'go' } as PackageInfo;
    assert.deepEqual((await importLinesAlone(box.deps, go, ['import "x"'], ['x', 'y'])).lines, ['import "x"']);
    assert.equal(box.requests.length, 0);
  });
});

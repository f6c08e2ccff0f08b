// `tooldex doctor` reports the C/C++ build tools package build scripts call inside a sandbox (the host's /usr, read-only):
// a fake /usr with some of them, libclang-cpp (not what bindgen loads) beside a missing libclang, then libclang added.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTools } from '../../../src/sandbox/doctor.ts';

describe('doctor: build tools', () => {
  it('finds programs in bin and libclang under lib/llvm-*/lib; libclang-cpp is not libclang; m4 missing is reported', () => {
    const usr = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-usr-'));
    try {
      for (const file of ['bin/cc', 'bin/c++', 'bin/make', 'bin/m4.sh', 'lib/llvm-14/lib/libclang-cpp.so.14']) {
        fs.mkdirSync(path.dirname(path.join(usr, file)), { recursive: true });
        fs.writeFileSync(path.join(usr, file), '');
      }
      const found = () => Object.fromEntries(buildTools(usr).map((tool) => [tool.name, tool.found]));
      assert.deepEqual(found(), {
        cc: path.join(usr, 'bin/cc'), 'c++': path.join(usr, 'bin/c++'), make: path.join(usr, 'bin/make'),
        cmake: null, m4: null, 'pkg-config': null, perl: null, libclang: null,
      });
      assert.match(buildTools(usr).find((tool) => tool.name === 'm4')?.usedBy ?? '', /GMP/);
      fs.writeFileSync(path.join(usr, 'lib/llvm-14/lib/libclang.so.1'), '');
      assert.equal(found().libclang, path.join(usr, 'lib/llvm-14/lib/libclang.so.1'));
    } finally {
      fs.rmSync(usr, { recursive: true, force: true });
    }
  });
  it('an absent /usr reports every tool missing, without throwing', () => {
    assert.ok(buildTools(path.join(os.tmpdir(), 'tooldex-no-such-usr')).every((tool) => tool.found === null));
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildsFor, constraintHolds, documentedFiles } from '../../../src/docs/extract/go-build.ts';

const linux = { goos: 'linux', goarch: 'amd64' };
const windows = { goos: 'windows', goarch: 'amd64' };

describe('Go build constraints', () => {
  it('evaluates //go:build expressions with !, &&, || and parentheses', () => {
    assert.equal(constraintHolds('linux && amd64', linux), true);
    assert.equal(constraintHolds('linux && arm64', linux), false);
    assert.equal(constraintHolds('darwin || linux', linux), true);
    assert.equal(constraintHolds('!windows', linux), true);
    assert.equal(constraintHolds('!windows', windows), false);
    assert.equal(constraintHolds('(linux || freebsd) && !386', linux), true);
    assert.equal(constraintHolds('unix && go1.21', linux), true);
    assert.equal(constraintHolds('ignore', linux), false);
    assert.equal(constraintHolds('purego || !amd64', linux), false);
  });

  it('reads platform suffixes of file names as go build does', () => {
    assert.equal(buildsFor('unix/zerrors_linux_amd64.go', 'package unix', linux), true);
    assert.equal(buildsFor('unix/zerrors_linux_arm64.go', 'package unix', linux), false);
    assert.equal(buildsFor('unix/syscall_darwin.go', 'package unix', linux), false);
    assert.equal(buildsFor('unix/asm_amd64.go', 'package unix', linux), true);
    assert.equal(buildsFor('linux.go', 'package x', windows), true, 'a name that is only a platform is no constraint');
    assert.equal(buildsFor('cpu/cpu.go', '//go:build !windows\n\npackage cpu', windows), false);
    assert.equal(buildsFor('cpu/_skip.go', 'package cpu', linux), false);
  });

  it('documents each package for the first platform it builds for: linux/amd64, else windows/amd64, …', () => {
    const files: Array<[string, string]> = [
      ['unix/syscall.go', '//go:build unix\n\npackage unix'],
      ['unix/zerrors_linux_amd64.go', 'package unix'],
      ['unix/zerrors_darwin_arm64.go', 'package unix'],
      ['unix/zerrors_openbsd_386.go', 'package unix'],
      ['windows/syscall_windows.go', 'package windows'],
      ['windows/types_windows_amd64.go', 'package windows'],
      ['windows/types_windows_arm64.go', 'package windows'],
      ['plan9/const_plan9.go', 'package plan9'],
    ];
    assert.deepEqual(documentedFiles(files).map(([file]) => file), [
      'unix/syscall.go', 'unix/zerrors_linux_amd64.go',
      'windows/syscall_windows.go', 'windows/types_windows_amd64.go',
      'plan9/const_plan9.go', // builds for none of the four: kept whole rather than lost
    ]);
  });
});

// Which archive files are documentation: a repository's own meta files (SECURITY.md, the policy for reporting a
// vulnerability; LICENSE; CONTRIBUTING) stay out, but a security page inside a docs folder is a guide written for the
// package's users (how to deploy it safely) and is read like any other page of that folder.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isDocFile } from '../../../src/docs/sources/types.ts';

describe('documentation files', () => {
  it('keeps security pages of a docs folder and leaves the repository policy file out', () => {
    assert.ok(isDocFile('docs/howto/security.rst', /\.py$/));
    assert.ok(isDocFile('doc/security-considerations.md', /\.py$/));
    assert.ok(isDocFile('documentation/guides/Security.md', /\.rs$/));
    assert.ok(!isDocFile('SECURITY.md', /\.py$/));
    assert.ok(!isDocFile('.github/SECURITY.md', /\.py$/));
    assert.ok(!isDocFile('src/security.md', /\.py$/), 'outside a docs folder the name is the policy file');
  });

  it('leaves the other meta files out even inside a docs folder', () => {
    for (const path of ['docs/changelog.rst', 'docs/license.rst', 'docs/contributing.md', 'docs/authors.rst', 'docs/history.md']) {
      assert.ok(!isDocFile(path, /\.py$/), path);
    }
  });
});

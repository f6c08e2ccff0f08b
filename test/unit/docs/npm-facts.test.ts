// npm manifest facts for the context: repository spellings, entry points from `exports`, types, engines.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { npmFacts, repositoryUrl } from '../../../src/docs/sources/npm.ts';

describe('repositoryUrl', () => {
  const table: Array<[string, string]> = [
    ['vercel/ms', 'https://github.com/vercel/ms'],
    ['github:user/repo', 'https://github.com/user/repo'],
    ['gitlab:group/proj', 'https://gitlab.com/group/proj'],
    ['git+https://github.com/colinhacks/zod.git', 'https://github.com/colinhacks/zod'],
    ['git+ssh://git@github.com/tj/commander.js.git', 'https://github.com/tj/commander.js'],
    ['git@github.com:sindresorhus/ky.git', 'https://github.com/sindresorhus/ky'],
  ];
  for (const [spec, url] of table) it(`${spec} → ${url}`, () => assert.equal(repositoryUrl(spec), url));
});

describe('npmFacts', () => {
  it('lists export subpaths and bins, detects types in exports, keeps engines', () => {
    const facts = npmFacts({
      type: 'module', exports: { '.': { types: './index.d.ts', import: './index.js' }, './sub': './sub.js', './package.json': './package.json' },
      bin: { tool: 'cli.js' }, engines: { node: '>=18' }, license: 'MIT', repository: { url: 'git+https://github.com/a/b.git' },
    }, []);
    assert.deepEqual(facts.entryPoints, ['.', './sub', './package.json', 'bin:tool']);
    assert.equal(facts.typesIncluded, true);
    assert.deepEqual(facts.requirements, { node: '>=18' });
    assert.equal(facts.moduleType, 'module');
    assert.equal(facts.repository, 'https://github.com/a/b');
  });
  it('falls back to main and finds a bundled index.d.ts', () => {
    const facts = npmFacts({ main: './index.js' }, ['index.d.ts']);
    assert.deepEqual(facts.entryPoints, ['.']);
    assert.equal(facts.typesIncluded, true);
    assert.equal(facts.moduleType, 'commonjs');
  });
});

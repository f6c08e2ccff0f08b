// Lockfile and manifest parsing (issue 23): each format's direct dependencies with their exact versions, what a
// manifest adds to its lockfile, and malformed files answered with the line that failed. The npm, bun, Cargo and Go
// fixtures were written by the real tools (npm 10, bun 1.4, cargo, go mod tidy); the others follow their documented
// formats.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { combine, parseFile } from '../../../src/project/parse.ts';
import { ManifestError, type LockedDependency } from '../../../src/project/types.ts';

const fixtures = path.join(import.meta.dirname, '../../fixtures/project');
const read = (file: string) => fs.readFileSync(path.join(fixtures, file), 'utf8');
const pins = (list: LockedDependency[] | undefined) => Object.fromEntries((list ?? []).map((d) => [d.name, d.version]));
const failsAt = (file: string, text: string, line: number) => assert.throws(() => parseFile(file, text), (error: unknown) => {
  assert.ok(error instanceof ManifestError, String(error));
  assert.equal(error.line, line, error.message);
  return true;
});

test('package-lock.json v3: direct dependencies at their installed versions, dev marked, transitive listed', () => {
  const parsed = parseFile('package-lock.json', read('npm/package-lock.json'));
  assert.equal(parsed.format, 'package-lock.json v3');
  assert.deepEqual(pins(parsed.direct), { zod: '3.25.76', axios: '0.27.2', typescript: '5.4.5' });
  assert.equal(parsed.direct!.find((d) => d.name === 'typescript')!.dev, true);
  assert.equal(parsed.direct!.find((d) => d.name === 'zod')!.requested, '^3.23.0');
  assert.ok(parsed.locked!.some((d) => d.name === 'follow-redirects'), 'axios 0.27 brings follow-redirects');
});

test('package-lock.json v1 and broken JSON are refused with a line', () => {
  failsAt('package-lock.json', '{"lockfileVersion": 1, "dependencies": {}}', 1);
  failsAt('package-lock.json', '{\n  "lockfileVersion": 3,\n  "packages": {,\n}', 3);
});

test('bun.lock (JSON with trailing commas): direct dependencies from the root workspace', () => {
  const parsed = parseFile('bun.lock', read('bun/bun.lock'));
  assert.deepEqual(pins(parsed.direct), { axios: '0.27.2', zod: '3.25.76', typescript: '5.4.5' });
  failsAt('bun.lock', '{\n "workspaces": {\n  "": { "dependencies": { "a": } }\n }\n}', 3);
});

test('pnpm-lock.yaml v9: peer suffixes stripped, workspace links left out', () => {
  const parsed = parseFile('pnpm-lock.yaml', read('pnpm/pnpm-lock.yaml'));
  assert.deepEqual(pins(parsed.direct), { '@tanstack/react-query': '5.59.16', react: '18.3.1', vitest: '2.1.4' });
  assert.deepEqual(pins(parsed.locked)['@tanstack/query-core'], '5.59.16');
});

test('pnpm-lock.yaml v5: top-level dependencies with specifiers, `/name/version` package keys', () => {
  const parsed = parseFile('pnpm-lock.yaml', read('pnpm/pnpm-lock.v5.yaml'));
  assert.deepEqual(pins(parsed.direct), { lodash: '4.17.21', typescript: '4.9.5' });
  assert.equal(parsed.direct!.find((d) => d.name === 'lodash')!.requested, '^4.17.21');
  assert.deepEqual(pins(parsed.locked), { lodash: '4.17.21', typescript: '4.9.5' });
  failsAt('pnpm-lock.yaml', "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies: [unclosed\n", 5);
});

test('yarn.lock v1 needs package.json for what is direct; with it, each range meets its locked version', () => {
  const alone = combine([parseFile('yarn.lock', read('yarn/yarn.lock'))]);
  assert.deepEqual(alone.directUnknown, ['npm']);
  const both = combine([parseFile('yarn.lock', read('yarn/yarn.lock')), parseFile('package.json', read('yarn/package.json'))]);
  assert.deepEqual(pins(both.direct), { express: '4.19.2', chalk: '5.3.0', '@babel/code-frame': '7.24.7' });
  assert.ok(both.transitive.some((d) => d.name === 'chalk' && d.version === '4.1.2'), 'the other chalk is transitive');
});

test('yarn.lock berry: the project workspace names the direct dependencies', () => {
  const project = combine([parseFile('yarn.lock', read('yarn/yarn.berry.lock'))]);
  assert.deepEqual(pins(project.direct), { react: '18.3.1', zod: '3.23.8', typescript: '5.6.3' });
});

test('poetry.lock with pyproject.toml: Poetry dependencies, python and path dependencies left out', () => {
  const project = combine([parseFile('poetry.lock', read('python/poetry.lock')), parseFile('pyproject.toml', read('python/pyproject.toml'))]);
  assert.deepEqual(pins(project.direct), { pydantic: '1.10.18', requests: '2.32.3', pytest: null });
  assert.deepEqual(project.transitive.map((d) => d.name).sort(), ['certifi', 'typing-extensions']);
});

test('uv.lock: the editable root package names the direct dependencies', () => {
  const parsed = parseFile('uv.lock', read('python/uv.lock'));
  assert.deepEqual(pins(parsed.direct), { httpx: '0.27.2', sqlalchemy: '1.4.54', sniffio: '1.3.1' });
  assert.equal(parsed.direct!.find((d) => d.name === 'sniffio')!.dev, true);
  failsAt('uv.lock', 'version = 1\n[[package]]\nname = "x\n', 3);
});

test('Pipfile.lock with Pipfile; requirements.txt pins, ranges, options and URLs', () => {
  const project = combine([parseFile('Pipfile.lock', read('python/Pipfile.lock')), parseFile('Pipfile', read('python/Pipfile'))]);
  assert.deepEqual(pins(project.direct), { flask: '3.0.3', pytest: '8.3.3' });
  const requirements = parseFile('requirements.txt', read('python/requirements.txt'));
  assert.deepEqual(pins(requirements.direct), { Django: '4.2.16', djangorestframework: '3.15.2', psycopg: '3.2.3', celery: null });
  assert.equal(requirements.direct!.find((d) => d.name === 'celery')!.requested, '>=5.3,<6');
  failsAt('requirements.txt', 'requests==2.32.3\n\nthis is not a requirement!\n', 3);
});

test('Cargo.lock with Cargo.toml: the root crate names its direct dependencies', () => {
  const parsed = parseFile('Cargo.lock', read('cargo/Cargo.lock'));
  assert.equal(parsed.format, 'Cargo.lock v4');
  assert.deepEqual(pins(parsed.direct), { anyhow: '1.0.86', clap: '3.2.25', itoa: pins(parsed.locked).itoa, serde: pins(parsed.locked).serde });
  const manifest = parseFile('Cargo.toml', read('cargo/Cargo.toml'));
  assert.deepEqual(pins(manifest.direct), { clap: null, serde: null, anyhow: '1.0.86', itoa: null });
  failsAt('Cargo.toml', '[package]\nname = "x"\n[dependencies\nserde = "1"\n', 3);
});

test('go.mod: requires split by // indirect, local replacements dropped, remote ones followed', () => {
  const parsed = parseFile('go.mod', read('go/go.mod'));
  assert.deepEqual(pins(parsed.direct), { 'github.com/spf13/cobra': 'v1.8.1' });
  assert.deepEqual(pins(parsed.locked)['github.com/spf13/pflag'], 'v1.0.5');
  const replaced = parseFile('go.mod', 'module m\n\nrequire (\n\tgithub.com/a/b v1.0.0\n\tgithub.com/c/d v2.0.0+incompatible\n)\nreplace github.com/a/b => ../b\nreplace github.com/c/d => github.com/e/d v2.1.0+incompatible\n');
  assert.deepEqual(pins(replaced.direct), { 'github.com/e/d': 'v2.1.0+incompatible' });
  failsAt('go.mod', 'module m\n\nrequire (\n\tgithub.com/a/b\n)\n', 4);
  failsAt('go.mod', 'module m\nfrobnicate x\n', 2);
  const sum = parseFile('go.sum', read('go/go.sum'));
  assert.ok(sum.locked!.some((d) => d.name === 'github.com/spf13/cobra' && d.version === 'v1.8.1'));
});

test('Gemfile.lock: DEPENDENCIES at their locked versions, platform suffixes removed, git gems left out', () => {
  const parsed = parseFile('Gemfile.lock', read('ruby/Gemfile.lock'));
  assert.deepEqual(pins(parsed.direct), { activesupport: '7.1.4', devise: '4.9.4', nokogiri: '1.16.7' });
  failsAt('Gemfile.lock', 'GEM\n  remote: https://rubygems.org/\n  specs:\n    rack 3.0\n', 4);
});

test('an unknown file name is refused and names the supported files', () => {
  assert.throws(() => parseFile('build.gradle', 'x'), /supported: package-lock\.json/);
});

test('a test call\'s packages named without a version take the project\'s versions, in each runtime\'s spelling', async () => {
  const { pinToProject } = await import('../../../src/project/pin.ts');
  const dependency = (ecosystem: string, slug: string, version: string) => ({ ecosystem, slug, version, name: slug, inCatalog: true, docsIndexed: false, latest: null }) as never;
  const deps = [dependency('npm', 'npm-zod', '3.25.76'), dependency('npm', 'npm-tanstack__react-query', '5.59.16'), dependency('pypi', 'pypi-requests', '2.32.3'),
    dependency('crates', 'crates-tokio', '1.40.0'), dependency('go', 'go-github.com__spf13__cobra', 'v1.8.1')];
  assert.deepEqual(pinToProject('node', ['zod', '@tanstack/react-query', 'zod@4', 'express'], deps), ['zod@3.25.76', '@tanstack/react-query@5.59.16', 'zod@4', 'express']);
  assert.deepEqual(pinToProject('python', ['requests[socks]', 'requests>=2'], deps), ['requests[socks]==2.32.3', 'requests>=2']);
  assert.deepEqual(pinToProject('rust', ['tokio[macros,rt]'], deps), ['tokio@1.40.0[macros,rt]']);
  assert.deepEqual(pinToProject('golang', ['github.com/spf13/cobra'], deps), ['github.com/spf13/cobra@v1.8.1']);
  assert.deepEqual(pinToProject('python', ['zod'], deps), ['zod'], 'another ecosystem\'s dependency is not this runtime\'s');
});

// Tool context pieces: quickstart = first usage example that uses the package; install commands; test request bodies.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findQuickstart, installCommands, testRequestFor } from '../../../src/docs/context.ts';
import { testRequestSchema } from '../../../src/sandbox/schema.ts';

const passage = (content: string, source = 'README.md') => ({ url: `u/${source}`, headings: ['x'], content, source });

describe('findQuickstart', () => {
  it('skips shell install blocks and prefers a block that imports the package', () => {
    const quickstart = findQuickstart([
      passage('```sh\nnpm install widget\n```'),
      passage('```js\nconst unrelated = 1;\n```'),
      passage("```ts\nimport { make } from 'widget';\nmake();\n```"),
    ], 'npm', 'widget', 'widget');
    assert.deepEqual(quickstart, { code: "import { make } from 'widget';\nmake();", language: 'ts', source: 'u/README.md' });
  });
  it('turns a pycon session into a script', () => {
    const quickstart = findQuickstart([passage('```pycon\n>>> import requests\n>>> r = requests.get("https://x")\n<Response [200]>\n```')], 'pypi', 'requests', 'requests');
    assert.equal(quickstart?.code, 'import requests\nr = requests.get("https://x")');
  });
  it('is null when the docs have no example in the ecosystem language', () => {
    assert.equal(findQuickstart([passage('```sh\npip install x\n```')], 'pypi', 'x', 'x'), null);
  });
});

describe('installCommands', () => {
  it('names every package manager of the ecosystem, pinned to the version', () => {
    assert.deepEqual(installCommands('npm', 'zod', '3.23.8').map((c) => c.manager), ['npm', 'pnpm', 'yarn', 'bun']);
    assert.deepEqual(installCommands('pypi', 'requests', '2.32.3').map((c) => c.command), ['pip install "requests==2.32.3"', 'uv add "requests==2.32.3"', 'poetry add "requests==2.32.3"']);
    assert.equal(installCommands('crates', 'serde', '1.0.0')[0]!.command, 'cargo add serde@1.0.0');
    assert.equal(installCommands('go', 'github.com/go-chi/chi/v5', 'v5.1.0')[0]!.command, 'go get github.com/go-chi/chi/v5@v5.1.0');
    assert.deepEqual(installCommands('rubygems', 'rails', '7.1.0').map((c) => c.manager), ['gem', 'bundler']);
  });
});

describe('testRequestFor', () => {
  it('builds bodies POST /tools/test accepts', () => {
    const bodies = [
      testRequestFor('npm', 'zod', '3.23.8', 'npm-zod', { code: "import { z } from 'zod';\nz.string().parse('x');", language: 'ts', source: 'u' }),
      testRequestFor('pypi', 'requests', '2.32.3', 'pypi-requests', { code: 'import requests', language: 'python', source: 'u' }),
      testRequestFor('crates', 'serde_json', '1.0.0', 'crates-serde-json', { code: 'use serde_json::json;\nlet v = json!({"a": 1});\nprintln!("{}", v);', language: 'rust', source: 'u' }),
      testRequestFor('go', 'github.com/x/y', 'v1.0.0', 'go-x', { code: 'package main\n\nfunc main() {}', language: 'go', source: 'u' }),
    ];
    for (const body of bodies) assert.ok(testRequestSchema.safeParse(body).success, JSON.stringify(body));
    assert.equal((bodies[0]!.files as Array<{ path: string }>)[0]!.path, 'index.mts');
    assert.match((bodies[2]!.files as Array<{ code: string }>)[0]!.code, /^use serde_json::json;\n\nfn main\(\) \{\n {4}let v/);
  });
  it('gives no body for a Go fragment that is not a program, rather than a guessed one', () => {
    assert.equal(testRequestFor('go', 'github.com/x/y', 'v1', 'go-x', { code: 'r := y.New()', language: 'go', source: 'u' }), null);
  });
});

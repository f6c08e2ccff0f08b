// The compact projection's rules, table-driven: which fields survive, descriptions cut at a word, TOON tables.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encode } from '@toon-format/toon';
import type { ToolResult } from '../../../src/catalog/index.ts';
import type { DocsResult, ToolContext } from '../../../src/docs/schema.ts';
import {
  COMPACT_DESCRIPTION_CHARS, projectContext, projectDocs, projectSearch, projectTest, shorten,
} from '../../../src/projection.ts';
import type { TestResult } from '../../../src/sandbox/schema.ts';

const tool = (name: string, shortDescription: string, description = shortDescription): ToolResult => ({
  id: `npm-${name}`, name, description, shortDescription, languages: ['TypeScript'], frameworks: [], categories: ['validation'],
  slug: `npm-${name}`, updatedAt: '2026-01-01T00:00:00.000Z', image: '/icons/npm.svg', ecosystem: 'npm', version: '1.2.3',
  license: 'MIT', popularity: 0.8765, install: `npm install ${name}`, docsUrl: null, registryUrl: `https://www.npmjs.com/package/${name}`, score: 3.2,
});

describe('shorten', () => {
  const cases: Array<[string, number, string]> = [
    ['short text', 20, 'short text'],
    ['  spaces\n and\tlines  ', 40, 'spaces and lines'],
    ['the quick brown fox jumps over the lazy dog', 20, 'the quick brown fox…'],
    ['averyveryverylongwordwithoutanyspaces', 10, 'averyvery…'],
    ['ends with a comma, then more words', 19, 'ends with a comma…'],
  ];
  for (const [text, max, expected] of cases) {
    it(`${JSON.stringify(text)} at ${max} → ${JSON.stringify(expected)}`, () => {
      assert.equal(shorten(text, max), expected);
      assert.ok(shorten(text, max).length <= max);
    });
  }
});

describe('projectSearch', () => {
  const long = 'word '.repeat(100).trim();
  const result = { results: [tool('zod', 'Schema validation'), tool('yup', '', long)] };

  it('keeps the seven fields an agent chooses by, in one order, and rounds popularity', () => {
    const compact = projectSearch(result, 'compact') as { results: Array<Record<string, unknown>> };
    assert.deepEqual(compact.results[0], {
      slug: 'npm-zod', name: 'zod', ecosystem: 'npm', version: '1.2.3', popularity: 0.88, install: 'npm install zod', description: 'Schema validation',
    });
    assert.ok(String(compact.results[1]!.description).length <= COMPACT_DESCRIPTION_CHARS, 'falls back to the long description, cut');
    assert.match(String(compact.results[1]!.description), /^word word .*word…$/);
  });

  it('encodes as one TOON table', () => {
    const text = encode(projectSearch(result, 'compact'));
    assert.match(text.split('\n')[0]!, /^results\[2\]\{slug,name,ecosystem,version,popularity,install,description\}:$/);
    assert.equal(text.split('\n').length, 3);
  });

  it('returns the whole result with detail full', () => {
    assert.equal(projectSearch(result, 'full'), result);
  });
});

describe('projectContext, projectDocs, projectTest', () => {
  const context: ToolContext = {
    slug: 'npm-zod', name: 'zod', ecosystem: 'npm', version: '3.23.8', latestVersion: '4.0.0', description: 'd', license: 'MIT',
    links: { docs: 'https://zod.dev', repository: 'https://github.com/colinhacks/zod', homepage: 'https://zod.dev', registry: 'https://www.npmjs.com/package/zod' },
    install: [{ manager: 'npm', command: 'npm install zod@3.23.8' }], imports: ["import { z } from 'zod';"],
    quickstart: { code: 'console.log(1)', language: 'ts', source: 'README.md' },
    entryPoints: ['.', './a', './b', './c', './d', './e', './f'], typesIncluded: null, requirements: {},
    testRequest: { language: 'typescript', runtime: 'node', files: [{ path: 'index.ts', code: 'console.log(1)' }] }, stale: true,
  };

  it('context: drops the registry page, a homepage equal to the docs, empty facts; keeps quickstart and testRequest whole', () => {
    const compact = projectContext(context, 'compact') as Record<string, unknown>;
    assert.deepEqual(compact.links, { docs: 'https://zod.dev', repository: 'https://github.com/colinhacks/zod' });
    assert.deepEqual(compact.entryPoints, ['.', './a', './b', './c', './d']);
    assert.equal('typesIncluded' in compact, false);
    assert.equal('requirements' in compact, false);
    assert.equal(compact.latestVersion, '4.0.0', 'kept when the version is not the latest');
    assert.deepEqual(compact.quickstart, context.quickstart);
    assert.deepEqual(compact.testRequest, context.testRequest);
    assert.equal(projectContext(context, 'full'), context);
    assert.equal('latestVersion' in (projectContext({ ...context, stale: undefined }, 'compact') as object), false);
  });

  it('docs: passages become (heading trail, symbol, labels, flags, url, content) rows', () => {
    const docs: DocsResult = {
      slug: 'npm-zod', docsUrl: 'https://zod.dev', query: 'optional', version: '3.23.8',
      results: [
        { url: 'https://zod.dev/api#optional', title: 'API', headings: ['API', 'Optional'], content: 'z.optional()', source: 'site', score: 2 },
        { url: 'https://zod.dev/x', title: 'X', content: 'x', symbol: 'zod/v3.ZodType.optional', deprecated: true, flags: ['agent-directed', 'hidden-text'],
          links: [{ relation: 'usedIn', title: 'API › Optional', url: 'https://zod.dev/api#optional' }] },
      ],
    };
    assert.deepEqual(projectDocs(docs, 'compact'), {
      slug: 'npm-zod', query: 'optional', version: '3.23.8',
      results: [
        { heading: 'API › Optional', symbol: '', deprecated: false, internal: false, flags: '', links: '', url: 'https://zod.dev/api#optional', content: 'z.optional()' },
        { heading: 'X', symbol: 'zod/v3.ZodType.optional', deprecated: true, internal: false, flags: 'agent-directed,hidden-text', links: 'usedIn API › Optional', url: 'https://zod.dev/x', content: 'x' },
      ],
    });
    assert.match(encode(projectDocs(docs, 'compact')), /results\[2\]\{heading,symbol,deprecated,internal,flags,links,url,content\}:/);
  });

  it('test: drops phases and the always-null sessionExpiresAt', () => {
    const run: TestResult = {
      ok: true, status: 'ran', phases: { provisionMs: 1, installMs: 2, runMs: 3 }, stdout: 'hi\n', stderr: '', exitCode: 0,
      sessionId: 'sbx_abcdefghijklmnopqrst', sessionExpiresAt: null, sessionReused: false,
    };
    assert.deepEqual(projectTest(run, 'compact'), { ok: true, status: 'ran', stdout: 'hi\n', stderr: '', exitCode: 0, sessionId: 'sbx_abcdefghijklmnopqrst', sessionReused: false });
  });
});

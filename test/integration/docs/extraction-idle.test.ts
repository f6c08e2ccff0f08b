// The docs extraction thread (src/docs/extraction-thread.ts) stops once idle, so its parsers' memory goes back, and
// starts again for the next package: both extractions give the passages the main thread's own extraction gives. A tool
// asked about for the first time starts it while its release list is fetched.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { passagesFromArtifact } from '../../../src/docs/documents.ts';
import { EXTRACTION_IDLE, extractionThreadRunning, extractPassages } from '../../../src/docs/extraction.ts';
import { preparePassages } from '../../../src/docs/repository.ts';
import type { Artifact } from '../../../src/docs/sources/types.ts';
import { startServer } from '../../helpers/server.ts';
import { addTools } from './catalog-fixture.ts';

const silent = pino({ level: 'silent' });
const text = (value: string) => new TextEncoder().encode(value);

function artifact(): Artifact {
  return {
    files: [
      { path: 'package.json', bytes: text(JSON.stringify({ name: 'idle-example', version: '1.0.0', main: 'index.js', types: 'index.d.ts' })) },
      { path: 'README.md', bytes: text('# idle-example\n\nParses things.\n\n## Usage\n\n```js\nconst { parse } = require("idle-example");\nparse("a,b");\n```\n') },
      { path: 'index.d.ts', bytes: text('/** Splits a line of comma-separated values. */\nexport declare function parse(line: string): string[];\n') },
      { path: 'index.js', bytes: text('exports.parse = (line) => line.split(",");\n') },
    ],
    facts: { entryPoints: ['index.js'], typesIncluded: true, requirements: {} },
    fileUrl: (path, where) => `https://example.test/${path}${where?.line ? `#L${where.line}` : ''}`,
    skipped: 0,
  };
}
const tool = { ecosystem: 'npm', name: 'idle-example', version: '1.0.0' };

describe('docs extraction thread', () => {
  it('stops after EXTRACTION_IDLE.ms without work and starts again for the next artifact', async () => {
    const saved = EXTRACTION_IDLE.ms;
    EXTRACTION_IDLE.ms = 300;
    try {
      const expected = (await passagesFromArtifact(artifact(), tool)).passages.map((p) => [p.title, p.url]);
      assert.ok(expected.length >= 2, 'the README and the declaration give passages');
      const first = await extractPassages(artifact(), tool, silent);
      assert.deepEqual(first.passages.map((p) => [p.title, p.url]), expected);
      assert.equal(extractionThreadRunning(), true, 'the thread runs after its first artifact');
      const deadline = Date.now() + 15_000;
      while (extractionThreadRunning() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(extractionThreadRunning(), false, 'stopped once idle');
      const again = await extractPassages(artifact(), tool, silent);
      assert.deepEqual(again.passages.map((p) => [p.title, p.url]), expected, 'a new thread extracts the same passages');
      assert.equal(extractionThreadRunning(), true);
    } finally {
      EXTRACTION_IDLE.ms = saved;
    }
  });

  it('starts for a tool asked about for the first time while its release list is fetched, not after it', async () => {
    const saved = EXTRACTION_IDLE.ms;
    EXTRACTION_IDLE.ms = 300;
    let seenWhileHeld: boolean | undefined;
    // A fake PyPI that holds the release list until the thread runs (or 5 s), then says the project does not exist.
    const fake = http.createServer((request, response) => {
      const deadline = Date.now() + 5000;
      const answer = () => {
        if (!extractionThreadRunning() && Date.now() < deadline) return void setTimeout(answer, 20);
        seenWhileHeld = extractionThreadRunning();
        response.writeHead(404).end();
      };
      answer();
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const server = await startServer({ config: { TOOLDEX_DOCS_SITES: 'off', TOOLDEX_PYPI_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` } });
    try {
      await addTools(server, [{ slug: 'pypi-fxwarm', ecosystem: 'pypi', name: 'fxwarm' }]);
      const deadline = Date.now() + 15_000;
      while (extractionThreadRunning() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(extractionThreadRunning(), false, 'stopped before the question');
      const response = await fetch(`${server.url}/tools/docs/pypi:fxwarm?q=how%20do%20I%20start`);
      assert.equal(response.status, 404);
      assert.equal(seenWhileHeld, true, 'the thread was running before the release list answered');
    } finally {
      EXTRACTION_IDLE.ms = saved;
      await server.close();
      await new Promise((resolve) => fake.close(resolve));
    }
  });

  it('finds on the thread the identifiers each passage is stored with, the same the main thread finds', async () => {
    const extracted = await extractPassages(artifact(), tool, silent);
    assert.equal(extracted.identifiers?.length, extracted.passages.length, 'one list per passage, from the thread');
    assert.ok(extracted.identifiers!.flat().includes('parse'));
    const onMain = preparePassages(extracted.passages);
    assert.deepEqual(preparePassages(extracted.passages, 0, extracted.identifiers), onMain, 'the same rows and passages as found on the main thread');
  });
});

// The fitter's pool cache key (scripts/fit-docs-cache.ts): a stored pool carries which candidates answer, decided by the
// judge (bench/docs-questions.ts) when it was asked, so a judge change must give new keys. Before round 17 it did not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FEATURE_CODE, JUDGE_CODE, poolCacheKey } from '../../../scripts/fit-docs-cache.ts';

function repo(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fit-cache-'));
  for (const file of [...FEATURE_CODE, JUDGE_CODE, 'bench/docs-fresh-r9.tsv', 'src/semantic/encoder.ts']) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), `// ${file}\n`);
  }
  return root;
}
const input = (root: string) => ({ root, file: 'docs-fresh-r9.tsv', home: undefined, questions: [{ tool: 'npm:x@1.0.0', question: 'how' }], extractors: { npm: 1 } });

describe('fitter pool cache key', () => {
  it('changes when the judge changes', () => {
    const root = repo();
    const before = poolCacheKey(input(root));
    fs.appendFileSync(path.join(root, JUDGE_CODE), 'export const rule = 2;\n');
    assert.notEqual(poolCacheKey(input(root)), before);
    fs.rmSync(root, { recursive: true });
  });
  it('changes with the ranking code and the questions, and is stable otherwise', () => {
    const root = repo();
    const before = poolCacheKey(input(root));
    assert.equal(poolCacheKey(input(root)), before);
    assert.notEqual(poolCacheKey({ ...input(root), questions: [{ tool: 'npm:x@1.0.0', question: 'why' }] }), before);
    fs.appendFileSync(path.join(root, 'src/docs/rank.ts'), 'export const w = 1;\n');
    assert.notEqual(poolCacheKey(input(root)), before);
    fs.rmSync(root, { recursive: true });
  });
});

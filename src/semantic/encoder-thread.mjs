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
  // the process-wide cost of the many more allocations it makes (the encoder test now bounds the loop's busy share).
});
parentPort.postMessage({ ready: true });

// A message carries several texts (`lengths` of their token ids, packed one after another in `ids`); each text is
// answered on its own as soon as its vector is ready (`index` in the message, `ms`: the model run's time on this
// thread), so a question never waits for the texts sent after it. Each text is its own model call: the int8 graph
// scales its activations per call, so texts sharing one padded run get other vectors (max difference 0.03, cosine
// 0.984, bench/semantic.ts) for no time saved on one core; a text's vector must not depend on its company. Messages
// may arrive while a text runs (the pool sends the next questions before the last ones are answered, so the thread
// never waits for the event loop between them): they queue here and run in arrival order, one model call at a time.
// Answers go back on their own port (`workerData.answers`), which the server can also read between two requests
// without waiting for its event loop to come round to this thread's messages (transformer-model.ts, `collect`).
const { answers } = workerData;
const queue = [];
let running = false;

parentPort.on('message', (message) => {
  queue.push(message);
  if (!running) void drain();
});

async function drain() {
  running = true;
  while (queue.length) {
    const { id, ids, lengths } = queue.shift();
    let offset = 0;
    for (const [index, length] of lengths.entries()) {
      try {
        const started = performance.now();
        // Every token is real (one text per call): the mask is all ones.
        const result = await session.run({
          input_ids: new ort.Tensor('int64', ids.subarray(offset, offset + length), [1, length]),
          attention_mask: new ort.Tensor('int64', new BigInt64Array(length).fill(1n), [1, length]),
        });
        const data = Float32Array.from(result.sentence_embedding.data);
        answers.postMessage({ id, index, data, ms: performance.now() - started }, [data.buffer]);
      } catch (error) {
        answers.postMessage({ id, index, error: error instanceof Error ? error.message : String(error) });
      }
      offset += length;
    }
  }
  running = false;
}

// The sentence encoder's thread: onnxruntime's run() holds the calling thread while it computes (~45 ms for 16
// passages), so the model runs here, away from the server's event loop. Plain JavaScript: it needs no TypeScript.
import { parentPort, workerData } from 'node:worker_threads';
import ort from 'onnxruntime-node';

// The model arrives in shared memory (no copy on the server's thread); the native runtime takes a plain ArrayBuffer
// only, so the copy it needs is made here.
const session = await ort.InferenceSession.create(new Uint8Array(workerData.model), {
  intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential',
});
parentPort.postMessage({ ready: true });

parentPort.on('message', async ({ id, ids, length }) => {
  try {
    // One text per call, so every token is real: the mask is all ones.
    const result = await session.run({
      input_ids: new ort.Tensor('int64', ids, [1, length]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(length).fill(1n), [1, length]),
    });
    const data = Float32Array.from(result.sentence_embedding.data);
    parentPort.postMessage({ id, data }, [data.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

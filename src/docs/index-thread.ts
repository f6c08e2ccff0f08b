// The docs package-index thread: builds one package index's parts at a time (src/docs/index-parts.ts) away from the
// server's event loop, with the asking thread's word-index settings, and transfers the word index's buffers back.
import { parentPort } from 'node:worker_threads';
import { indexPartsData, type IndexRequest } from './index-parts.ts';
import { LEXICAL } from './lexical.ts';

parentPort?.on('message', (request: IndexRequest) => {
  try {
    Object.assign(LEXICAL, request.lexical);
    const { data, transfer } = indexPartsData(request.passages);
    parentPort?.postMessage({ id: request.id, result: data }, transfer);
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: (error as Error).message });
  }
});

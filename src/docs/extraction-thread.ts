// The docs extraction thread: parses one artifact at a time (passagesFromArtifact) away from the server's event loop.
// Passage URLs come back as location tokens; the main thread turns them into URLs with the source's own fileUrl.
import { parentPort } from 'node:worker_threads';
import { passagesFromArtifact, prepareExtraction } from './documents.ts';
import { locationToken, type ExtractionRequest } from './extraction.ts';

parentPort?.on('message', async (request: ExtractionRequest | { warm: string }) => {
  if ('warm' in request) {
    prepareExtraction(request.warm);
    return;
  }
  try {
    const artifact = {
      files: request.files, facts: request.facts, readme: request.readme, skipped: 0,
      fileUrl: locationToken,
    };
    const result = await passagesFromArtifact(artifact, request.tool, request.maxPassages);
    parentPort?.postMessage({ id: request.id, result });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: (error as Error).message });
  }
});

// The docs extraction thread: parses one artifact at a time (passagesFromArtifact) away from the server's event loop.
// Passage URLs come back as location tokens; the main thread turns them into URLs with the source's own fileUrl.
import { parentPort } from 'node:worker_threads';
import { passagesFromArtifact, prepareExtraction } from './documents.ts';
import { locationToken, type ExtractedPassages, type ExtractionRequest } from './extraction.ts';
import { storedIdentifiers } from './stored-identifiers.ts';

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
    const extracted = await passagesFromArtifact(artifact, request.tool, request.maxPassages);
    // The identifiers each passage is stored with, found here rather than on the main thread (stored-identifiers.ts).
    const result: ExtractedPassages = { ...extracted, identifiers: extracted.passages.map(storedIdentifiers) };
    parentPort?.postMessage({ id: request.id, result });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: (error as Error).message });
  }
});

// Serves files below a folder over a test's loopback HTTP server (gem sources, registries made of real files).
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';

/** Answers with the file at `urlPath` below `root`, or 404 when there is none (or the path leaves `root`). */
export function sendFileUnder(root: string, urlPath: string, response: http.ServerResponse): void {
  const file = path.join(root, urlPath);
  if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-length': fs.statSync(file).size });
  fs.createReadStream(file).pipe(response);
}

// Passage counts of crates as the docs index extracts them (downloads from crates.io): `node --import tsx scripts/crate-passages.ts <label> [libc,tokio,rand,serde]`.
// Writes each crate's public symbols to /tmp/crate-passages/<label>-<crate>.txt, to diff two extractors' output.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cratesSource } from '../src/docs/sources/crates.ts';
import { passagesFromArtifact, MAX_PASSAGES } from '../src/docs/documents.ts';
mkdirSync('/tmp/crate-passages', { recursive: true });
const label = process.argv[2] ?? 'run';
const crates = (process.argv[3] ?? 'libc,tokio,rand,serde').split(',');
const limits = { timeoutMs: 60000, maxBytes: 64 * 1024 * 1024 };
const source = cratesSource({ baseUrl: 'https://crates.io', limits, artifactLimits: limits });
for (const name of crates) {
  const releases = await source.releases(name);
  const version = releases!.latest;
  const artifact = await source.artifact(name, version);
  const t = Date.now();
  const { passages, found } = await passagesFromArtifact(artifact, { ecosystem: 'crates', name, version }, MAX_PASSAGES);
  const api = passages.filter((p) => p.symbol);
  const symbols = [...new Set(passages.filter((p) => p.symbol && !p.internal).map((p) => p.symbol!))].sort();
  writeFileSync(`/tmp/crate-passages/${label}-${name}.txt`, symbols.join('\n') + '\n');
  console.log(`${label} ${name}@${version}: passages=${passages.length} found=${found} withSymbol=${api.length} publicSymbols=${symbols.length} ms=${Date.now() - t}`);
}

// PyPI: how many of the names a package declares public (its top-level `__init__`'s `__all__`, else what it imports
// and defines: src/docs/extract/declared-api.ts, as bench/docs-coverage.ts counts) have a passage that explains them
// (a) by the coverage bench's rule — any passage whose symbol ends in the name — and (b) under the public path a reader
// imports (`pkg.Name`, not internal), for this checkout's extractor and, with BENCH_BEFORE=/other/checkout, that one's,
// on the same downloaded artifact, one package at a time. No store, no encoder.
//   BENCH_PACKAGES=pypi:httpcore@1.0.9,… [BENCH_BEFORE=/path] node --import tsx bench/docs-pypi-public-paths.ts
//   (default: the PyPI packages and versions of bench/docs-coverage-top100.md)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { passagesFromArtifact } from '../src/docs/documents.ts';
import { declaredPythonApi } from '../src/docs/extract/declared-api.ts';
import { hasExplanation } from '../src/docs/extract/evidence.ts';
import { loadParsers } from '../src/docs/extract/treesitter.ts';
import { textOf } from '../src/docs/archive.ts';
import { importNameOf, ownMetadata } from '../src/docs/sources/pypi.ts';
import { sourceFor } from '../src/docs/sources/index.ts';

const top100 = fs.readFileSync(new URL('./docs-coverage-top100.md', import.meta.url), 'utf8').split('\n')
  .map((line) => /^\| pypi:(\S+) \| (\S+) \|/.exec(line)).filter((m): m is RegExpExecArray => Boolean(m)).map((m) => `pypi:${m[1]}@${m[2]}`);
const tools = process.env.BENCH_PACKAGES?.split(',') ?? top100.filter((_, i) => i % Number(process.env.BENCH_STRIDE ?? 1) === 0);
const before = process.env.BENCH_BEFORE
  ? await import(path.resolve(process.env.BENCH_BEFORE, 'src/docs/documents.ts')) as { passagesFromArtifact: typeof passagesFromArtifact } : undefined;
const config = loadConfig({ TOOLDEX_HOME: os.tmpdir() }, process.env);
const parsers = await loadParsers(['python']);
const totals: Record<string, { declared: number; anyPath: number; publicPath: number; under: number }> = {};
for (const tool of tools) {
  const rest = tool.slice(tool.indexOf(':') + 1);
  const name = rest.slice(0, rest.lastIndexOf('@')), version = rest.slice(rest.lastIndexOf('@') + 1);
  try {
    const artifact = await sourceFor(config, 'pypi').artifact(name, version);
    const files = new Map(artifact.files.filter((f) => /\.pyi?$|top_level\.txt$/.test(f.path)).map((f) => [f.path, textOf(f)]));
    const topLevel = ownMetadata([...files.keys()].map((p) => ({ path: p })), 'top_level.txt');
    const names = (topLevel ? files.get(topLevel.path)! : '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('_'));
    const initDirs = [...files.keys()].map((f) => /^(?:src\/)?([A-Za-z_]\w*)\/__init__\.py$/.exec(f)?.[1]).filter((d): d is string => Boolean(d));
    const roots = names.length ? names : [importNameOf(name, undefined, initDirs)];
    const declared = roots.flatMap((root) => declaredPythonApi(parsers, files, root).map((item) => ({ ...item, root })));
    const line: string[] = [];
    for (const [which, extract] of [['before', before?.passagesFromArtifact], ['after', passagesFromArtifact]] as const) {
      if (!extract) continue;
      const passages = (await extract(artifact, { ecosystem: 'pypi', name, version })).passages;
      const bySymbol = new Set<string>(), byLast = new Set<string>();
      for (const p of passages) {
        if (!p.symbol || !hasExplanation(p.content)) continue;
        byLast.add(p.symbol.split('.').pop()!);
        if (!p.internal) bySymbol.add(p.symbol);
      }
      const anyPath = declared.filter((d) => byLast.has(d.name)).length;
      const publicPath = declared.filter((d) => bySymbol.has(`${d.root}.${d.name}`)).length;
      // Explaining passages labelled with a declared public path or a member of one (`aiosqlite.Cursor.execute`).
      const paths = declared.map((d) => `${d.root}.${d.name}`);
      const under = [...bySymbol].filter((s) => paths.some((p) => s === p || s.startsWith(`${p}.`))).length;
      const t = (totals[which] ??= { declared: 0, anyPath: 0, publicPath: 0, under: 0 });
      t.declared += declared.length; t.anyPath += anyPath; t.publicPath += publicPath; t.under += under;
      line.push(`${which} ${anyPath}/${publicPath} of ${declared.length}, ${under} under`);
    }
    console.log(`${tool.padEnd(40)} ${line.join('; ')} (explained by any path / under the public path of N declared; passages labelled with a public path or its member)`);
  } catch (error) {
    console.log(`${tool} failed: ${(error as Error).message.slice(0, 200)}`);
  }
}
const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)} %`;
for (const [which, t] of Object.entries(totals)) {
  console.log(`${which}: ${tools.length} packages, ${t.declared} declared: explained by any path ${t.anyPath} (${pct(t.anyPath, t.declared)}), under the public path ${t.publicPath} (${pct(t.publicPath, t.declared)}); explaining passages labelled with a declared path or its member: ${t.under}`);
}
process.exit(0);

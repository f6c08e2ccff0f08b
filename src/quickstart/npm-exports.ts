// The names an npm package's entry point exports, read from its declarations by the TypeScript compiler (the docs
// extractor's declaredNpmApi, so both capabilities agree on what the package's API is): its own `.d.ts` files, else
// DefinitelyTyped's, which the artifact keeps under `@types/<name>/`. An example that calls one of these
// (`DateTime.fromISO(…)` in luxon's JSDoc, where no import line is written) uses the package, though it never names it.
import { textOf, type ArchiveFile } from '../docs/archive.ts';
import { declaredNpmApi } from '../docs/extract/declared-api.ts';

const TYPES_DIR = /^@types\/[^/]+\//;

export async function npmDeclaredExports(files: ArchiveFile[]): Promise<string[]> {
  const own = new Map<string, string>();
  const definitelyTyped = new Map<string, string>();
  for (const file of files) {
    if (!/\.d\.(ts|mts|cts)$|(^|\/)package\.json$/.test(file.path)) continue;
    if (TYPES_DIR.test(file.path)) definitelyTyped.set(file.path.replace(TYPES_DIR, ''), textOf(file));
    else own.set(file.path, textOf(file));
  }
  for (const tree of [own, definitelyTyped]) {
    if (![...tree.keys()].some((p) => p.endsWith('.d.ts') || p.endsWith('.d.mts') || p.endsWith('.d.cts'))) continue;
    try {
      // Only the main entry's names: a sub-path's (`pkg/sub`) are imported from that path, not from the package.
      const names = (await declaredNpmApi(tree)).filter((item) => item.where === '.' && item.name !== 'default').map((item) => item.name);
      if (names.length) return [...new Set(names)];
    } catch {
      // Declarations the compiler cannot read: the docs' own import lines still say what uses the package.
    }
  }
  return [];
}

// Checks the names of the project's own crate and Go lists (data/seeds/crates.tsv, go.tsv) against their registries:
// the crates.io sparse index (one small file per crate) and the Go module proxy's version list. Bounded concurrency,
// a timeout and retries per request (registries/http.ts); a name is "missing" only on a 404/410 answer, "unknown" when
// the registry could not be asked. Used by scripts/verify-seeds.ts; pure apart from the requests.
import { crateIndexPath } from './registries/crates.ts';
import { escapeModulePath } from './registries/gomod.ts';
import { fetchText, HttpStatusError } from './registries/http.ts';
import { trimSlash } from './registries/types.ts';

export type SeedCheck = 'exists' | 'missing' | 'unknown';

export interface VerifyOptions {
  cratesIndexUrl: string;
  goProxyUrl: string;
  concurrency: number;
  timeoutMs: number;
}

/** One name: does its registry know it? */
export async function checkName(ecosystem: 'crates' | 'go', name: string, options: VerifyOptions): Promise<SeedCheck> {
  const url = ecosystem === 'crates'
    ? `${trimSlash(options.cratesIndexUrl)}/${crateIndexPath(name)}`
    : `${trimSlash(options.goProxyUrl)}/${escapeModulePath(name)}/@v/list`;
  try {
    const text = await fetchText(url, { timeoutMs: options.timeoutMs, retries: 2, maxBytes: 4 * 1024 * 1024 });
    // The proxy answers an empty list for a module that has only pseudo-versions; it exists all the same.
    return ecosystem === 'crates' && !text.trim() ? 'missing' : 'exists';
  } catch (error) {
    if (error instanceof HttpStatusError && (error.status === 404 || error.status === 410)) return 'missing';
    return 'unknown';
  }
}

/** Every name, at most `concurrency` requests in flight; results in the order of `names`. */
export async function checkNames(
  ecosystem: 'crates' | 'go', names: string[], options: VerifyOptions, onProgress: (done: number) => void = () => undefined,
): Promise<SeedCheck[]> {
  const results: SeedCheck[] = new Array<SeedCheck>(names.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= names.length) return;
      results[i] = await checkName(ecosystem, names[i]!, options);
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, names.length)) }, worker));
  return results;
}

/** The seed file's text without the lines of the given names (comments, header and order kept). */
export function withoutNames(text: string, names: Set<string>): string {
  const lower = new Set([...names].map((name) => name.toLowerCase()));
  return text.split('\n').filter((line) => {
    if (!line.trim() || line.startsWith('#')) return true;
    const name = line.split('\t')[0]!.trim().toLowerCase();
    return !lower.has(name);
  }).join('\n');
}

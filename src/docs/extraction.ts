// Runs artifact extraction (real parsers: seconds for the largest packages) on one worker thread, so the server keeps
// answering while a package is parsed; falls back to the calling thread if the worker cannot start or fails.
import type { Ecosystem } from '../catalog/types.ts';
import type { Logger } from '../log.ts';
import type { ArchiveFile } from './archive.ts';
import { MAX_PASSAGES, passagesFromArtifact, type ArtifactPassages } from './documents.ts';
import type { Artifact, PackageFacts } from './sources/types.ts';
import { TaskThread } from './task-thread.ts';

/**
 * The version of what extraction makes of one ecosystem's artifacts. Bump the ecosystems whose passages a change
 * changes: a change to one ecosystem's extractor (`src/docs/extract/golang.ts`: go) bumps that ecosystem only, so a
 * deploy re-indexes only its packages; a change to shared code (the passage cap, the store's identifiers, markdown, the
 * quickstart finder) bumps every ecosystem it reaches. Versions indexed by an older extractor of their ecosystem are
 * indexed again on their next question (docs_versions.extractor, compared per row: a slug's ecosystem never changes).
 * Each number only grows; all start at 24, the last single version (round 8), so no stored row reads as newer.
 * 25 (all): cuts at a length are code-point safe (`src/text-cut.ts`), in markdown and every API extractor.
 * 26 (npm): a declared item without a code example takes its JavaScript JSDoc's `@example` blocks; `<caption>` is prose.
 * 26 (pypi): names a public package re-exports from a private sibling package (`_pytest`) are API under the public name.
 * 26 (go): the exported methods of an unexported type one exported struct embeds are that struct's (go/doc: `Cache.Add`).
 * 26 (crates): documented variants and `pub` fields of a type whose body is too long for its signature are members.
 * 27 (npm, pypi), 26 (rubygems): `.txt` files of a docs folder with a reStructuredText section title are guides.
 * 27 (go): documented exported fields of a struct too long for its signature are members (`Writer.Async`); and the above.
 * 28 (npm, pypi, go): a package over the passage cap keeps guides and self-explaining items first, then members (Go
 *   fields), then declarations with no prose (`fillByImportance`), each by importance.
 * 27 (crates): another crate's item macro called with parentheses is read for items as braces were
 *   (`digest::buffer_fixed!( /// … pub struct Md5(…); … )`); and the fill order above.
 * 29 (npm, pypi, go), 28 (crates), 27 (rubygems): a security page inside a docs folder (`docs/howto/security.rst`,
 *   how to deploy the package safely) is a guide; only the repository's own SECURITY file stays out (`isDocFile`).
 * 31 (go): documented exported fields of a struct with no doc comment of its own are members too (`Item.TTL`).
 * 32 (pypi): names re-exported through star imports, chains of modules, module-level `try`/`if` imports and public
 *   modules' `__all__` are followed to their definition, whose passage takes the public path (`pkg.Engine`).
 */
export const EXTRACTOR_VERSIONS: Readonly<Record<Ecosystem, number>> = { npm: 29, pypi: 32, crates: 28, go: 31, rubygems: 27 };

/** The extractor version of an ecosystem's packages (EXTRACTOR_VERSIONS). */
export const extractorVersion = (ecosystem: Ecosystem): number => EXTRACTOR_VERSIONS[ecosystem];

export interface ExtractionRequest {
  id: number;
  files: ArchiveFile[];
  facts: PackageFacts;
  readme?: { text: string; markdown: boolean };
  tool: { ecosystem: string; name: string; version?: string };
  maxPassages: number;
}

/** Passages as the thread extracts them, with `identifiers[i]` passage i's storedIdentifiers (absent off the thread). */
export interface ExtractedPassages extends ArtifactPassages {
  identifiers?: string[][];
}

const TOKEN = '\u0001loc:';
/** A passage location as text, turned into a real URL by the thread that holds the artifact's fileUrl. */
export const locationToken = (path: string, where?: { line?: number; anchor?: string }) => `${TOKEN}${JSON.stringify([path, where ?? {}])}`;

function resolveLocations(result: ExtractedPassages, artifact: Artifact): ExtractedPassages {
  return {
    ...result,
    passages: result.passages.map((p) => {
      if (!p.url.startsWith(TOKEN)) return p;
      const [path, where] = JSON.parse(p.url.slice(TOKEN.length)) as [string, { line?: number; anchor?: string }];
      return { ...p, url: artifact.fileUrl(path, where) };
    }),
  };
}

/**
 * The thread stops after this long without an artifact to parse: its parsers' memory (part of the −89 MB the idle
 * threads give back, docs/semantic.md "Memory") goes back, and the next package starts it again. A first question that
 * finds the thread stopped pays its start — the TypeScript compiler or a grammar loaded, the extractors' code compiled
 * again — and that was most of the first question (npm: extraction 3.9–4.9 s cold against 0.05–0.8 s warm at load
 * 16–24, bench/docs-first.ts BENCH_COLD=1). Held ten minutes, the thread kept an idle server over its 1 GB bound
 * (bench/memory-tour.ts: 1,136 MB), so the service sets it from TOOLDEX_DOCS_EXTRACTION_IDLE_MS (2 minutes: first
 * questions of one session of work find it warm; a quiet server gives the memory back). Tests and benches set it here.
 */
export const EXTRACTION_IDLE = { ms: 120_000 };

const thread = new TaskThread<Omit<ExtractionRequest, 'id'>, ExtractedPassages>({
  url: new URL('./extraction-worker.mjs', import.meta.url), idleMs: () => EXTRACTION_IDLE.ms, fallback: 'docs extraction on the main thread',
});

/** Whether the extraction thread is running now (tests, memory reports). */
export const extractionThreadRunning = () => thread.running;

/** Starts the thread and its parsers for this ecosystem while the artifact downloads. */
export function warmExtraction(ecosystem: string, logger: Logger): void {
  thread.warm(logger, { warm: ecosystem });
}

/** passagesFromArtifact, off the event loop when a worker thread is available. */
export async function extractPassages(artifact: Artifact, tool: ExtractionRequest['tool'], logger: Logger, maxPassages = MAX_PASSAGES): Promise<ExtractedPassages> {
  try {
    const running = thread.run({ files: artifact.files, facts: artifact.facts, readme: artifact.readme, tool, maxPassages }, [], logger);
    if (!running) return passagesFromArtifact(artifact, tool, maxPassages);
    return resolveLocations(await running, artifact);
  } catch (error) {
    logger.warn({ err: error, package: tool.name }, 'docs extraction failed on its thread; retrying on the main thread');
    return passagesFromArtifact(artifact, tool, maxPassages);
  }
}

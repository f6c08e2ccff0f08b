// Answers sized for a context window: the compact projection MCP and the CLI's json/toon send by default
// (`detail: "full"` sends the capability result unchanged, as REST does). Pure: a result in, a smaller one out.
import type { ToolResult } from './catalog/types.ts';
import { isSymbolResult, type DocsResult, type DocsSymbolResult, type ToolContext } from './docs/schema.ts';
import type { ChangesResult } from './changes/index.ts';
import type { ResolveResult } from './project/index.ts';
import type { TestResult } from './sandbox/schema.ts';

export const DETAILS = ['compact', 'full'] as const;
export type Detail = (typeof DETAILS)[number];

/** Longest description a compact search row carries; registry summaries past it are cut at a word. */
export const COMPACT_DESCRIPTION_CHARS = 160;
/** Entry points a compact context lists (a large package exports hundreds). */
const COMPACT_ENTRY_POINTS = 5;

/** One search result as an agent needs it to choose: every row has the same primitive fields, so TOON
 * encodes the list as one table (a header line, then one line per tool). */
export interface CompactTool {
  slug: string;
  name: string;
  ecosystem: string;
  version: string | null;
  popularity: number;
  install: string;
  description: string;
}

export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // A space right after the kept part is a word boundary too, hence max (not max - 1) characters searched.
  const space = flat.slice(0, max).lastIndexOf(' ');
  const kept = space > max * 0.6 ? flat.slice(0, space) : flat.slice(0, max - 1);
  return `${kept.replace(/[\s,;:.-]+$/, '')}…`;
}

export function compactTool(tool: ToolResult): CompactTool {
  return {
    slug: tool.slug,
    name: tool.name,
    ecosystem: tool.ecosystem,
    version: tool.version,
    popularity: Math.round(tool.popularity * 100) / 100,
    install: tool.install,
    description: shorten(tool.shortDescription || tool.description, COMPACT_DESCRIPTION_CHARS),
  };
}

export function projectSearch(result: { results: ToolResult[] }, detail: Detail): unknown {
  return detail === 'full' ? result : { results: result.results.map(compactTool) };
}

/** The context minus what an agent does not act on: the registry page, empty facts, a long entry-point list. */
export function projectContext(context: ToolContext, detail: Detail): unknown {
  if (detail === 'full') return context;
  const { links, entryPoints, typesIncluded, requirements, latestVersion, stale, ...rest } = context;
  const compactLinks: Record<string, string> = {};
  if (links.docs) compactLinks.docs = links.docs;
  if (links.repository) compactLinks.repository = links.repository;
  if (links.homepage && links.homepage !== links.docs && links.homepage !== links.repository) compactLinks.homepage = links.homepage;
  return {
    ...rest,
    ...(stale ? { stale, latestVersion } : {}),
    links: compactLinks,
    ...(entryPoints.length ? { entryPoints: entryPoints.slice(0, COMPACT_ENTRY_POINTS) } : {}),
    ...(typesIncluded === null ? {} : { typesIncluded }),
    ...(Object.keys(requirements).length ? { requirements } : {}),
  };
}

/** Passages as rows of (heading trail, url, content): the trail replaces title/headings, scores are dropped. */
export function projectDocs(result: DocsResult | DocsSymbolResult, detail: Detail): unknown {
  if (detail === 'full') return result;
  if (isSymbolResult(result)) return projectSymbol(result);
  const { docsUrl: _docsUrl, latestVersion, stale, results, ...rest } = result;
  return {
    ...rest,
    ...(stale ? { stale, latestVersion } : {}),
    // Every row has the same fields, so TOON prints one table; the labels say what an agent may build on.
    results: results.map((passage) => ({
      heading: passage.headings?.length ? passage.headings.join(' › ') : (passage.title ?? ''),
      symbol: passage.symbol ?? '',
      deprecated: passage.deprecated ?? false,
      internal: passage.internal ?? false,
      // A string, so every row keeps primitive fields (one TOON table): '' or "agent-directed,hidden-text".
      flags: (passage.flags ?? []).join(','),
      // Guide ↔ API links as one string too: "uses tokio::time::timeout; usedIn README › Timeouts", or ''.
      links: (passage.links ?? []).map((link) => `${link.relation} ${link.title}`).join('; '),
      url: passage.url,
      content: passage.content,
    })),
  };
}

/** A symbol answer without the links an agent does not act on, and suggestions as (symbol, url) rows. */
function projectSymbol(result: DocsSymbolResult): unknown {
  const { docsUrl: _docsUrl, latestVersion, stale, suggestions, ...rest } = result;
  return {
    ...rest,
    ...(stale ? { stale, latestVersion } : {}),
    suggestions: suggestions.map(({ symbol, url }) => ({ symbol, url })),
  };
}

/** A run without its phase timings and the always-null sessionExpiresAt. */
export function projectTest(result: TestResult, detail: Detail): unknown {
  if (detail === 'full') return result;
  const { phases: _phases, sessionExpiresAt: _expires, ...rest } = result;
  return rest;
}

/** A resolved project as rows an agent acts on: one table of slug, version, whether docs are indexed, the newest. */
export function projectResolve(result: ResolveResult, detail: Detail): unknown {
  if (detail === 'full') return result;
  const row = (d: ResolveResult['dependencies'][number]) => ({ slug: d.slug, version: d.version ?? '', dev: d.dev ?? false, docsIndexed: d.docsIndexed, latest: d.latest ?? '' });
  return {
    project: result.project,
    expiresAt: result.expiresAt,
    dependencies: result.dependencies.map(row),
    ...(result.transitive ? { transitive: result.transitive.map(row) } : {}),
    counts: result.counts,
    ...(result.notes.length ? { notes: result.notes } : {}),
  };
}

/** Changes without the release notes' heading arrays and scores: what an upgrading agent reads. */
export function projectChanges(result: ChangesResult, detail: Detail): unknown {
  if (detail === 'full') return result;
  const change = (c: ChangesResult['removed'][number]) => ({
    kind: c.kind, symbol: c.symbol, ...(c.movedFrom ? { movedFrom: c.movedFrom } : {}), ...(c.from ? { was: c.from.signature ?? '' } : {}), ...(c.to ? { now: c.to.signature ?? '' } : {}), url: (c.to ?? c.from)?.url ?? '',
  });
  const note = (n: ChangesResult['notes'][number]) => ({ heading: n.headings.join(' › '), release: n.release ?? '', url: n.url, content: n.content });
  return {
    name: result.name, from: result.from.version, to: result.to.version, counts: result.counts,
    ...(result.answers ? { query: result.query, answers: result.answers.map((a) => (a.kind === 'change' ? change(a.change) : { kind: 'note', ...note(a.note) })) } : {}),
    removed: result.removed.map(change), moved: result.moved.map(change), signature: result.signature.map(change), deprecated: result.deprecated.map(change), added: result.added.map(change),
    notes: result.notes.map(note),
    ...(result.omitted ? { omitted: result.omitted } : {}),
    ...(result.warnings.length ? { warnings: result.warnings } : {}),
  };
}

// Inputs and results of the docs and context capability, described once for HTTP, MCP and the CLI.
import { z } from 'zod';
import type { Verified } from '../quickstart/types.ts';
import { MAX_MAX_TOKENS, MIN_MAX_TOKENS, type BudgetReport, type Overhead, type Pointer } from './budget.ts';
import { MAX_SYMBOL, type SymbolLookup } from './symbol.ts';
import type { PassageFlag } from './untrusted.ts';
import type { RankPool } from './rank.ts';

export type { BudgetReport, Pointer } from './budget.ts';

export const MAX_DOCS_QUERY = 1000;
export const MAX_DOCS_LIMIT = 20;

/** A caller's token budget on docs and context answers (src/docs/budget.ts). */
export const maxTokensParam = z.coerce.number().int().min(MIN_MAX_TOKENS).max(MAX_MAX_TOKENS)
  .describe(`Token budget of the answer (${MIN_MAX_TOKENS}–${MAX_MAX_TOKENS}, o200k_base tokens, estimated from above): the best passages whole, `
    + 'then one-line pointers (symbol or title, url) to the next ones until it is spent.');

export const docsQuerySchema = z.object({
  q: z.string().trim().min(1, 'q is required: the question to answer from the docs (or give symbol)')
    .max(MAX_DOCS_QUERY, `q is limited to ${MAX_DOCS_QUERY} characters`).optional()
    .describe('A natural-language question ("how do I make a field optional"). Give q or symbol.'),
  symbol: z.string().trim().min(1, 'symbol must name an API item').max(MAX_SYMBOL, `symbol is limited to ${MAX_SYMBOL} characters`).optional()
    .describe('Look up one API item by name instead of asking a question: "tokio::time::timeout", "lodash.debounce", "gorm.DB.Where", '
      + '"requests.Session.mount" (separators ::, . or #; the package name may lead). Answers its signature, documentation, examples and '
      + 'where it is defined; an unknown name answers the closest names as suggestions.'),
  limit: z.coerce.number().int().min(1).max(MAX_DOCS_LIMIT).optional()
    .describe(`Passages to return whole (1–${MAX_DOCS_LIMIT}; default 5, or as many as maxTokens holds when it is given).`),
  maxTokens: maxTokensParam.optional(),
}).superRefine((query, context) => {
  if (query.q === undefined && query.symbol === undefined) context.addIssue({ code: 'custom', path: ['q'], message: 'q is required: the question to answer from the docs (or give symbol)' });
  if (query.q !== undefined && query.symbol !== undefined) context.addIssue({ code: 'custom', path: ['symbol'], message: 'give q (a question) or symbol (an API item), not both' });
});

export interface DocsPassage {
  url: string;
  title?: string;
  content: string;
  /** Heading trail, page title first. */
  headings?: string[];
  source?: string;
  /** The public API symbol the passage documents (`tokio::time::timeout`, `pydantic.ConfigDict.extra`). */
  symbol?: string;
  /** Set when the passage comes from internals (a private module, a bundler chunk, a helper) rather than public API. */
  internal?: boolean;
  /** Set when its authors mark what it documents deprecated or legacy (`@deprecated`, zod/v3 inside zod 4). */
  deprecated?: boolean;
  /** What in its prose is aimed at an AI agent rather than the reader, or hidden from readers (src/docs/untrusted.ts). */
  flags?: PassageFlag[];
  /**
   * Guide ↔ API links (src/docs/links.ts): for a guide or README section, the API items its code uses (`uses`); for an
   * API item, the guide sections whose code shows it in use (`usedIn`). So "how do I X" shows the section and the item.
   */
  links?: PassageLink[];
  score?: number;
}

export interface PassageLink {
  relation: 'uses' | 'usedIn';
  /** The item's symbol (uses) or the section's heading trail (usedIn). */
  title: string;
  url: string;
}

/** Present when a package was too large to index whole: what was kept. Ask more specifically, or read the source. */
export interface DocsCoverage {
  indexedPassages: number;
  foundPassages: number;
  skippedSourceFiles: number;
  message: string;
}

export interface DocsResult {
  slug: string;
  docsUrl: string | null;
  query: string;
  version: string;
  latestVersion?: string;
  stale?: boolean;
  partial?: DocsCoverage;
  /** `semantic`: compared by meaning (sentence encoder); `lexical`: by words only (encoder off, failed, or busy: back-pressure). */
  ranking?: 'semantic' | 'lexical';
  results: DocsPassage[];
  /** With maxTokens: the passages ranked after `results` that did not fit whole, one line each. */
  pointers?: Pointer[];
  /** With maxTokens: the budget and what the answer costs. */
  budget?: BudgetReport;
}

/** What GET /tools/docs/:slug?symbol=… returns: one API item, or the closest names. */
export interface DocsSymbolResult extends SymbolLookup {
  slug: string;
  docsUrl: string | null;
  version: string;
  latestVersion?: string;
  stale?: boolean;
  partial?: DocsCoverage;
  /** The name as asked. */
  symbol: string;
  /** On a miss: what was looked for and what to do. */
  message?: string;
  /** With maxTokens: examples that did not fit, one line each. */
  pointers?: Pointer[];
  budget?: BudgetReport;
}

/** What GET /tools/context/:slug returns; docs/context.ts fills it. */
export interface ToolContext {
  slug: string;
  name: string;
  ecosystem: string;
  version: string;
  latestVersion: string;
  /** At an older major: one line saying a newer major exists and how to ask what changed (GET /tools/changes). */
  newerMajor?: string;
  description: string;
  license: string | null;
  links: { docs: string | null; repository: string | null; homepage: string | null; registry: string };
  install: Array<{ manager: string; command: string }>;
  imports: string[];
  /** `verified` says whether tooldex ran this quickstart (src/quickstart owns it; shape on the board). */
  quickstart: { code: string; language: string; source: string; verified?: Verified } | null;
  entryPoints: string[];
  typesIncluded: boolean | null;
  requirements: Record<string, string>;
  testRequest: Record<string, unknown> | null;
  stale?: boolean;
  /** With maxTokens: what was left out to fit it, and where to read it. */
  pointers?: Pointer[];
  budget?: BudgetReport;
}

export interface Docs {
  /** `overhead`: what the surface adds around the author's text (MCP's fence), held within maxTokens too. */
  /** `observe`: handed the ranked candidate pool and its features (scripts/fit-docs-ranking.ts; surfaces pass none). */
  search(slugReference: string, query: string, options?: { limit?: number; maxTokens?: number; overhead?: Overhead; observe?: (pool: RankPool) => void }): Promise<DocsResult>;
  /** One API item by name (`tokio::time::timeout`), or the closest names: never an empty answer for a package with docs. */
  lookup(slugReference: string, symbol: string, options?: { maxTokens?: number; overhead?: Overhead }): Promise<DocsSymbolResult>;
  context(slugReference: string, options?: { maxTokens?: number; overhead?: Overhead }): Promise<ToolContext>;
  /** Resolves when no package is being embedded in the background (benches measuring it, tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** One docs request from any surface: the item named by `symbol`, else passages for the question `q`. */
export function askDocs(docs: Pick<Docs, 'search' | 'lookup'>, slugReference: string,
  input: { q?: string; symbol?: string; limit?: number; maxTokens?: number }, overhead?: Overhead): Promise<DocsResult | DocsSymbolResult> {
  const { q, symbol, limit, maxTokens } = input;
  if (symbol !== undefined) return docs.lookup(slugReference, symbol, { maxTokens, overhead });
  return docs.search(slugReference, q ?? '', { limit, maxTokens, overhead });
}

export const isSymbolResult = (result: DocsResult | DocsSymbolResult): result is DocsSymbolResult => 'found' in result;

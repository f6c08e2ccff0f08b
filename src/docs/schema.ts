// Inputs and results of the docs and context capability, described once for HTTP, MCP and the CLI.
import { z } from 'zod';
import type { Verified } from '../quickstart/types.ts';

export const MAX_DOCS_QUERY = 1000;
export const MAX_DOCS_LIMIT = 20;

export const docsQuerySchema = z.object({
  q: z.string().trim().min(1, 'q is required: the question to answer from the docs')
    .max(MAX_DOCS_QUERY, `q is limited to ${MAX_DOCS_QUERY} characters`)
    .describe('A natural-language question ("how do I make a field optional").'),
  limit: z.coerce.number().int().min(1).max(MAX_DOCS_LIMIT).default(5).describe(`Passages to return (1–${MAX_DOCS_LIMIT}).`),
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
  score?: number;
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
}

/** What GET /tools/context/:slug returns; docs/context.ts fills it. */
export interface ToolContext {
  slug: string;
  name: string;
  ecosystem: string;
  version: string;
  latestVersion: string;
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
}

export interface Docs {
  search(slugReference: string, query: string, options?: { limit?: number }): Promise<DocsResult>;
  context(slugReference: string): Promise<ToolContext>;
  /** Resolves when no package is being embedded in the background (benches measuring it, tests). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

// Inputs and results of the docs and context capability, described once for HTTP, MCP and the CLI.
import { z } from 'zod';

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
  score?: number;
}

export interface DocsResult {
  slug: string;
  docsUrl: string | null;
  query: string;
  version: string;
  latestVersion?: string;
  stale?: boolean;
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
  quickstart: { code: string; language: string; source: string } | null;
  entryPoints: string[];
  typesIncluded: boolean | null;
  requirements: Record<string, string>;
  testRequest: Record<string, unknown> | null;
  stale?: boolean;
}

export interface Docs {
  search(slugReference: string, query: string, options?: { limit?: number }): Promise<DocsResult>;
  context(slugReference: string): Promise<ToolContext>;
  close(): Promise<void>;
}

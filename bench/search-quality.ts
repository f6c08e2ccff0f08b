// Ranking quality of the directory search on the labelled query set (bench/search-queries.tsv):
// hit@5 and MRR@10 for tooldex and for a plain BM25 baseline (MiniSearch over name + description).
import fs from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import type { ToolRecord } from '../src/catalog/types.ts';
import { CatalogSearchIndex } from '../src/catalog/search-index.ts';

export interface LabelledQuery {
  query: string;
  acceptable: Set<string>;
}

export function loadLabelledQueries(file = path.join(import.meta.dirname, 'search-queries.tsv')): LabelledQuery[] {
  return fs.readFileSync(file, 'utf8').split('\n').slice(1).filter(Boolean).map((line) => {
    const [query = '', acceptable = ''] = line.split('\t');
    return { query, acceptable: new Set(acceptable.split(',').map((s) => s.trim()).filter(Boolean)) };
  });
}

export interface QualityReport {
  hitAt5: number;
  mrrAt10: number;
  misses: string[];
}

export function evaluate(queries: LabelledQuery[], rank: (query: string) => string[]): QualityReport {
  let hits = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const { query, acceptable } of queries) {
    const slugs = rank(query).slice(0, 10);
    const position = slugs.findIndex((slug) => acceptable.has(slug));
    if (position >= 0 && position < 5) hits++;
    else misses.push(`${query} → ${slugs.slice(0, 3).join(', ')}`);
    if (position >= 0) reciprocal += 1 / (position + 1);
  }
  return { hitAt5: hits / queries.length, mrrAt10: reciprocal / queries.length, misses };
}

export function tooldexRanker(tools: ToolRecord[]): (query: string) => string[] {
  const index = CatalogSearchIndex.build(tools);
  return (query) => index.search(query, { limit: 10 }).map((hit) => hit.tool.slug);
}

/** The baseline: BM25 over name + registry description, no query understanding, no popularity. */
export function baselineRanker(tools: ToolRecord[]): (query: string) => string[] {
  const mini = new MiniSearch<{ id: string; name: string; description: string }>({ fields: ['name', 'description'] });
  mini.addAll(tools.map((tool) => ({ id: tool.slug, name: tool.name, description: tool.description })));
  return (query) => mini.search(query, { combineWith: 'OR' }).slice(0, 10).map((hit) => String(hit.id));
}

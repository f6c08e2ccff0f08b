// Orders what changed for a reader: release-note sections by how many of the changed symbols they name (a migration
// guide that explains `.nonempty()` going away comes before a list of bug fixes), and, with a question, every change
// and section by BM25 over its words (MiniSearch), so "what replaced nonempty" finds the removal and the note about it.
import MiniSearch from 'minisearch';
import { analyze } from '../docs/lexical.ts';
import type { ApiChange, ApiDiff } from './api-diff.ts';
import type { NoteSection } from './release-notes.ts';

/** The last segment of a symbol path (`zod.ZodString.nonempty` → `nonempty`): how prose names it. */
export const tailOf = (symbol: string) => symbol.split(/::|\.|#|\//).filter(Boolean).pop() ?? symbol;

/** Words a symbol is written with (camelCase and snake_case split), for matching questions in plain words. */
const symbolWords = (symbol: string) => symbol.split(/::|\.|#|\//).flatMap((part) => [part, ...part.split(/_|(?<=[a-z0-9])(?=[A-Z])/)]).join(' ');

export interface RankedSection extends NoteSection { mentions: string[] }

/** Sections naming more changed symbols first (removals and signature changes count double); ties keep file order. */
export function rankSections(sections: NoteSection[], diff: ApiDiff): RankedSection[] {
  const weights = new Map<string, number>();
  const weigh = (changes: ApiChange[], weight: number) => {
    for (const change of changes) {
      const tail = tailOf(change.symbol);
      // Short or common tails (`get`, `new`) name too much prose to count as a mention.
      if (tail.length >= 4) weights.set(tail, Math.max(weights.get(tail) ?? 0, weight));
    }
  };
  weigh(diff.added, 1);
  weigh(diff.deprecated, 2);
  weigh(diff.removed, 2);
  weigh(diff.signature, 2);
  const scored = sections.map((section, order) => {
    const mentions = [...weights.keys()].filter((tail) => new RegExp(`(^|[^\\w$])${tail.replace(/[$]/g, '\\$')}(?![\\w$])`).test(section.content));
    const score = mentions.reduce((sum, tail) => sum + weights.get(tail)!, 0) + (/upgrad|migrat/i.test(section.source) ? 1 : 0);
    return { section: { ...section, mentions }, score, order };
  });
  return scored.sort((a, b) => b.score - a.score || a.order - b.order).map((s) => s.section);
}

export type Ranked = { kind: 'change'; change: ApiChange; score: number } | { kind: 'note'; note: RankedSection; score: number };

/** Changes and sections that answer a question, best first (BM25 over symbol words, declarations, summaries and prose). */
export function rankForQuestion(question: string, changes: ApiChange[], notes: RankedSection[], limit: number): Ranked[] {
  // Docs search's own analysis (stop words out, code identifiers split, plurals stemmed), so a question's filler words
  // do not match every note; the symbol's words count twice, as a title would.
  const index = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'], tokenize: (text) => analyze(text), processTerm: (term) => term, searchOptions: { combineWith: 'OR' },
  });
  const documents = [
    ...changes.map((change) => `${change.kind} ${symbolWords(change.symbol)} ${symbolWords(change.symbol)} ${change.from?.signature ?? ''} ${change.to?.signature ?? ''} ${change.from?.summary ?? ''} ${change.to?.summary ?? ''}`),
    ...notes.map((note) => `${note.headings.join(' ')} ${note.content}`),
  ];
  index.addAll(documents.map((text, id) => ({ id, text })));
  return index.search(question).slice(0, limit).map((hit) => {
    const id = Number(hit.id);
    return id < changes.length
      ? { kind: 'change' as const, change: changes[id]!, score: hit.score }
      : { kind: 'note' as const, note: notes[id - changes.length]!, score: hit.score };
  });
}

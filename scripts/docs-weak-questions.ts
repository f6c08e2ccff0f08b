// The pseudo-questions of scripts/docs-weak-labels.ts, made from the structure of one package's passages (pure: passages
// in, questions out). The seeded generator that picks them is scripts/seeded-random.ts. See that script for what they
// are for.
import { dedupKey, type IndexedPassage } from '../src/docs/rank.ts';
import { shuffled } from './seeded-random.ts';

export { random, shuffled } from './seeded-random.ts';

/** Prose of a passage: code fences out, inline code kept as its text, whitespace squashed. */
const proseOf = (content: string) => content.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/`([^`\n]*)`/g, '$1').replace(/\s+/g, ' ').trim();
const words = (text: string) => text.match(/[\p{L}\p{N}_]+/gu) ?? [];
const firstSentence = (text: string) => /^.*?[.!?](\s|$)/.exec(text)?.[0]?.trim() ?? text;
/** An item's own name as words: `parseArgs`, `parse_args`, `ParseArgs` → parse, args (and the name itself). */
const nameWords = (symbol: string) => {
  const last = symbol.replace(/[!()]/g, '').split(/::|\.|#|\//).pop() ?? '';
  return new Set([last.toLowerCase(), ...last.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_]+/).map((w) => w.toLowerCase())].filter(Boolean));
};

export interface Pseudo { kind: 'heading' | 'summary' | 'intro'; question: string; doc: number }

/** The pseudo-questions of one package, at most `perKind` of each kind (seeded choice among the eligible passages). */
export function pseudoQuestions(passages: readonly IndexedPassage[], next: () => number, perKind: number): Pseudo[] {
  const headings: Pseudo[] = [];
  const summaries: Pseudo[] = [];
  const intros: Pseudo[] = [];
  const seenKeys = new Set<string>();
  passages.forEach((p, doc) => {
    if (p.internal) return;
    const key = dedupKey(p);
    if (seenKeys.has(key)) return; // one pseudo-question per section or item: its first chunk
    seenKeys.add(key);
    const prose = proseOf(p.content);
    if (!p.symbol) {
      const heading = p.headings[p.headings.length - 1] ?? p.title ?? '';
      if (words(heading).length >= 3 && words(prose).length >= 20) headings.push({ kind: 'heading', question: heading, doc });
      const fence = p.content.indexOf('```');
      if (fence > 0) {
        const before = proseOf(p.content.slice(0, fence));
        const sentences = before.split(/(?<=[.!?:])\s+/).filter((s) => words(s).length >= 4);
        const intro = sentences[sentences.length - 1]?.replace(/[:.]+$/, '');
        if (intro && words(intro).length >= 4 && words(intro).length <= 30) intros.push({ kind: 'intro', question: intro, doc });
      }
    } else {
      const own = nameWords(p.symbol);
      const sentence = firstSentence(prose).replace(/[.!?]$/, '');
      const kept = words(sentence).filter((w) => !own.has(w.toLowerCase()));
      if (kept.length >= 4 && kept.length <= 30) summaries.push({ kind: 'summary', question: kept.join(' '), doc });
    }
  });
  return [headings, summaries, intros].flatMap((list) => shuffled(list, next).slice(0, perKind));
}


// Misses of the docs bench by cause: for each question a bench run missed at hit@3, is the expected answer's text in
// no passage of the index (extraction), in passages but cut or merged so no one passage holds it (passage making), or
// in a passage that ranks below #3 (ranking)? Reads the bench's per-question output and the store it indexed into.
//
// Usage: node --import tsx bench/docs-misses.ts <bench output> <its BENCH_HOME> [<output> <home> …] [--json out.json]
// The output must come from `BENCH_VERBOSE=all npm run bench:docs` (it lists every miss with its set). Only the spent
// sets are read: the current and next round's fresh sets are never loaded, so their misses cannot be classified here.
import fs from 'node:fs';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { allPassages, type StoredPassage } from '../src/docs/repository.ts';
import { createLogger } from '../src/log.ts';
import { rawArtifact, typesArtifact } from './docs-artifacts.ts';
import { answers, firstHit, loadQuestions, meets, type Answer, type Condition, type Expectation, type Question } from './docs-questions.ts';
import { hasExplanation } from '../src/docs/extract/evidence.ts';
import { MAX_DOCS_LIMIT } from '../src/docs/schema.ts';

/** The spent sets, each named explicitly (no glob: the round's fresh set must never be read). */
const SPENT: Array<[string, Question['set']]> = [
  ['docs-heldout.tsv', 'heldout'], ['docs-tuning.tsv', 'tuning'], ['docs-fresh.tsv', 'fresh'],
  ['docs-fresh-r4.tsv', 'fresh-r4'], ['docs-fresh-r5.tsv', 'fresh-r5'], ['docs-fresh-r6.tsv', 'fresh-r6'],
  ['docs-fresh-r7.tsv', 'fresh-r7'], ['docs-fresh-r8.tsv', 'fresh-r8'], ['docs-fresh-r9.tsv', 'fresh-r9'],
  ['docs-fresh-r10.tsv', 'fresh-r10'],
  ['docs-fresh-r11.tsv', 'fresh-r11'],
  ['docs-fresh-r12.tsv', 'fresh-r12'],
  ['docs-fresh-r13.tsv', 'fresh-r13'],
  ['docs-fresh-r14.tsv', 'fresh-r14'],
  ['docs-fresh-r15.tsv', 'fresh-r15'],
  ['docs-fresh-r16.tsv', 'fresh-r16'],
  ['docs-fresh-r17.tsv', 'fresh-r17'],
  ['docs-fresh-r18.tsv', 'fresh-r18'],
  ['docs-fresh-r19.tsv', 'fresh-r19'],
  ['docs-fresh-r20.tsv', 'fresh-r20'],
];

/** Causes from the closest to answered to the farthest; a question takes the closest cause over its alternatives. */
export const CAUSES = ['ranking', 'passage: merged', 'passage: split', 'passage: altered', 'other copy', 'extraction', 'not in artifact'] as const;
export type Cause = typeof CAUSES[number];

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');
/** Text without the markup passage making may rewrite: backticks, emphasis, comment stars, link targets, tags. */
export const plain = (text: string) => text.toLowerCase()
  .replace(/\]\([^)]*\)/g, ']').replace(/<[^>]+>/g, ' ').replace(/^\s*(\*|\/\/\/?|\/\/!|#)\s?/gm, ' ')
  .replace(/[^a-z0-9]+/g, ' ').trim();
const word = (name: string) => new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`);
const lastSegment = (symbol: string) => symbol.replace(/[!`]|\(\)/g, '').split(/::|\.|#|\//).filter(Boolean).pop() ?? '';

export interface Verdict { cause: Cause; detail: string }

/**
 * Why no passage answers one alternative (all its conditions on one passage). `files` is the raw artifact (path →
 * text). A condition no passage meets decides the cause: found elsewhere in the passages (split across a file's
 * passages, or rewritten), or only in the artifact (extraction: the files that hold it are named), or nowhere.
 */
export function alternativeCause(conditions: Condition[], passages: StoredPassage[], files: Map<string, string>): Verdict {
  const unmet = conditions.filter((c) => !passages.some((p) => meets(p, c)));
  if (!unmet.length) return { cause: 'passage: merged', detail: 'each condition is met by some passage, no one passage meets all' };
  // The answer's text is a passage, but made from another copy of the file the question names (a bundle, a `.d.cts`).
  const rest = conditions.filter((c) => c.kind !== 'file');
  const copy = unmet.every((c) => c.kind === 'file') && rest.length ? passages.find((p) => rest.every((c) => meets(p, c))) : undefined;
  if (copy) return { cause: 'other copy', detail: `${unmet.map((c) => c.value).join(', ')} wanted, answered from ${copy.source} (${copy.symbol ?? copy.title})` };
  return unmet.map((c) => conditionCause(c, passages, files)).reduce((a, b) => (CAUSES.indexOf(b.cause) > CAUSES.indexOf(a.cause) ? b : a));
}

function holders(files: Map<string, string>, test: (text: string) => boolean): string[] {
  return [...files].filter(([, text]) => test(text)).map(([file]) => file).slice(0, 3);
}

function conditionCause(c: Condition, passages: StoredPassage[], files: Map<string, string>): Verdict {
  switch (c.kind) {
    case 'text': {
      const want = squash(c.value);
      const bySource = new Map<string, string[]>();
      for (const p of passages) bySource.set(p.source, [...(bySource.get(p.source) ?? []), p.content]);
      const split = [...bySource].find(([, parts]) => squash(parts.join('\n')).includes(want));
      if (split) return { cause: 'passage: split', detail: `"${c.value}" spans passages of ${split[0]}` };
      const plainWant = plain(c.value);
      const altered = plainWant && passages.find((p) => plain(`${p.title ?? ''}\n${p.content}`).includes(plainWant));
      if (altered) return { cause: 'passage: altered', detail: `"${c.value}" only with markup removed, in ${altered.symbol ?? altered.title}` };
      const inFiles = holders(files, (text) => squash(text).includes(want) || (plainWant !== '' && plain(text).includes(plainWant)));
      return inFiles.length ? { cause: 'extraction', detail: `"${c.value}" in ${inFiles.join(', ')}` } : { cause: 'not in artifact', detail: `"${c.value}"` };
    }
    case 'symbol': {
      const name = lastSegment(c.value);
      const sameName = passages.find((p) => p.symbol && lastSegment(p.symbol).toLowerCase() === name.toLowerCase());
      if (sameName) return { cause: 'passage: altered', detail: `symbol ${c.value}: stored as ${sameName.symbol}` };
      const folded = name && passages.find((p) => word(name).test(p.content));
      const inFiles = name ? holders(files, (text) => word(name).test(text)) : [];
      if (!inFiles.length) return { cause: 'not in artifact', detail: `symbol ${c.value}` };
      if (folded) return { cause: 'passage: merged', detail: `symbol ${c.value}: no passage of its own, named in ${folded.symbol ?? folded.title}` };
      return { cause: 'extraction', detail: `symbol ${c.value} in ${inFiles.join(', ')}` };
    }
    case 'file': {
      const want = c.value.replace(/^package\//, '');
      const there = [...files.keys()].some((f) => f === want || f.endsWith(`/${want}`) || `package/${f}` === c.value);
      return there ? { cause: 'extraction', detail: `file ${want} has no passage` } : { cause: 'not in artifact', detail: `file ${c.value}` };
    }
    case 'title': {
      const want = squash(c.value.replace(/`/g, ''));
      const heading = passages.find((p) => p.headings.some((h) => squash(h.replace(/`/g, '')) === want)
        || p.content.split('\n').some((line) => squash(line.replace(/^#+\s*|`/g, '').trim()) === want));
      if (heading) return { cause: 'passage: merged', detail: `title "${c.value}" is a heading inside ${heading.symbol ?? heading.title}` };
      const inFiles = holders(files, (text) => squash(text.replace(/`/g, '')).includes(want));
      return inFiles.length ? { cause: 'extraction', detail: `title "${c.value}" in ${inFiles.join(', ')}` } : { cause: 'not in artifact', detail: `title "${c.value}"` };
    }
  }
}

/**
 * The passage side of a ranking miss: is the answering passage made so that a reader (and the ranker) can see the
 * answer? Classes, in the order a question takes the first that holds for its best-ranked answering passage:
 * - *bare item*: an API passage with no prose (its explanation, if any, is in another passage);
 * - *code-led section*: a guide section whose text before its first code block has under three words of prose, or
 *   that is mostly code (its explanation was cut off at a code block, or it is an example without a lead-in);
 * - *late summary*: an API passage whose first prose starts more than 400 characters in (a long signature first);
 * - *deep answer*: the question's text is met more than 1,200 characters into the passage;
 * - *well made*: none of these: the passage reads as an answer and ranking alone put it below #3.
 */
export const SHAPES = ['bare item', 'code-led section', 'late summary', 'deep answer', 'well made'] as const;
export type Shape = typeof SHAPES[number];

const FENCE = /```[\s\S]*?(```|$)/g;
export function passageShape(p: { symbol?: string | null; title?: string | null; content: string }, expect: Expectation): Shape {
  const { content } = p;
  if (p.symbol && !hasExplanation(content)) return 'bare item';
  if (!p.symbol) {
    const lead = content.split('```')[0] ?? '';
    const code = (content.match(FENCE) ?? []).join('').length;
    if (content.includes('```') && (!hasExplanation(lead) || code > 0.7 * content.length)) return 'code-led section';
  }
  if (p.symbol) {
    const firstProse = content.replace(FENCE, (m) => ' '.repeat(m.length)).search(/[\p{L}]{2,}/u);
    if (firstProse > 400) return 'late summary';
  }
  const text = expect.flat().filter((c) => c.kind === 'text').map((c) => squash(c.value));
  const body = squash(`${p.title ?? ''}\n${content}`);
  const at = text.map((t) => body.indexOf(t)).filter((i) => i >= 0);
  if (at.length && Math.min(...at) > 1200) return 'deep answer';
  return 'well made';
}

/** A miss line of the bench's verbose output: `  miss [set] tool "question" want raw: …`, matched to its question. */
export function parseMisses(output: string, questions: Question[]): Question[] {
  const byKey = new Map<string, Question[]>();
  for (const q of questions) byKey.set(`${q.set} ${q.tool}`, [...(byKey.get(`${q.set} ${q.tool}`) ?? []), q]);
  const misses: Question[] = [];
  for (const line of output.split('\n')) {
    const head = /^ {2}miss \[([^\]]+)\] (\S+) "/.exec(line);
    if (!head) continue;
    const q = (byKey.get(`${head[1]} ${head[2]}`) ?? []).find((c) => line.startsWith(`${head[0]}${c.question}" want ${c.raw}: `));
    if (q) misses.push(q);
  }
  return misses;
}

async function main(args: string[]): Promise<void> {
  const jsonAt = args.indexOf('--json');
  const jsonOut = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
  const questions = SPENT.flatMap(([file, set]) => loadQuestions(file, set));
  const rows: Array<{ set: string; ecosystem: string; tool: string; question: string; want: string; cause: Cause; detail: string; rank?: number; shape?: Shape; heldBack?: boolean; length?: number }> = [];
  for (let i = 0; i + 1 < args.length; i += 2) {
    const misses = parseMisses(fs.readFileSync(args[i]!, 'utf8'), questions);
    const app = await createApp(loadConfig({ TOOLDEX_HOME: args[i + 1]!, LOG_LEVEL: 'warn', TOOLDEX_DOCS_SITES: 'off', TOOLDEX_DOCS_DEADLINE_MS: 600_000 }, {}), createLogger('warn'));
    const artifacts = new Map<string, Map<string, string>>();
    for (const q of misses) {
      const result = await app.docs.search(q.tool, q.question, { limit: MAX_DOCS_LIMIT });
      const passages = await allPassages(app.store, result.slug, result.version);
      const answering = passages.filter((p) => answers(p, q.expect));
      if (answering.length) {
        const rank = firstHit(result.results as Answer[], q.expect);
        // The passage the ranker placed best among those that answer (the first stored one when none is in the answer).
        const hit = rank ? (result.results as Answer[])[rank - 1] : undefined;
        const best = answering.find((p) => hit && p.symbol === hit.symbol && p.title === hit.title && p.source === hit.source) ?? answering[0]!;
        const shape = passageShape(best, q.expect);
        // In no answer although the answer stopped short of the most it serves: left out as a near-duplicate of a
        // passage shown (a README copied into lib.rs docs) or as a second passage of its key, not out-ranked.
        const heldBack = !rank && result.results.length < MAX_DOCS_LIMIT;
        rows.push({ set: q.set, ecosystem: q.ecosystem, tool: q.tool, question: q.question, want: q.raw, cause: 'ranking', rank, shape, heldBack, length: best.content.length,
          detail: `best answering passage ${rank ? `at #${rank}` : heldBack ? `held back (${result.results.length} answers)` : `below #${MAX_DOCS_LIMIT}`}, ${shape} (${answering.slice(0, 2).map((p) => p.symbol ?? p.title).join('; ')})` });
        continue;
      }
      let files = artifacts.get(q.tool);
      if (!files) {
        const ref = q.tool.slice(q.tool.indexOf(':') + 1);
        const at = ref.lastIndexOf('@');
        const [name, version] = [ref.slice(0, at), ref.slice(at + 1)];
        try {
          files = await rawArtifact(q.ecosystem, name, version, undefined);
          if (q.ecosystem === 'npm' && ![...files.keys()].some((f) => /\.d\.[cm]?ts$/.test(f))) {
            const types = await typesArtifact(name, version);
            for (const [file, text] of types?.files ?? []) files.set(`@types/${file}`, text);
          }
        } catch (error) {
          console.error(`  could not read ${q.tool}: ${(error as Error).message}`);
          files = new Map();
        }
        artifacts.set(q.tool, files);
      }
      const verdicts = q.expect.map((alternative) => alternativeCause(alternative, passages, files!));
      const best = verdicts.reduce((a, b) => (CAUSES.indexOf(b.cause) < CAUSES.indexOf(a.cause) ? b : a));
      rows.push({ set: q.set, ecosystem: q.ecosystem, tool: q.tool, question: q.question, want: q.raw, ...best });
    }
    await app.close();
  }
  for (const r of rows) console.log(`${r.cause.padEnd(17)} [${r.set}] ${r.tool} "${r.question}" want ${r.want}: ${r.detail}`);
  const ecosystems = [...new Set(rows.map((r) => r.ecosystem))].sort();
  console.log(`\n| cause | ${ecosystems.join(' | ')} | all |\n|---|${ecosystems.map(() => '---|').join('')}---|`);
  for (const cause of CAUSES) {
    const n = (e?: string) => rows.filter((r) => r.cause === cause && (!e || r.ecosystem === e)).length;
    console.log(`| ${cause} | ${ecosystems.map((e) => n(e)).join(' | ')} | ${n()} |`);
  }
  console.log(`| misses at hit@3 | ${ecosystems.map((e) => rows.filter((r) => r.ecosystem === e).length).join(' | ')} | ${rows.length} |`);
  console.log(`\n| ranking misses: the answering passage | ${ecosystems.join(' | ')} | all |\n|---|${ecosystems.map(() => '---|').join('')}---|`);
  for (const shape of SHAPES) {
    const n = (e?: string) => rows.filter((r) => r.shape === shape && (!e || r.ecosystem === e)).length;
    console.log(`| ${shape} | ${ecosystems.map((e) => n(e)).join(' | ')} | ${n()} |`);
  }
  const held = (e?: string) => rows.filter((r) => r.heldBack && (!e || r.ecosystem === e)).length;
  console.log(`| of all ranking misses: held back, not out-ranked | ${ecosystems.map((e) => held(e)).join(' | ')} | ${held()} |`);
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(rows, null, 1));
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));

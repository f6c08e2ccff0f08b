// A caller's token budget (`maxTokens`) on docs and context answers: the best passages whole, then one-line pointers
// (symbol or title, url) until the budget is spent; a context keeps its core and points at what did not fit. Tokens are
// estimated (estimateTokens) as the o200k_base tokenizer counts them, from above. Pure: an answer in, a fitted one out.
import { ToolDexError } from '../errors.ts';

/** The budget an agent gets when it names none (MCP): a few passages whole and pointers to the rest. */
export const AGENT_MAX_TOKENS = 2000;
export const MIN_MAX_TOKENS = 200;
export const MAX_MAX_TOKENS = 32_000;

// Calibrated against js-tiktoken's o200k_base (the tokenizer bench:mcp counts with) on 2,901 chunks of 1,600 characters
// from READMEs, guides, .d.ts, Python, Rust and Go sources: the estimate is at or above the real count for 99 % of chunks
// (ratio p1 0.98, p5 1.06, median 1.19, p95 1.37), so an answer sized by it fits the budget as o200k counts it. Running
// the real tokenizer here would cost 1.5 s to load and about 2 ms per passage on these cores; this costs ~0.1 ms.
const PIECE = /\s?[A-Za-z]+|\s?[0-9]{1,3}|[^\x00-\x7f]|[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]+|\s+/gu;
const WORD_CHARS = 6;
const PUNCTUATION_CHARS = 2;

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(PIECE)) {
    if (/[A-Za-z]/.test(piece)) tokens += Math.max(1, Math.ceil(piece.trim().length / WORD_CHARS));
    else if (/^\s?[0-9]/.test(piece)) tokens += /^\s/.test(piece) ? 2 : 1; // a space before digits is a token of its own
    else if (/[^\x00-\x7f]/.test(piece)) tokens += 1;
    else if (/^\s+$/.test(piece)) tokens += piece.includes('\n') ? Math.ceil((piece.split('\n').length - 1) / 2) : piece.length > 1 ? 1 : 0;
    else tokens += Math.ceil(piece.length / PUNCTUATION_CHARS);
  }
  return tokens;
}

/** What a value costs in an answer: its JSON text (the largest of the encodings: field names, quotes, escapes). */
export const tokensOf = (value: unknown) => estimateTokens(JSON.stringify(value) ?? '');

/** One line in place of a passage that did not fit: what it is and where to read it. */
export interface Pointer { title: string; symbol?: string; url: string }

/**
 * What a surface adds around the answer that the budget must hold too: MCP's notice (`fixed`) and the markers it puts
 * around each quoted text (`perText`, see src/docs/untrusted.ts).
 */
export interface Overhead { fixed: number; perText: number }
const NO_OVERHEAD: Overhead = { fixed: 0, perText: 0 };

/** What the budget did: the cap the caller set and what the answer costs (estimated, o200k_base tokens). */
export interface BudgetReport { maxTokens: number; usedTokens: number }

export interface Fitted<P> { whole: P[]; pointers: Pointer[]; budget: BudgetReport }

/** Items (whole passages and pointers) an answer reaches when its budget allows: an agent sees the ranking's top ten. */
export const ANSWER_ITEMS = 10;
/** Passages that go whole whenever they fit, before any room is kept for pointers: the answer's core (what hit@3 reads). */
const SURE_WHOLE = 3;

/**
 * The ranked passages fitted to `maxTokens` beside an envelope (the rest of the answer): passages whole in rank order
 * while they fit (at most `maxWhole`) with room left for pointers to the rest of the first `items` (default
 * ANSWER_ITEMS), then a pointer per following passage while pointers fit. The first passage that does not fit ends the
 * whole ones, so the order stays the ranking's.
 */
export function fitPassages<P>(envelope: unknown, ranked: P[], options: { maxTokens: number; maxWhole: number; pointerOf: (passage: P) => Pointer; overhead?: Overhead; items?: number }): Fitted<P> {
  const overhead = options.overhead ?? NO_OVERHEAD;
  const items = Math.min(options.items ?? ANSWER_ITEMS, ranked.length);
  const pointerCost = (passage: P) => tokensOf(options.pointerOf(passage)) + 1;
  // What pointers to passages after k, up to the `items`-th, cost: kept free while passages after the first
  // SURE_WHOLE go whole (the best three go whole whenever they fit), and never more than half the budget.
  const reserve: number[] = new Array<number>(items + 1).fill(0);
  for (let k = items - 2; k >= 0; k--) reserve[k] = reserve[k + 1]! + pointerCost(ranked[k + 1]!);
  for (let k = 0; k < reserve.length; k++) reserve[k] = k < SURE_WHOLE ? 0 : Math.min(reserve[k]!, Math.floor(options.maxTokens / 2));
  // The two lists' own brackets and names, once.
  let used = tokensOf(envelope) + tokensOf({ results: [], pointers: [], budget: { maxTokens: options.maxTokens, usedTokens: options.maxTokens } }) + overhead.fixed;
  const whole: P[] = [];
  const pointers: Pointer[] = [];
  let rest = 0;
  for (; rest < ranked.length && whole.length < options.maxWhole; rest++) {
    const cost = tokensOf(ranked[rest]) + 1 + overhead.perText;
    if (used + cost + (reserve[rest] ?? 0) > options.maxTokens) break;
    whole.push(ranked[rest]!);
    used += cost;
  }
  for (; rest < ranked.length; rest++) {
    const pointer = options.pointerOf(ranked[rest]!);
    const cost = pointerCost(ranked[rest]!);
    if (used + cost > options.maxTokens) break;
    pointers.push(pointer);
    used += cost;
  }
  return { whole, pointers, budget: { maxTokens: options.maxTokens, usedTokens: used } };
}

interface ContextLike {
  entryPoints: string[];
  quickstart: { code: string; source: string } | null;
  testRequest: Record<string, unknown> | null;
  links: { registry: string };
}

/**
 * A context fitted to `maxTokens`: its core (identity, install, imports, links, requirements) always stays; what does not
 * fit leaves in this order, each with a pointer: entry points past the first, the test body, the quickstart's code.
 */
export function fitContext<C extends ContextLike>(context: C, maxTokens: number, overhead: Overhead = NO_OVERHEAD): C & { pointers?: Pointer[]; budget: BudgetReport } {
  const reportCost = tokensOf({ budget: { maxTokens, usedTokens: maxTokens } }) + (context.quickstart?.code ? overhead.fixed + overhead.perText : 0);
  let fitted: C & { pointers?: Pointer[] } = context;
  const pointers: Pointer[] = [];
  const cost = () => tokensOf(fitted) + tokensOf({ pointers }) + reportCost;
  const over = () => cost() > maxTokens;
  if (over() && context.entryPoints.length > 1) {
    const pointer = { title: `${context.entryPoints.length} more entry points`, url: context.links.registry };
    pointers.push(pointer); // counted while the list shrinks
    let kept = context.entryPoints.length;
    while (kept > 1 && over()) fitted = { ...fitted, entryPoints: context.entryPoints.slice(0, --kept) };
    pointer.title = `${context.entryPoints.length - kept} more entry points`;
  }
  if (over() && context.testRequest) {
    fitted = { ...fitted, testRequest: null };
    pointers.push({ title: 'testRequest (the body that runs the quickstart with test_tool): ask with a larger maxTokens', url: context.quickstart?.source || context.links.registry });
  }
  if (over() && context.quickstart?.code) {
    fitted = { ...fitted, quickstart: { ...fitted.quickstart!, code: '' } };
    pointers.push({ title: 'quickstart code', url: context.quickstart.source || context.links.registry });
  }
  const result = pointers.length ? { ...fitted, pointers } : fitted;
  return { ...result, budget: { maxTokens, usedTokens: cost() } };
}

interface SymbolAnswerLike { item?: { symbol: string; examples: Array<{ url: string }> } }

/** A symbol answer fitted to `maxTokens`: the item's signature and documentation always, its examples while they fit, then pointers. */
export function fitSymbol<A extends SymbolAnswerLike>(answer: A, maxTokens: number, overhead: Overhead = NO_OVERHEAD): A & { pointers?: Pointer[]; budget: BudgetReport } {
  const item = answer.item;
  const quoted = item ? overhead.fixed + overhead.perText : 0; // the notice and the documentation's fence
  if (!item?.examples.length) return { ...answer, budget: { maxTokens, usedTokens: tokensOf(answer) + tokensOf({ budget: { maxTokens, usedTokens: maxTokens } }) + quoted } };
  const bare = { ...answer, item: { ...item, examples: [] } };
  const fitted = fitPassages(bare, item.examples, { maxTokens, maxWhole: item.examples.length, pointerOf: (example) => ({ title: `example of ${item.symbol}`, url: example.url }),
    overhead: { fixed: quoted, perText: overhead.perText }, items: 0 });
  return { ...answer, item: { ...item, examples: fitted.whole }, ...(fitted.pointers.length ? { pointers: fitted.pointers } : {}), budget: fitted.budget };
}

/**
 * The docs capability with its context fitted to a caller's budget. Applied outermost (after the quickstart's
 * verification has replaced its program), so the budget counts the context every surface sends.
 */
export function withContextBudget<D extends { context(slug: string, options?: { maxTokens?: number; overhead?: Overhead }): Promise<ContextLike> }>(docs: D): D {
  return {
    ...docs,
    async context(slug: string, options: { maxTokens?: number; overhead?: Overhead } = {}) {
      const maxTokens = checkedMaxTokens(options.maxTokens);
      const context = await docs.context(slug, options);
      return maxTokens ? fitContext(context, maxTokens, options.overhead) : context;
    },
  } as D;
}

/** A budget out of range is refused by the capability too, for callers that do not come through a surface's schema. */
export function checkedMaxTokens(maxTokens: number | undefined): number | undefined {
  if (maxTokens === undefined) return undefined;
  if (!Number.isInteger(maxTokens) || maxTokens < MIN_MAX_TOKENS || maxTokens > MAX_MAX_TOKENS) {
    throw new ToolDexError('invalid_max_tokens', 422, `maxTokens must be a whole number from ${MIN_MAX_TOKENS} to ${MAX_MAX_TOKENS}, got ${maxTokens}.`, { field: 'maxTokens' });
  }
  return maxTokens;
}

// The changes capability (issue 23): what changed in a package between two published versions — the public API
// difference computed from both versions' extracted API (the extraction docs search uses), the release-note and
// migration-guide sections that cover the range, and with a question, the changes ranked for it.
import { LRUCache } from 'lru-cache';
import type { Catalog } from '../catalog/index.ts';
import { parseSlugReference } from '../catalog/slug.ts';
import type { Ecosystem } from '../catalog/types.ts';
import type { Config } from '../config.ts';
import { AGENT_MAX_TOKENS, estimateTokens, MAX_MAX_TOKENS, MIN_MAX_TOKENS } from '../docs/budget.ts';
import { getReleases } from '../docs/repository.ts';
import { invalidInput, isToolDexError, ToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/types.ts';
import { diffApis, type ApiChange, type ApiDiff } from './api-diff.ts';
import { loadApiItems } from './api-items.ts';
import { rankForQuestion, rankSections, type Ranked, type RankedSection } from './rank.ts';
import { compareReleases, fetchReleaseNotes, noteSections, sectionsInRange } from './release-notes.ts';

export const MAX_CHANGES_QUERY = 1000;

export interface ChangesOptions { q?: string; maxTokens?: number }

export interface VersionRef { slug: string; version: string }

export interface ChangesResult {
  name: string;
  ecosystem: Ecosystem;
  from: VersionRef;
  to: VersionRef;
  /** How many items changed in each way (the lists below may stop short of them under the budget). */
  counts: { removed: number; added: number; moved: number; signature: number; deprecated: number; unchanged: number; notes: number };
  removed: ApiChange[];
  /** Same name and declaration at a new path (a legacy `v1`/`v3` namespace, a module re-organisation). */
  moved: ApiChange[];
  signature: ApiChange[];
  deprecated: ApiChange[];
  added: ApiChange[];
  /** Changelog and migration-guide sections about releases after `from` up to `to`, those naming changed symbols first. */
  notes: RankedSection[];
  /** With q: the changes and sections that answer it, best first. */
  query?: string;
  answers?: Ranked[];
  /** What the token budget left out, per list. */
  omitted?: Partial<Record<'removed' | 'moved' | 'signature' | 'deprecated' | 'added' | 'notes' | 'answers', number>>;
  budget: { maxTokens: number; usedTokens: number };
  warnings: string[];
}

export interface Changes {
  between(tool: string, from: string, to: string, options?: ChangesOptions): Promise<ChangesResult>;
}

interface Prepared { slug: string; version: string }

export interface ChangesDeps {
  config: Config;
  store: Store;
  logger: Logger;
  catalog: Pick<Catalog, 'resolve'>;
  /** Resolves and indexes a version (the docs capability's prepare): both versions' API comes from there. */
  prepare(reference: string): Promise<Prepared>;
}

interface Computed { name: string; ecosystem: Ecosystem; from: Prepared; to: Prepared; diff: ApiDiff; notes: RankedSection[]; warnings: string[] }

/** `from`/`to` are versions of `tool`, or whole references for a Go major that lives at another path (`chi@v1.5.5`). */
const referenceFor = (tool: string, version: string) => (/[@:]/.test(version) ? version : `${tool}@${version}`);

export function createChanges(deps: ChangesDeps): Changes {
  // Two versions' diff and release notes cost two extractions and a download: kept for repeated questions.
  const cache = new LRUCache<string, Promise<Computed>>({ max: 64 });

  async function prepared(tool: string, version: string): Promise<Prepared> {
    try {
      return await deps.prepare(referenceFor(tool, version));
    } catch (error) {
      if (!isToolDexError(error) || error.code !== 'version_not_found') throw error;
      throw await withNearestVersions(error, tool, version);
    }
  }

  async function withNearestVersions(error: ToolDexError, tool: string, version: string): Promise<ToolDexError> {
    const record = await deps.catalog.resolve(parseSlugReference(tool).tool).catch(() => undefined);
    const releases = record ? await getReleases(deps.store, record.slug) : undefined;
    if (!releases?.versions.length) return error;
    const wanted = version.includes('@') ? version.slice(version.lastIndexOf('@') + 1) : version;
    const sorted = [...releases.versions].sort(compareReleases);
    const at = sorted.findIndex((v) => compareReleases(v, wanted) > 0);
    const split = at < 0 ? sorted.length : at;
    const nearest = [...sorted.slice(Math.max(0, split - 3), split), ...sorted.slice(split, split + 2)];
    return new ToolDexError('version_not_found', 404,
      `${record!.name} has no published version "${wanted}". Nearest versions: ${nearest.join(', ')}.`, { versions: nearest });
  }

  async function compute(tool: string, fromVersion: string, toVersion: string): Promise<Computed> {
    const record = await deps.catalog.resolve(parseSlugReference(tool).tool);
    const [from, to] = await Promise.all([prepared(tool, fromVersion), prepared(tool, toVersion)]);
    const [older, newer] = await Promise.all([loadApiItems(deps.store, from.slug, from.version), loadApiItems(deps.store, to.slug, to.version)]);
    if (from.slug !== to.slug) {
      // A Go major at a new module path: the package's own item is named by its path, which is the one thing that moved.
      const [fromName, toName] = await Promise.all([from.slug, to.slug].map(async (slug) => (await deps.catalog.resolve(slug).catch(() => undefined))?.name));
      for (const item of older) if (fromName && toName && item.symbol === fromName) item.symbol = toName;
    }
    const diff = diffApis(older, newer);
    const warnings: string[] = [];
    if (older.length === 0 || newer.length === 0) {
      warnings.push(`No public API was extracted from ${older.length === 0 ? from.version : to.version}: the API difference is empty or one-sided; the release notes below still apply.`);
    }
    let notes: RankedSection[] = [];
    try {
      const toRecord = to.slug === record.slug ? record : await deps.catalog.resolve(to.slug);
      const artifact = await fetchReleaseNotes(deps.config, toRecord.ecosystem, toRecord.name, to.version);
      notes = rankSections(sectionsInRange(noteSections(artifact.files, artifact.fileUrl), from.version, to.version), diff);
      if (artifact.files.length === 0) warnings.push(`${toRecord.name} ${to.version} ships no changelog or migration guide in its published artifact.`);
    } catch (error) {
      deps.logger.warn({ err: error, slug: to.slug, version: to.version }, 'release notes could not be read');
      warnings.push(`The release notes of ${to.version} could not be read (${isToolDexError(error) ? error.message : 'download failed'}); the API difference is complete.`);
    }
    return { name: record.name, ecosystem: record.ecosystem, from, to, diff, notes, warnings };
  }

  return {
    async between(tool, fromVersion, toVersion, options = {}) {
      const question = options.q?.trim();
      if (options.q !== undefined && !question) throw invalidInput('invalid_query', 'Query "q" is empty; ask what you want to know about the change, or leave q out.');
      if (question && question.length > MAX_CHANGES_QUERY) throw invalidInput('invalid_query', `Query "q" is ${question.length} characters; the limit is ${MAX_CHANGES_QUERY}.`);
      const maxTokens = options.maxTokens ?? AGENT_MAX_TOKENS;
      if (!Number.isInteger(maxTokens) || maxTokens < MIN_MAX_TOKENS || maxTokens > MAX_MAX_TOKENS) {
        throw invalidInput('invalid_max_tokens', `maxTokens must be an integer from ${MIN_MAX_TOKENS} to ${MAX_MAX_TOKENS}.`, { field: 'maxTokens' });
      }
      const key = `${tool}\u0000${fromVersion}\u0000${toVersion}`;
      let computing = cache.get(key);
      if (!computing) {
        computing = compute(tool, fromVersion, toVersion);
        cache.set(key, computing);
        computing.catch(() => cache.delete(key)); // a failure (registry down, 503 while indexing) is asked again next time
      }
      const computed = await computing;
      return fitToBudget(computed, question, maxTokens);
    },
  };
}

/** Signatures are cut for the answer (a TypeScript overload set can run to pages); the URL has the rest. */
const SIGNATURE_CHARS = 400;
/** A release-note section goes whole only up to this length; its URL has the rest. */
const NOTE_CHARS = 1200;
const trimNote = (note: RankedSection): RankedSection => (note.content.length > NOTE_CHARS ? { ...note, content: `${note.content.slice(0, NOTE_CHARS)}…` } : note);
const trimChange = (change: ApiChange): ApiChange => {
  const side = (item: ApiChange['from']) => item && { ...item, signature: item.signature && item.signature.length > SIGNATURE_CHARS ? `${item.signature.slice(0, SIGNATURE_CHARS)}…` : item.signature };
  return { ...change, ...(change.from ? { from: side(change.from) } : {}), ...(change.to ? { to: side(change.to) } : {}) };
};

/**
 * Fills the answer in the order an upgrading reader needs it — answers to the question, removals, signature changes,
 * deprecations, release notes, moves, additions — until the budget is spent; the counts always say how many there are.
 */
function fitToBudget(computed: Computed, question: string | undefined, maxTokens: number): ChangesResult {
  const { diff } = computed;
  const result: ChangesResult = {
    name: computed.name, ecosystem: computed.ecosystem,
    from: { slug: computed.from.slug, version: computed.from.version }, to: { slug: computed.to.slug, version: computed.to.version },
    counts: { removed: diff.removed.length, added: diff.added.length, moved: diff.moved.length, signature: diff.signature.length, deprecated: diff.deprecated.length, unchanged: diff.unchanged, notes: computed.notes.length },
    removed: [], moved: [], signature: [], deprecated: [], added: [], notes: [],
    ...(question ? { query: question, answers: [] } : {}),
    budget: { maxTokens, usedTokens: 0 }, warnings: computed.warnings,
  };
  let used = estimateTokens(JSON.stringify(result));
  const omitted: NonNullable<ChangesResult['omitted']> = {};
  const fill = <T>(name: keyof NonNullable<ChangesResult['omitted']>, target: T[], items: T[]) => {
    let i = 0;
    for (; i < items.length; i++) {
      const cost = estimateTokens(JSON.stringify(items[i])) + 1;
      if (used + cost > maxTokens) break;
      target.push(items[i]!);
      used += cost;
    }
    if (i < items.length) omitted[name] = items.length - i;
  };
  if (question) {
    const ranked = rankForQuestion(question, [...diff.removed, ...diff.moved, ...diff.signature, ...diff.deprecated, ...diff.added], computed.notes, 10)
      .map((r) => (r.kind === 'change' ? { ...r, change: trimChange(r.change) } : { ...r, note: trimNote(r.note) }));
    fill('answers', result.answers!, ranked);
  }
  fill('removed', result.removed, diff.removed.map(trimChange));
  fill('signature', result.signature, diff.signature.map(trimChange));
  fill('deprecated', result.deprecated, diff.deprecated.map(trimChange));
  fill('notes', result.notes, computed.notes.map(trimNote));
  fill('moved', result.moved, diff.moved.map(trimChange));
  fill('added', result.added, diff.added.map(trimChange));
  if (Object.keys(omitted).length) result.omitted = omitted;
  result.budget.usedTokens = used;
  return result;
}

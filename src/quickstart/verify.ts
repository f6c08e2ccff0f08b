// Verifies one tool version: collects its usage examples, ranks them, turns the best into programs and runs them in
// the sandbox (as the service's own owner, one session per verification) until one prints something meaningful.
import type { ToolRecord } from '../catalog/index.ts';
import { ToolDexError } from '../errors.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { Sandbox, TestRequest, TestResult } from '../sandbox/schema.ts';
import { textOf } from '../docs/archive.ts';
import { fetchExampleFiles } from './artifact.ts';
import { collectCandidates, collectDataBlocks } from './collect.ts';
import { analysable, combineFragments, grammarOf, isTranscript } from './combine.ts';
import { neverExits } from './exits.ts';
import { goServeCalls } from './programs/go-serve.ts';
import { serves } from './programs/serve-once.ts';
import { withSyntaxTree } from './parse.ts';
import { withInputNeeds } from './inputs.ts';
import { asCode } from './notation.ts';
import { entryOf, withheldBecause } from './offer.ts';
import { npmExportsProbe, npmImportLines, programImportLines, readNpmExports } from './imports.ts';
import { importLinesCheck, readImportLinesCheck } from './import-check.ts';
import type { HostFacts } from './host-facts.ts';
import { missingPath, namedFiles } from './fixtures.ts';
import { echoesInput, hopeless, meaningfulStdout, sandboxFault, summariseFailure } from './outcome.ts';
import { programUsesPackage } from './package-use.ts';
import { packageInfo } from './package-info.ts';
import { pickAndJudge, withDoubtHeader, TEACH_SELECTION, type TeachSelection } from './teach-model.ts';
import type { RanCandidate } from './teach-features.ts';
import { cliRetry, makeProgram, repairFor, type Adjustments } from './programs/index.ts';
import { camelName, packageBindings } from './programs/node.ts';
import { pythonBindings } from './programs/python.ts';
import { nothingToCall, proceduralMacroCrate } from './rust-api.ts';
import { blockersOf, docsCallCounts, rankCandidates, readmeLeadNames } from './score.ts';
import { localWebVariants } from './local-web.ts';
import { declaredParameters, withPackageKind } from './npm-values.ts';
import { npmDeclaredExportKinds } from './npm-exports.ts';
import type { Candidate, PackageInfo, Program, ScoredCandidate, VerificationResult, Verified } from './types.ts';

/** Who owns the verification sessions: never a caller, so no caller's session, secrets or budget is touched. */
export const SERVICE_OWNER = 'service:quickstart';
/**
 * What "verified" means, stored with each verdict (quickstart_verifications.verifier): bump it when a change makes
 * earlier verdicts wrong (round 8: the package-use check; 2: its weak tier, which verifies value exports and side-effect
 * APIs that version 1 left failed; 3, round 12: Go generic calls and callbacks the package runs count as its use, so
 * README programs version 2 passed over are verified, and import lines that need packages installed beside it are no
 * longer handed out), and rows made by an older verifier are verified again on their next request. 0 is every row
 * made before the column existed.
 */
export const VERIFIER_VERSION = 3;

export interface VerifyDeps {
  config: Config;
  logger: Logger;
  sandbox: Pick<Sandbox, 'run'>;
  host: () => Promise<HostFacts>;
  /** Called before each sandbox run; false means the lease was lost (stop quietly). */
  keepAlive: () => Promise<boolean>;
  /** Called once the best offerable candidate is known, before any run: what a pending context may show, unverified. */
  preview?: (result: VerificationResult) => Promise<void>;
  /** Selection among candidates that ran (teach-model.ts); its declared default unless a caller (a test) says. */
  teachSelection?: TeachSelection;
}

export interface VerifyOutcome { status: Exclude<Verified['status'], 'pending'>; result: VerificationResult }

const STDOUT_EXCERPT = 600;
const REPAIRS_PER_CANDIDATE = 2;
/** Sandbox runs beyond TOOLDEX_QUICKSTART_MAX_RUNS that only programs written from the package's API may use. */
export const API_RUNS = 3;

const LANGUAGE: Record<string, string> = { npm: 'javascript', pypi: 'python', crates: 'rust', go: 'go', rubygems: 'ruby' };

export class LeaseLost extends Error {}

/** What a verification knows before any run: the version's files, facts, and candidates ranked best first. */
export interface Prepared {
  files: Awaited<ReturnType<typeof fetchExampleFiles>>;
  info: PackageInfo;
  through?: Awaited<ReturnType<typeof facadeExamples>>;
  ranked: ScoredCandidate[];
  endless: Map<ScoredCandidate, string>;
  exiting: ScoredCandidate[];
  /** What will be tried, in order. */
  candidates: ScoredCandidate[];
  /** Set when nothing is to be tried: the package is not verifiable at all. */
  unverifiable?: string;
}

/**
 * Collects and ranks a version's candidates without running anything (verifyVersion's first half; also what the
 * quickstart bench's rank-only mode prints, so selection can be judged without sandbox builds).
 */
export async function prepareCandidates(deps: Pick<VerifyDeps, 'config'>, tool: ToolRecord, version: string, host: HostFacts): Promise<Prepared> {
  let files = await fetchExampleFiles(deps.config, tool.ecosystem, tool.name, version);
  let info = await packageInfo(deps.config, tool, version, files, host);
  // A procedural-macro crate without examples of its own is used through its facade crate: the facade's examples of
  // the same version, built with this crate pinned, run its macros (thiserror's derive is thiserror-impl's code).
  const through = tool.ecosystem === 'crates' ? await facadeExamples(deps, tool, version, files, host) : undefined;
  if (through) ({ files, info } = through);
  const binary = tool.ecosystem === 'npm' ? npmPlatformBinary(files.files) : undefined;
  const empty = { files, info, through, ranked: [], endless: new Map(), exiting: [], candidates: [] };
  if (binary) return { ...empty, unverifiable: `a platform binary (${binary}, for the os/cpu its manifest names): another package loads it; it has no API of its own to run` };
  if (tool.ecosystem === 'npm' && npmTypesOnly(files.files)) return { ...empty, unverifiable: 'a types-only package (its entry points are .d.ts declarations): there is no code to run' };
  const examples = await combineFragments(tool.ecosystem, tool.ecosystem === 'npm' ? await readableAsCode(await collectCandidates(tool.ecosystem, files)) : await collectCandidates(tool.ecosystem, files));
  if (tool.ecosystem === 'npm') info.jsBindings = await packageBindings(examples.map((c) => c.code), tool.name);
  if (tool.ecosystem === 'pypi') info.pyBindings = await pythonBindings(examples.map((c) => c.code), info.importName);
  // Network examples again, pointed at a local stand-in web server: an HTTP client's README example runs offline.
  // The package called by its own name (`got('https://…')`); not every name its docs import from it (yarl's `URL(…)`
  // builds a URL, it sends nothing).
  const own = [camelName(tool.name), info.importName.split('.')[0]!];
  const collected = [...examples, ...await localWebVariants(examples, tool.ecosystem, blockersOf, own), ...await servedVariants(tool.ecosystem, examples)];
  if (tool.ecosystem === 'pypi' || tool.ecosystem === 'npm' || tool.ecosystem === 'go') info.dataBlocks = withPackageKind(await collectDataBlocks(files), tool.name, readmeText(files));
  // The names the docs bind the package to (`pd` for pandas, whose doctests use it without importing) name it too.
  // npm: the names the entry point's declarations export name the package too (a JSDoc example calls `DateTime.…`
  // with no import line of its own).
  // npm: the package's name capitalised (`Mustache.render(…)` with no import line in the block) names it too, as the
  // program maker already binds it (node.ts): mustache's README's first example was scored as not naming the package.
  const capitalised = camelName(tool.name).replace(/^[a-z]/, (c) => c.toUpperCase());
  // Read for the name and version fetched (the cache's key), and the type-only names kept for the import lines.
  const declared = tool.ecosystem === 'npm' ? await npmDeclaredExportKinds(files.files, { name: tool.name, version }) : undefined;
  if (declared) info.npmTypeOnly = declared.typeOnly;
  const bindings = [...Object.keys(info.jsBindings ?? info.pyBindings ?? {}), ...(declared ? [...declared.names, capitalised] : [])];
  // What a parse finds each needs from outside (stdin, a data file) ranks it down; Python 2 code is never tried.
  const { ranked } = await withInputNeeds(tool.ecosystem, rankCandidates(collected, tool.ecosystem, tool.name, info.importName, bindings, { publicNames: info.pyExports }));
  // Servers and endless loops end only at the sandbox's deadline: never run, never shown (see exits.ts).
  const endless = await endlessCandidates(tool.ecosystem, ranked);
  const exiting = ranked.filter((c) => !endless.has(c));
  const offline = exiting.filter((c) => !c.blockers.includes('needs network'));
  const candidates = deps.config.TOOLDEX_QUICKSTART_NETWORK_EXAMPLES === 'never' ? offline : [...offline, ...exiting.filter((c) => c.blockers.includes('needs network'))];
  return { files, info, through, ranked, endless, exiting, candidates };
}

export async function verifyVersion(deps: VerifyDeps, tool: ToolRecord, version: string): Promise<VerifyOutcome> {
  const host = await deps.host();
  const { files, info, through, ranked, endless, exiting, candidates, unverifiable } = await prepareCandidates(deps, tool, version, host);
  if (unverifiable) {
    return { status: 'unverifiable', result: { verified: { status: 'unverifiable', version, reason: unverifiable }, quickstart: null, testRequest: null, tried: [] } };
  }
  const tried: VerificationResult['tried'] = [];
  const language = LANGUAGE[tool.ecosystem] ?? tool.ecosystem;
  if (!candidates.length) {
    const nothing = !ranked.length && tool.ecosystem === 'crates' ? await nothingToCall(files, tool.name) : undefined;
    const reason = !ranked.length ? nothing ?? 'no usage example in the README, docs or doc comments of this version'
      : !exiting.length ? `every example never exits by itself (${[...endless.values()][0]})`
        : `needs network: every example calls a third-party host, and this server does not run those (TOOLDEX_QUICKSTART_NETWORK_EXAMPLES=never)`;
    const first = exiting[0];
    return withImports(deps, info, { status: 'unverifiable', result: { verified: { status: 'unverifiable', version, reason }, quickstart: first ? { code: first.code, language, source: first.source } : null, testRequest: null, tried } });
  }
  if (deps.preview) {
    const preview = await previewOf(tool, version, info, host, candidates, through);
    if (preview) await deps.preview(preview);
  }
  if (tool.ecosystem === 'npm') {
    // What the package really exports, before any example runs (after the preview, which a pending context shows before any run): names an example reads that neither it, Node nor
    // the package binds are values from the prose, given stand-ins up front (npm-values.ts) instead of a failed run.
    info.npmProbe = await probeNpmExports(deps, info);
    ({ types: info.npmParamTypes, names: info.npmParamNames } = await declaredParameters(files.files));
  }
  return withImports(deps, info, await tryCandidates(deps, tool, version, info, host, candidates, through, ranked));
}

/**
 * The outcome with the import lines a context may hand out, each known to load: the package's import lines of the
 * program that ran, and for npm those derived from its real exports by one probe run (imports.ts).
 */
async function withImports(deps: VerifyDeps, info: PackageInfo, outcome: VerifyOutcome): Promise<VerifyOutcome> {
  const lines: string[] = [];
  const entry = outcome.status === 'ran' ? entryOf(outcome.result.testRequest as unknown as Record<string, unknown>) : undefined;
  if (entry) {
    const own = await programImportLines(info, entry.code, outcome.result.quickstart?.language ?? '', entry.path, info.npmTypeOnly ? new Set(info.npmTypeOnly) : undefined);
    const alone = await importLinesAlone(deps, info, own, (outcome.result.testRequest as TestRequest | null)?.packages ?? []);
    lines.push(...alone.lines);
    if (alone.tried) outcome = { ...outcome, result: { ...outcome.result, tried: [...outcome.result.tried, alone.tried] } };
  }
  const probe = info.ecosystem === 'npm' ? info.npmProbe ?? await probeNpmExports(deps, info) : undefined;
  if (probe) {
    if (probe.exports) lines.push(...await npmImportLines(info.name, probe.exports, outcome.result.quickstart?.code));
    // Every sandbox run of a verification is on its record, this one too.
    outcome = { ...outcome, result: { ...outcome.result, tried: [...outcome.result.tried, { source: 'import lines (probe of the exports)', status: probe.status, ...(probe.exports ? {} : { detail: 'its exports could not be read' }) }] } };
  }
  // One line per kind (the program's own first), so an ES import and a require are both offered when both load.
  const kind = (line: string) => (/^import\s/.test(line) ? 'import' : /require\(/.test(line) ? 'require' : line);
  const chosen = [...new Set(lines)].filter((line, i, all) => all.findIndex((l) => kind(l) === kind(line)) === i || info.ecosystem !== 'npm');
  return chosen.length ? { ...outcome, result: { ...outcome.result, imports: chosen.slice(0, 3) } } : outcome;
}

/** The package's own name in a request's package spec (`name==1.2`, `name[extra]>=1`, `@scope/name@1.2`), normalised as the registry compares names. */
function specName(spec: string, ecosystem: PackageInfo['ecosystem']): string {
  const name = ecosystem === 'npm' ? spec.replace(/(?<=.)@.*$/, '') : spec.split(/[[<>=!~;\s@]/)[0]!;
  return ecosystem === 'pypi' ? name.toLowerCase().replace(/[-_.]+/g, '-') : name;
}

/**
 * The import lines read from a program that ran with other packages installed beside this one (`numpy` beside a
 * package whose submodule imports it): a line can load there and fail where the package is installed alone, which is
 * how a context's reader pastes it. npm and PyPI lines are then run alone, verbatim (import-check.ts, one run), and a
 * line that fails is not handed out (the program, with its packages, still shows it). A line whose check did not
 * report (the run failed) is kept: the check only removes what it saw fail. Crates' and Go's lines come with a
 * manifest that names every dependency, so they are not checked.
 */
export async function importLinesAlone(deps: Pick<VerifyDeps, 'sandbox' | 'keepAlive'>, info: PackageInfo, lines: string[], packages: string[]):
Promise<{ lines: string[]; tried?: VerificationResult['tried'][number] }> {
  if (!lines.length || (info.ecosystem !== 'npm' && info.ecosystem !== 'pypi')) return { lines };
  const own = specName(info.name, info.ecosystem);
  const beside = packages.filter((p) => specName(p, info.ecosystem) !== own);
  if (!beside.length || !(await deps.keepAlive())) return { lines };
  // At the version that ran (a pin can be older than the context's when the sandbox cannot install the newest).
  const spec = packages.find((p) => specName(p, info.ecosystem) === own) ?? '';
  const version = (info.ecosystem === 'npm' ? /(?<=.)@(.+)$/.exec(spec)?.[1] : /==([^\s;,]+)/.exec(spec)?.[1]) ?? info.version;
  try {
    const result = await deps.sandbox.run(importLinesCheck(info.ecosystem, { name: info.name, version, slug: info.slug }, lines), SERVICE_OWNER);
    const verdicts = readImportLinesCheck(result.stdout, lines.length);
    const failed = lines.filter((_, i) => verdicts[i]?.ok === false);
    return {
      lines: lines.filter((_, i) => verdicts[i]?.ok !== false),
      tried: { source: `import lines alone (the program ran with ${beside.join(', ')})`, status: result.status, ...(failed.length ? { detail: `not handed out, they need more than the package: ${failed.join('; ')}` } : {}) },
    };
  } catch {
    return { lines };
  }
}

/** One probe run of an npm package's exports (imports.ts); undefined when it could not run. */
async function probeNpmExports(deps: Pick<VerifyDeps, 'sandbox' | 'keepAlive' | 'logger'>, info: PackageInfo): Promise<PackageInfo['npmProbe']> {
  if (!(await deps.keepAlive())) return undefined;
  try {
    const probe = await deps.sandbox.run(npmExportsProbe(info), SERVICE_OWNER);
    return { status: probe.status, exports: probe.status === 'ran' ? readNpmExports(probe.stdout) : undefined };
  } catch (error) {
    deps.logger.warn({ err: error, name: info.name }, 'the import probe did not run');
    return undefined;
  }
}

/** The README's text: the artifact's README file nearest the root, else the registry's long description. */
export function readmeText(files: Awaited<ReturnType<typeof fetchExampleFiles>>): string | undefined {
  const file = files.files.filter((f) => /^readme(\.\w+)?$/i.test(f.path.split('/').pop() ?? '')).sort((a, b) => a.path.split('/').length - b.path.split('/').length)[0];
  return file ? textOf(file) : files.readme?.text;
}

/** npm candidates as code: documentation notation rewritten where a parse proves the rewrite, else left out (notation.ts). */
async function readableAsCode(candidates: Candidate[]): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    const read = candidate.origin === 'api' ? { code: candidate.code } : await asCode(candidate.code);
    if (read) out.push({ ...candidate, code: read.code });
  }
  return out;
}

/**
 * Candidates that would not exit by themselves (servers, endless loops), with why. A server run with one request
 * (`serves`) is read for loops only. Go: a value routes are registered on and then run (`h.Spin()`) serves too.
 */
async function endlessCandidates(ecosystem: ToolRecord['ecosystem'], candidates: ScoredCandidate[]): Promise<Map<ScoredCandidate, string>> {
  const endless = new Map<ScoredCandidate, string>();
  for (const candidate of candidates) {
    const grammar = grammarOf(ecosystem, candidate);
    const code = analysable(ecosystem, candidate);
    let why = grammar ? await neverExits(code, grammar, !candidate.serves) : undefined;
    if (!why && ecosystem === 'go' && !candidate.serves) {
      const call = await withSyntaxTree('go', code, (root) => goServeCalls(root)[0]?.text);
      if (call) why = `runs a server: ${call.slice(0, 100)} serves the routes registered before it until it is stopped`;
    }
    if (why) endless.set(candidate, why);
  }
  return endless;
}

/**
 * Examples that start a server, again as programs that make one request to it and print the answer (marked `serves`):
 * Go runs the serving statement in the background (programs/go-serve.ts); npm, PyPI and crates start the request
 * beside the example's own code (programs/serve-once.ts).
 */
async function servedVariants(ecosystem: ToolRecord['ecosystem'], candidates: Candidate[]): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    if (candidate.origin === 'api' || candidate.localWeb) continue;
    const grammar = grammarOf(ecosystem, candidate);
    if (!grammar) continue;
    // A Python transcript (`>>>` prompts) is a session, not a program whose server a request could be made beside.
    if (ecosystem === 'pypi' && isTranscript(candidate)) continue;
    const code = analysable(ecosystem, candidate);
    if (await serves(code, grammar)) out.push({ ...candidate, serves: true });
  }
  return out;
}

/** How many of the best candidates are made into programs to find one a pending context may show. */
const PREVIEW_LOOK = 5;

/**
 * The program a pending context offers, unverified: the best-ranked of the first few candidates that needs nothing
 * the sandbox lacks and whose program could run as shown (offer.ts). Undefined when none qualifies.
 */
async function previewOf(tool: ToolRecord, version: string, info: PackageInfo, host: HostFacts, candidates: ScoredCandidate[],
  through?: Awaited<ReturnType<typeof facadeExamples>>): Promise<VerificationResult | undefined> {
  for (const candidate of candidates.slice(0, PREVIEW_LOOK)) {
    if (candidate.blockers.length || candidate.origin === 'api') continue;
    let program: Program;
    try {
      program = await makeProgram(candidate, info, host, through ? { rustDeps: through.pin } : {});
    } catch {
      continue;
    }
    const entry = entryOf(program.request as unknown as Record<string, unknown>);
    if (!entry || await withheldBecause(tool.ecosystem, entry.code, program.language, entry.path)) continue;
    return {
      verified: { status: 'pending', version: program.version }, quickstart: { code: program.code, language: program.language, source: candidate.source },
      testRequest: program.request, tried: [],
    };
  }
  return undefined;
}

/**
 * Runs the candidates best first, in one sandbox session, repairing each from its own diagnostics, until one prints
 * something meaningful; the verification's outcome.
 */
export async function tryCandidates(deps: Omit<VerifyDeps, 'host'>, tool: ToolRecord, version: string, info: PackageInfo, host: HostFacts,
  candidates: ScoredCandidate[], through?: Awaited<ReturnType<typeof facadeExamples>>,
  /**
   * Every candidate of the page (prepareCandidates' `ranked`), for the teach model's `leadShare` and `docsShare`: the
   * fit read them over all of a package's examples, including those not tried here (servers, network). Default: the
   * candidates tried.
   */
  page: ScoredCandidate[] = candidates): Promise<VerifyOutcome> {
  const tried: VerificationResult['tried'] = [];
  const language = LANGUAGE[tool.ecosystem] ?? tool.ecosystem;
  const maxRuns = deps.config.TOOLDEX_QUICKSTART_MAX_RUNS;
  let runs = 0;
  let sessionId: string | undefined;
  let best: { candidate: ScoredCandidate; program: Program } | undefined;
  let lastFailure = '';
  let reserve: VerifyOutcome | undefined;
  // The first run whose package use is only weak (package-use.ts: it prints a value read from the package, or shows a
  // call's side effect through the standard library): verified only when no candidate reaches a strong use.
  let weak: VerifyOutcome | undefined;
  const fallback = () => reserve ?? weak;
  /** Candidates that got at least one run or a verdict (a candidate may run several times, repaired). */
  const attempted = new Set<ScoredCandidate>();
  // Candidates whose program never imports the package: never shown, not even as the failure's quickstart.
  const neverImports = new Set<ScoredCandidate>();
  const runtimeName = (request: TestRequest) => host.runtimes[request.runtime] ?? request.runtime;
  // Candidates that ran and printed a result, when selection picks among several (teach-model.ts), and the bounds.
  const selection = deps.teachSelection ?? TEACH_SELECTION;
  const ran: Array<{ outcome: VerifyOutcome; judged: RanCandidate }> = [];
  // The README's lead examples' calls, for the model's `leadShare` (what the main use calls, as the page shows it first).
  const leadNames = readmeLeadNames(page);
  // How many of the docs' examples call each name, for the model's `docsShare`.
  const docsCalls = docsCallCounts(page);
  let firstRan: { at: number; runs: number } | undefined;
  const moreAlternatives = () => !firstRan || (ran.length < selection.alternatives && runs - firstRan.runs < selection.extraRuns && Date.now() - firstRan.at < selection.extraMs);
  const pick = async (): Promise<VerifyOutcome> => {
    const { at, p, doubt } = await pickAndJudge(ran.map((r) => r.judged), selection.model);
    const chosen = ran[at]!.outcome;
    if (chosen.result.chosen) chosen.result.chosen = { ...chosen.result.chosen, signals: [...chosen.result.chosen.signals, `teaches p=${p.toFixed(2)}, picked of ${ran.length} that ran`] };
    // A program unlikely to teach is said to be so where a reader sees the verdict, not shown as the main use.
    const verified = doubt ? { ...chosen.result.verified, note: [chosen.result.verified.note, doubt].filter(Boolean).join(' ') } : chosen.result.verified;
    // And where a reader of the program alone sees it: heading the shown code (the test request keeps the code that ran).
    const quickstart = chosen.result.quickstart && { ...chosen.result.quickstart, code: withDoubtHeader(chosen.result.quickstart.code, chosen.result.quickstart.language, doubt) };
    // The record of runs is the verification's, not the first success's: every alternative tried is on it.
    return { ...chosen, result: { ...chosen.result, verified, quickstart, tried } };
  };

  for (const candidate of candidates) {
    if (ran.length && !moreAlternatives()) break;
    // A program tooldex wrote is never shown instead of a real example that ran, nor instead of one whose use of the
    // package is only weak (the pool's tasks add to a counter the program then prints): the issue's rule is to use a
    // generated program only when nothing else runs. Seen once in the spent bench outputs (r7–r10: a written
    // `fmt.Println(ants.Cap())` rated trivial, where the weak examples were rated teaches; docs/quickstarts.md,
    // "Round 11: selection").
    const realRan = ran.some((r) => r.judged.origin !== 'api') || (weak?.result.chosen && weak.result.chosen.origin !== 'api');
    if (realRan && candidate.origin === 'api') continue;
    // Programs written from the API have a few runs of their own: the docs' examples may spend the whole budget
    // failing (credentials, services, fragments) before the programs that need none are reached.
    const limit = candidate.origin === 'api' ? maxRuns + API_RUNS : maxRuns;
    if (runs >= limit) continue;
    let adjust: Adjustments = through ? { rustDeps: through.pin } : {};
    attempted.add(candidate);
    for (let repair = 0; repair <= REPAIRS_PER_CANDIDATE && runs < limit; repair++) {
      let program: Program;
      try {
        program = await makeProgram(candidate, info, host, adjust);
      } catch (error) {
        tried.push({ source: candidate.source, status: 'not_a_program', detail: (error as Error).message.slice(0, 200) });
        break;
      }
      if (through) program.note = [program.note, through.note].filter(Boolean).join(' ');
      // A program that never imports the package proves nothing about it, whatever it prints: not run.
      const use = await programUsesPackage(program.code, info, program.request.entry ?? program.request.files[0]?.path);
      if (use.refusal === 'never_imports') {
        neverImports.add(candidate);
        tried.push({ source: candidate.source, status: 'not_a_program', detail: use.why });
        break;
      }
      best ??= { candidate, program };
      if (!(await deps.keepAlive())) throw new LeaseLost('lease lost');
      runs++;
      const started = Date.now();
      let result: TestResult;
      try {
        result = await deps.sandbox.run({ ...program.request, ...(sessionId ? { sessionId } : {}) }, SERVICE_OWNER);
      } catch (error) {
        // The sandbox refused the request itself (4xx: the program tooldex built is not a valid request): this
        // candidate's fault, not an outage; the next candidate is tried, instead of retrying for half an hour.
        if (!(error instanceof ToolDexError) || error.status >= 500) throw error;
        lastFailure = `the sandbox refused the program (${error.code}): ${error.message}`.slice(0, 300);
        tried.push({ source: candidate.source, status: 'refused', detail: lastFailure });
        break;
      }
      if (sandboxFault(result)) {
        // The sandbox could not be set up (e.g. a namespace under heavy load): not the example's fault; retried later.
        throw new ToolDexError('sandbox_unavailable', 503, `the sandbox failed to set up: ${result.stderr.split('\n').find((l) => /^bwrap:/.test(l)) ?? result.stderr.slice(0, 200)}`);
      }
      if (result.sessionId) sessionId = result.sessionId;
      const end = hopeless(result, tool.ecosystem);
      if (end) {
        tried.push({ source: candidate.source, status: result.status, detail: end.reason });
        if (ran.length) return pick();
        const kept = fallback();
        if (kept) return kept;
        return { status: end.status, result: { verified: { status: end.status, version: program.version, reason: end.reason }, quickstart: shown(best), testRequest: best.program.request, tried } };
      }
      if (result.status === 'ran') {
        const output = meaningfulStdout(result.stdout);
        // Verified means the package did it: what the program printed must depend on a call into the package
        // (package-use.ts), else the run is treated as one that printed nothing (a repair may still print a result).
        const weakUse = output.ok && !use.uses && use.weak ? use.weak : undefined;
        if (output.ok && !use.uses && !weakUse) {
          output.ok = false;
          output.why = `it printed, but ${use.why}`;
        }
        if (output.ok) {
          tried.push({ source: candidate.source, status: 'ran' });
          const success: VerifyOutcome = { status: 'ran', result: {
            verified: {
              status: 'ran', version: program.version, runtime: runtimeName(program.request), ranAt: new Date().toISOString(),
              stdout: excerpt(result.stdout), durationMs: result.phases.provisionMs + result.phases.installMs + result.phases.runMs,
              ...(noteFor(program, candidate, weakUse) ? { note: noteFor(program, candidate, weakUse) } : {}),
            },
            quickstart: { code: program.code, language: program.language, source: candidate.source }, testRequest: program.request, tried,
            chosen: { origin: candidate.origin, score: Math.round(candidate.score * 10) / 10, signals: candidate.signals, rank: candidates.indexOf(candidate) + 1, of: candidates.length },
          } };
          if (weakUse) {
            // Kept, and the search goes on for a program whose output comes from a call into the package.
            weak ??= success;
            tried[tried.length - 1]!.detail = `${weakUse}; looking for an example whose output comes from a call into the package`;
            break;
          }
          if (selection.enabled) {
            ran.push({ outcome: success, judged: { ecosystem: tool.ecosystem, program: program.code, stdout: excerpt(result.stdout), origin: candidate.origin, score: candidate.score, signals: candidate.signals, leadNames, docsCalls } });
            firstRan ??= { at: Date.now(), runs };
            if (moreAlternatives() && runs < limit && candidate !== candidates[candidates.length - 1]) break;
            deps.logger.info({ slug: tool.slug, version, runs, alternatives: ran.length }, 'quickstart verified');
            return pick();
          }
          // A program that only prints back a literal it was given ran, but shows little of the package: another
          // example that prints a real result is preferred when the budget allows; this one is kept in reserve.
          if (echoesInput(program.code, result.stdout) && runs < limit && candidate !== candidates[candidates.length - 1]) {
            reserve ??= success;
            tried[tried.length - 1]!.detail = 'printed back its own input; looking for an example with a real result';
            break;
          }
          deps.logger.info({ slug: tool.slug, version, source: candidate.source, runs, ms: Date.now() - started }, 'quickstart verified');
          return success;
        }
        lastFailure = output.why ?? 'printed nothing meaningful';
        tried.push({ source: candidate.source, status: 'ran_silent', detail: lastFailure });
        // It found nothing to work on (`findUp('unicorn.png')` → undefined): the files it names, created empty; or it
        // printed the error of a path it looked for: that path, created as a failed run's would be.
        const files = await silentRunFixtures(program, tool.ecosystem, adjust, result.stdout);
        if (files.length) { adjust = { ...adjust, fixtures: [...(adjust.fixtures ?? []), ...files] }; continue; }
        // A command-line interface defined and run without arguments shows nothing: it is run with --help.
        const cli = tool.ecosystem === 'pypi' ? cliRetry(program.code, adjust) : undefined;
        if (cli) { adjust = cli; continue; }
        if (tool.ecosystem !== 'npm' || adjust.importStyle?.printBindings) break;
        adjust = { ...adjust, importStyle: { kind: adjust.importStyle?.kind ?? 'named', printBindings: true } };
        continue;
      }
      lastFailure = summariseFailure(result);
      tried.push({ source: candidate.source, status: result.status, detail: lastFailure });
      if (result.status === 'failed_install' && program.request.packages.length === 1) {
        // The package itself does not install on this sandbox: every other example would fail the same way.
        if (ran.length) return pick();
        const kept = fallback();
        if (kept) return kept;
        return { status: 'failed', result: { verified: { status: 'failed', version: program.version, reason: `the package does not install here: ${lastFailure}` }, quickstart: shown(best), testRequest: best.program.request, tried } };
      }
      const next = repairFor(info, `${result.stderr}\n${result.stdout}`, adjust, host, program.code);
      if (!next) break;
      adjust = next;
    }
  }
  if (ran.length) return pick();
  const kept = fallback();
  if (kept) return kept;
  const blocked = candidates.every((c) => c.blockers.length > 0);
  const reason = blocked
    ? `every example ${[...new Set(candidates.flatMap((c) => c.blockers))].slice(0, 3).join(', ')}; ${attempted.size} tried, the last: ${lastFailure}`
    : `${attempted.size} of ${candidates.length} examples tried (${tried.length} runs and checks), none printed a result; the last: ${lastFailure}`;
  const status = blocked && !tried.some((t) => t.status === 'ran_silent') ? 'unverifiable' : 'failed';
  return {
    status,
    result: { verified: { status, version: best?.program.version ?? version, reason }, quickstart: shown(best) ?? unchecked(candidates.find((c) => !neverImports.has(c)), language), testRequest: best?.program.request ?? null, tried },
  };
}

/**
 * For a procedural-macro crate whose own files show no usage example: its facade crate's files and facts at the same
 * version (crates of one workspace release together), with the pin that makes the build use this crate's version.
 * Undefined when the crate has examples, is no proc-macro crate, or the facade has no such version.
 */
async function facadeExamples(deps: Pick<VerifyDeps, 'config'>, tool: ToolRecord, version: string, files: Awaited<ReturnType<typeof fetchExampleFiles>>, host: HostFacts) {
  const macros = proceduralMacroCrate(files, tool.name);
  if (!macros?.facade || (await collectCandidates('crates', files)).length) return undefined;
  let facadeFiles: typeof files;
  try {
    facadeFiles = await fetchExampleFiles(deps.config, 'crates', macros.facade, version);
  } catch {
    return undefined;
  }
  const info = await packageInfo(deps.config, { ...tool, name: macros.facade }, version, facadeFiles, host);
  // Only a facade that depends on this crate runs it: directly, or through crates of the same repository (futures
  // reaches futures-macro through futures-util).
  const repository = (artifact: typeof files) => {
    const manifest = artifact.files.find((f) => f.path === 'Cargo.toml');
    return manifest ? /^\s*repository\s*=\s*"([^"]+)"/m.exec(textOf(manifest))?.[1]?.replace(/(\.git)?\/?$/, '') : undefined;
  };
  const sameRepository = Boolean(repository(files)) && repository(files) === repository(facadeFiles);
  if (!Object.keys(info.rustDeps ?? {}).includes(tool.name) && !sameRepository) return undefined;
  return {
    files: facadeFiles, info,
    pin: { [tool.name]: { version: `=${version}`, features: [] } },
    note: `${tool.name} is a procedural-macro crate used through ${macros.facade}: this is ${macros.facade} ${version}'s example, built with ${tool.name} pinned to ${version}.`,
  };
}

/**
 * Files the silent program names and does not have yet, once per candidate (npm, Python): a run that printed only an
 * empty value may have found nothing to work on in the empty workspace.
 */
/**
 * The files a program that ran without a result should find on its next try: those its strings name (npm, Python),
 * else the path its own printed error says is missing (Go's `fmt.Println(err)` of `lstat your/src: no such file or
 * directory`: the run succeeded, so the failed-run repair, which reads the same error from stderr, never sees it).
 */
export async function silentRunFixtures(program: Program, ecosystem: string, adjust: Adjustments, stdout: string): Promise<string[]> {
  const named = await fixturesFor(program, ecosystem, adjust);
  if (named.length) return named;
  const absent = missingPath(stdout, program.code);
  return absent && !adjust.fixtures?.includes(absent) ? [absent] : [];
}

async function fixturesFor(program: Program, ecosystem: string, adjust: Adjustments): Promise<string[]> {
  if ((ecosystem !== 'npm' && ecosystem !== 'pypi') || adjust.fixtures?.length) return [];
  const entry = program.request.files[0]!;
  const grammar = ecosystem === 'pypi' ? 'python' : /\.tsx$/.test(entry.path) ? 'tsx' : /\.[mc]?ts$/.test(entry.path) ? 'typescript' : 'javascript';
  return namedFiles(entry.code, grammar, program.request.files.map((f) => f.path));
}

/** What a reader should know about the verified program beside its code: an older pin, glued blocks, a written one. */
function noteFor(program: Program, candidate: ScoredCandidate, weakUse?: string): string | undefined {
  const notes = [
    program.note,
    // No candidate's output came from a call into the package: this one shows a value or a side effect of it.
    weakUse ? `No example here prints a result computed by the package; this one shows a value or a side effect of it (${weakUse}).` : '',
    candidate.combinedFrom?.length ? `This program joins the example with the definitions it uses from earlier on the same page (${candidate.combinedFrom.join(', ')}).` : '',
    // Tried after every real example: either the docs show none, or none of theirs ran here.
    candidate.origin === 'api' ? 'No usage example in the docs of this version ran here (or there is none); tooldex wrote this program from the package\'s exported API.' : '',
  ].filter(Boolean);
  return notes.length ? notes.join(' ') : undefined;
}

/** A candidate shown as written (no program was made from it), or none. */
function unchecked(candidate: ScoredCandidate | undefined, language: string) {
  return candidate ? { code: candidate.code, language, source: candidate.source } : null;
}

function shown(best: { candidate: ScoredCandidate; program: Program } | undefined) {
  return best ? { code: best.program.code, language: best.program.language, source: best.candidate.source } : null;
}

function excerpt(stdout: string): string {
  const trimmed = stdout.trim();
  return trimmed.length > STDOUT_EXCERPT ? `${trimmed.slice(0, STDOUT_EXCERPT)}…` : trimmed;
}

/** npm packages whose every entry point is a declaration file (type-fest, @types/*): nothing to run. */
function npmTypesOnly(files: Array<{ path: string; bytes: Uint8Array }>): boolean {
  const manifest = files.find((f) => f.path === 'package.json');
  if (!manifest) return false;
  let pkg: { main?: string; module?: string; exports?: unknown; types?: string; typings?: string };
  try { pkg = JSON.parse(Buffer.from(manifest.bytes).toString('utf8')) as typeof pkg; } catch { return false; }
  const targets: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(pkg.exports);
  if (pkg.main) targets.push(pkg.main);
  if (pkg.module) targets.push(pkg.module);
  if (!targets.length) {
    // Without main or exports Node loads index.js: the example files read here keep no scripts, so the manifest's
    // `files` says whether the package ships any (ignore ships index.js beside its `types`; undici-types only *.d.ts).
    const shipped = Array.isArray((pkg as { files?: unknown }).files) ? ((pkg as { files: unknown[] }).files.filter((f) => typeof f === 'string') as string[]) : undefined;
    if (shipped) return Boolean(pkg.types || pkg.typings) && !shipped.some((f) => /\.(c|m)?js$|(^|\/)[^.*]+\/?$|\*$/.test(f));
    return Boolean(pkg.types || pkg.typings) && !files.some((f) => /^index\.(c|m)?js$/.test(f.path));
  }
  return targets.every((t) => /\.d\.(c|m)?ts$/.test(t));
}

/** npm packages that are one platform's native binary of another package (`"main": "x.linux-x64.node"`, `os`/`cpu` set). */
function npmPlatformBinary(files: Array<{ path: string; bytes: Uint8Array }>): string | undefined {
  const manifest = files.find((f) => f.path === 'package.json');
  if (!manifest) return undefined;
  let pkg: { main?: string; exports?: unknown; os?: unknown; cpu?: unknown };
  try { pkg = JSON.parse(Buffer.from(manifest.bytes).toString('utf8')) as typeof pkg; } catch { return undefined; }
  return (pkg.os || pkg.cpu) && typeof pkg.main === 'string' && /\.node$/.test(pkg.main) && !pkg.exports ? pkg.main.replace(/^\.\//, '') : undefined;
}

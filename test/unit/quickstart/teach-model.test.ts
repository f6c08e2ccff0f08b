import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { docsShare, dumpsConstruction, dumpsObject, emptyOutput, leadShare, reportsError, teachFeatures, TEACH_FEATURES } from '../../../src/quickstart/teach-features.ts';
import { docsCallCounts, readmeLeadNames } from '../../../src/quickstart/score.ts';
import { doubtClass, judgeShown, pickTeaching, teachDoubt, teachProbability, withDoubtHeader, withoutDoubtHeader, withoutDoubtNote, TEACH_DOUBT, type TeachWeights } from '../../../src/quickstart/teach-model.ts';
import { TEACH_WEIGHTS } from '../../../src/quickstart/teach-weights.ts';
import { tryCandidates } from '../../../src/quickstart/verify.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/log.ts';
import type { Candidate, PackageInfo, ScoredCandidate } from '../../../src/quickstart/types.ts';
import type { TestRequest, TestResult } from '../../../src/sandbox/schema.ts';
import type { ToolRecord } from '../../../src/catalog/index.ts';

const ran = (code: string, stdout: string, origin: ScoredCandidate['origin'] = 'readme') => ({ ecosystem: 'pypi' as const, program: code, stdout, origin, score: 12, signals: [] });
/** A model that only dislikes object dumps (a stand-in for fitted weights: the rule, not the numbers, is under test). */
const dislikesDumps: TeachWeights = { bias: 0, weights: { dumpsObject: -3, echoesInput: -3 }, center: {}, scale: {}, fittedOn: 'test', lambda: 0 };

describe('teach features', () => {
  it('emptyOutput: every output line prints only empty values under its labels (spent picks rated trivial)', () => {
    // cjs-module-lexer's parse("example") and nopt's empty argv (r17), datasets' empty SplitDict (r13), smart-open's
    // placeholder file (r14), templ's empty Classes (r16).
    assert.equal(emptyOutput('{ exports: [], reexports: [] }'), 1);
    assert.equal(emptyOutput('{ argv: { remain: [], cooked: [], original: [] } }'), 1);
    assert.equal(emptyOutput('copy(): {}\nto_split_dict(): []'), 1);
    assert.equal(emptyOutput("b''"), 1);
    assert.equal(emptyOutput('String():'), 1);
    // A line with a value among empty ones is a result (uri-template's `expand()` echoes its input: other features).
    assert.equal(emptyOutput('expand(): example\npartial():'), 0);
    assert.equal(emptyOutput('Some("en-US")\nNone'), 0);
    assert.equal(emptyOutput('{\n  exports: [],\n  reexports: []\n}'), 1);
    // Results: content-type's parse (r17, teaches), numbers, words, booleans, a dump's filled lines.
    assert.equal(emptyOutput("{ type: 'image/svg+xml', parameters: { charset: 'utf-8' } }"), 0);
    assert.equal(emptyOutput('[ 1, 2, 3 ]\nhello world\nfalse'), 0);
    assert.equal(emptyOutput("{\n  android: '157.0.0',\n  chrome: '109.0.0'\n}"), 0);
    assert.equal(emptyOutput(''), 0);
  });

  it('tells an object dumped from a printed result', () => {
    assert.ok(dumpsObject('<demo.Thing object at 0x7f12ab34cd56>'));
    assert.ok(dumpsObject('[object Object]'));
    assert.ok(dumpsObject('&{0xc000123456 7 false}'));
    assert.ok(!dumpsObject("{'name': 'Ada', 'age': 36}"));
    assert.ok(!dumpsObject('2024-01-02T00:00:00+00:00'));
  });

  it('dumpedLines: the share of output lines that dump an object; the shipped model puts results with one dumped line above a dump only', async () => {
    const results = { ecosystem: 'go' as const, origin: 'readme' as const, score: 16, signals: ['uses the package', 'shows output', 'central API'],
      program: 'package main\n\nimport (\n\t"fmt"\n\t"example.com/kv"\n)\n\nfunc main() {\n\tc := kv.New()\n\tc.Set("first", "value1")\n\tit := c.Get("first")\n\tfmt.Println(it.Value(), it.ExpiresAt())\n\tfmt.Println(c.Has("third"))\n\tfmt.Println(it)\n}\n',
      stdout: 'value1 2026-11-30 03:36:44 +0000 UTC\ntrue\nfalse\n&{{{{} {0 0}} 0 0} fourth value4 1800000000000 0x4aeb20}\ntrue\n' };
    const dump = { ...results, score: 13.7, signals: ['uses the package', 'central API', "the README's first example"],
      program: 'package main\n\nimport (\n\t"fmt"\n\t"example.com/kv"\n)\n\nfunc main() {\n\tc := kv.New()\n\tfmt.Println(c)\n}\n',
      stdout: '&{{{{{} {0 0}} 0 0 {{} 0} {{} 0}} map[] 0x3a1c9b62a120 [] 0x3a1c9b600080} 0 true}\n' };
    const [a, b] = [await teachFeatures(results), await teachFeatures(dump)];
    assert.equal(a.dumpsObject, 1);
    assert.equal(a.dumpedLines, 0.2);
    assert.equal(b.dumpedLines, 1);
    assert.ok(teachProbability(a) > teachProbability(b), `${teachProbability(a)} vs ${teachProbability(b)}`);
  });

  it('dumpsConstruction: a value made and only printed, in each grammar; a value the program calls something on is not', async () => {
    // Made and printed directly, or through the name it is bound to (also through vars(), {:?}, a printing helper).
    assert.ok(await dumpsConstruction('npm', "import { createFromFile } from 'cache';\nconsole.log(createFromFile('./c1'));"));
    assert.ok(await dumpsConstruction('npm', "import { Hook } from 'hooks';\nconst h = new Hook(['a']);\nconsole.log(h);"));
    assert.ok(await dumpsConstruction('pypi', 'from demo import config\nlogger = config.OutputLogger()\nprint({k: v for k, v in vars(logger).items()})'));
    assert.ok(await dumpsConstruction('go', 'package main\nimport (\n\t"fmt"\n\t"example.com/backoff"\n)\nfunc main() {\n\tfmt.Println(backoff.NewExponentialBackOff())\n}'));
    assert.ok(await dumpsConstruction('crates', 'use nd::Array;\nfn main() {\n    let a = Array::<f64, _>::zeros((3, 2));\n    println!("{:?}", a);\n}'));
    assert.ok(await dumpsConstruction('go', 'package main\nimport (\n\t"fmt"\n\t"example.com/cache"\n)\nfunc main() {\n\tc := cache.New[string, string]()\n\tprintValue(c)\n}\nfunc printValue(vs ...any) {\n\tfmt.Println(vs...)\n}'));
    // Something is done with the value: a method called on it, or the value handed to another call.
    assert.ok(!await dumpsConstruction('npm', "import { Hook } from 'hooks';\nconst h = new Hook(['a']);\nh.tap('x', (a) => console.log(a));\nh.call(1);"));
    assert.ok(!await dumpsConstruction('go', 'package main\nimport (\n\t"fmt"\n\t"example.com/glob"\n)\nfunc main() {\n\tg := glob.MustCompile("*.com")\n\tfmt.Println(g.Match("a.com"))\n}'));
    assert.ok(!await dumpsConstruction('crates', 'fn main() {\n    let mut q = Queue::new(2);\n    q.push(1);\n    println!("{:?}", q.pop());\n}'));
    assert.ok(!await dumpsConstruction('pypi', 'import demo\nkey = demo.Key(b"secret")\nprint(demo.sign(key, b"message"))'));
    // A computation, not a construction, printed directly.
    assert.ok(!await dumpsConstruction('pypi', 'import demo\nprint(demo.parse("text/html"))'));
  });

  it('tells a run that reports its own failure', () => {
    assert.ok(reportsError('Failed with error: No such file: undefined'));
    assert.ok(!reportsError('hello-world\nthis-and-that'));
  });

  it('reads calls and stand-in arguments from the syntax tree, not the text', async () => {
    const placeholder = await teachFeatures(ran('import demo\nprint(demo.parse("example"))', 'example'));
    assert.equal(placeholder.standInInput, 1);
    assert.equal(placeholder.echoesInput, 1);
    // A stand-in word inside a comment or as a dict key is no input.
    const real = await teachFeatures(ran('import demo\n# example\nd = demo.parse("2024-01-02", tz="UTC")\nprint(d.add(days=1).format("YYYY"))', '2024'));
    assert.equal(real.standInInput, 0);
    assert.equal(real.echoesInput, 0);
    assert.ok(real.distinctCalls > placeholder.distinctCalls);
    const js = await teachFeatures({ ...ran("import { x } from 'demo';\nconsole.log(x.run('foo'));", 'ok'), ecosystem: 'npm' });
    assert.equal(js.standInInput, 1);
    // Every feature is known except leadShare and docsShare, which need the package's docs examples' names.
    for (const f of TEACH_FEATURES) assert.equal(Number.isFinite(real[f]), f !== 'leadShare' && f !== 'docsShare', f);
  });

  it("docsShare: how many of the package's examples call what the program calls, relative to the most-called name", async () => {
    const c = (code: string, more: Partial<Candidate> = {}): Candidate => ({ code, language: 'python', origin: 'readme', source: 'https://x/README.md#L1', path: 'README.md', ...more });
    const docs = docsCallCounts([
      c('d = demo.parse(s)\nprint(d.format("Y"))'), c('demo.parse(t)'), c('demo.parse(u).shift(1)'), c('demo.pct_encode(" ")'),
      // Neither a combined copy nor a program tooldex wrote counts as an example of the docs.
      c('demo.parse(s)', { combinedFrom: ['a'] }), c('demo.pct_encode(x)', { origin: 'api' }),
      // A name that is also a property of every object is counted like any other.
      c('demo.constructor()'),
    ]);
    assert.equal(docs.examples, 5);
    assert.equal(docs.calls.parse, 3);
    assert.equal(docs.calls.pct_encode, 1);
    assert.equal(docs.calls.constructor, 1);
    const main = await teachFeatures({ ...ran('import demo\nd = demo.parse("2024-01-02")\nprint(d.shift(1))', '2024-01-03'), docsCalls: docs });
    const side = await teachFeatures({ ...ran('import demo\nprint(demo.pct_encode("a b"))', 'a%20b'), docsCalls: docs });
    assert.equal(main.docsShare, (3 / 3 + 1 / 3) / 2);
    assert.equal(side.docsShare, 1 / 3);
    assert.equal(docsShare('print(demo.other(1))', docs), 0);
    assert.ok(Number.isNaN(docsShare('demo.parse(s)', undefined)));
    assert.ok(Number.isNaN(docsShare('demo.parse(s)', { examples: 2, calls: {} })));
  });


  it("leadShare: the share of a program's calls that the README's lead examples make; unknown without a lead", async () => {
    const lead = ['parse', 'format'];
    const main = await teachFeatures({ ...ran('import demo\nd = demo.parse("2024-01-02")\nprint(d.format("YYYY"))', '2024'), leadNames: lead });
    const side = await teachFeatures({ ...ran('import demo\nprint(demo.utils.pct_encode("a b"))', 'a%20b'), leadNames: lead });
    assert.equal(main.leadShare, 1);
    assert.equal(side.leadShare, 0);
    assert.ok(Number.isNaN(leadShare('print(demo.parse(x))', [])));
    assert.equal(leadShare('x = demo.parse(s)\nprint(x.shift(1))', lead), 0.5);
  });

  it("the README's lead names: its first two examples in page order, not combined or stand-in copies", () => {
    const c = (line: number, code: string, more: Partial<Candidate> = {}): Candidate => ({ code, language: 'python', origin: 'readme', source: `https://x/README.md#L${line}`, path: 'README.md', ...more });
    const names = readmeLeadNames([
      c(90, 'demo.third()'), c(40, 'demo.second()'), c(10, 'demo.first()'),
      c(5, 'demo.combined()', { combinedFrom: ['README.md#L1'] }), c(6, 'demo.web()', { localWeb: true }),
      { ...c(1, 'demo.doctest()'), origin: 'doctest' },
    ]);
    assert.deepEqual(names, ['first', 'second']);
  });

  it('a feature the caller could not compute (NaN) adds nothing to the probability', () => {
    const zero = { ...Object.fromEntries(TEACH_FEATURES.map((f) => [f, 0])) } as never;
    const model = { ...dislikesDumps, weights: { ...dislikesDumps.weights, leadShare: 3 }, center: { ...dislikesDumps.center, leadShare: 0.2 } };
    assert.equal(teachProbability({ ...(zero as object), leadShare: Number.NaN } as never, model), teachProbability({ ...(zero as object), leadShare: 0.2 } as never, model));
    assert.ok(teachProbability({ ...(zero as object), leadShare: 1 } as never, model) > teachProbability({ ...(zero as object), leadShare: 0 } as never, model));
  });

  it('the weights written by the fit name only declared features', () => {
    for (const name of Object.keys(TEACH_WEIGHTS.weights)) assert.ok((TEACH_FEATURES as readonly string[]).includes(name), name);
    assert.ok(teachProbability({ ...Object.fromEntries(TEACH_FEATURES.map((f) => [f, 0])), dumpsObject: 1 } as never, dislikesDumps) < 0.5);
  });

  it('picks the program that prints a result over one that dumps an object; ties keep the ranked order', async () => {
    assert.equal(await pickTeaching([ran('import demo\nprint(demo.Thing())', '<demo.Thing object at 0x7f12ab34cd56>'), ran('import demo\nprint(demo.Thing().total([1, 2]))', '3')], dislikesDumps), 1);
    assert.equal(await pickTeaching([ran('import demo\nprint(demo.a(1))', '1'), ran('import demo\nprint(demo.b(2))', '2')], dislikesDumps), 0);
  });
});

describe('saying when the shown program does not teach', () => {
  const zero = () => Object.fromEntries(TEACH_FEATURES.map((f) => [f, 0])) as Record<(typeof TEACH_FEATURES)[number], number>;

  it('names the class a rater would name, from the features', () => {
    assert.match(doubtClass({ ...zero(), dumpsConstruction: 1 }) ?? '', /only prints a value or object it made/);
    assert.match(doubtClass({ ...zero(), echoesInput: 1 }) ?? '', /prints back the input/);
    assert.match(doubtClass({ ...zero(), reportsError: 1, dumpsObject: 1 }) ?? '', /reports an error/);
    // A dump whose fields read like an error (a stream's `errored: null`) is a dump.
    assert.match(doubtClass({ ...zero(), reportsError: 1, dumpedLines: 1 }) ?? '', /only prints a value or object/);
    // A side helper: calls nothing the README's lead calls and little of what the docs' examples call; unknown lead
    // names (NaN) say nothing.
    assert.match(doubtClass({ ...zero(), leadShare: 0, docsShare: 0.1 }) ?? '', /side feature/);
    assert.equal(doubtClass({ ...zero(), leadShare: 0, docsShare: 0.8 }), undefined);
    assert.equal(doubtClass({ ...zero(), leadShare: Number.NaN }), undefined);
  });

  it('notes only below the threshold, and says how many ran', () => {
    const x = { ...zero(), dumpsObject: 1 };
    assert.equal(teachDoubt(x, TEACH_DOUBT, 2), undefined);
    assert.match(teachDoubt(x, 0.05, 3) ?? '', /^None of the 3 programs that ran is likely to show the package's main use \(teach model p=0\.05\); this one: it only prints a value or object it made\./);
    assert.match(teachDoubt({ ...zero(), leadShare: Number.NaN }, 0.05, 1) ?? '', /^The one program that ran is unlikely to show the package's main use \(teach model p=0\.05\)\. It is shown/);
  });

  it('withDoubtHeader: the note heads the code as comment lines of the language, at most 100 characters each; no note, no change', () => {
    const note = teachDoubt({ ...zero(), dumpsConstruction: 1 }, 0.05, 3)!;
    const go = withDoubtHeader('package main\n', 'go', note).split('\n');
    assert.ok(go.length > 3 && go.slice(0, -2).every((l) => l.startsWith('// ') && l.length <= 100));
    assert.equal(go.slice(0, -2).map((l) => l.slice(3)).join(' '), `tooldex: ${note}`);
    assert.deepEqual(go.slice(-2), ['package main', '']);
    assert.match(withDoubtHeader('print(1)', 'python', note), /^# tooldex: None of the 3/);
    assert.equal(withDoubtHeader('print(1)', 'python', undefined), 'print(1)');
    // Read back without it (the fit, a blind sheet): the program that ran, a comment of its own kept.
    assert.equal(withoutDoubtHeader(withDoubtHeader('// mine\npackage main\n', 'go', note)), '// mine\npackage main\n');
    assert.equal(withoutDoubtHeader('# tooldex rocks\nprint(1)'), '# tooldex rocks\nprint(1)');
    // Whatever the note's length, its closing words wrapped over two lines included, the program comes back whole.
    for (let pad = 0; pad < 40; pad++) {
      const long = `${'ab '.repeat(pad)}${note}`;
      assert.equal(withoutDoubtHeader(withDoubtHeader('print(1)\n', 'python', long)), 'print(1)\n', `pad ${pad}`);
    }
    // And the note without it: the program's own note stays.
    assert.equal(withoutDoubtNote(`Reads a stand-in file. ${note}`), 'Reads a stand-in file.');
    assert.equal(withoutDoubtNote(note), undefined);
  });

  it('judgeShown: a dump under a model that dislikes dumps is doubted; a result is not', async () => {
    const dump = await judgeShown(ran('import demo\nprint(demo.Thing())', '<demo.Thing object at 0x7f12ab34cd56>'), 2, dislikesDumps);
    assert.ok(dump.p < TEACH_DOUBT && dump.doubt);
    assert.deepEqual(Object.keys(await judgeShown(ran('import demo\nprint(demo.total([1, 2]))', '3'), 2, dislikesDumps)), ['p']);
  });
});

describe('selection among candidates that ran', () => {
  const info: PackageInfo = { ecosystem: 'pypi', name: 'demo', slug: 'pypi-demo', version: '1.0', importName: 'demo' };
  const host = { pythonStdlib: new Set(['sys']), goStd: new Map<string, string>(), runtimes: {} };
  const tool = { slug: 'pypi-demo', ecosystem: 'pypi', name: 'demo' } as ToolRecord;
  const scored = (code: string, score: number, origin: ScoredCandidate['origin'] = 'readme'): ScoredCandidate => ({ code, language: 'python', origin, path: 'README.md', source: `u#${score}`, score, blockers: [], signals: [] });
  const sandboxPrinting = (outputs: Record<string, string>, sent: string[]) => ({
    async run(request: TestRequest): Promise<TestResult> {
      const code = request.files[0]!.code;
      sent.push(code);
      const key = Object.keys(outputs).find((k) => code.includes(k))!;
      return { ok: true, status: 'ran', stdout: `${outputs[key]}\n`, stderr: '', exitCode: 0, sessionId: 's1', sessionExpiresAt: null, sessionReused: false, phases: { provisionMs: 1, installMs: 1, runMs: 1 } as TestResult['phases'] };
    },
  });
  const config = loadConfig({ TOOLDEX_HOME: '/tmp/tooldex-unit-teach', TOOLDEX_QUICKSTART_MAX_RUNS: 8 });
  const candidates = [scored('print(demo.Thing())', 9), scored('print(demo.Thing().total([1, 2]))', 8), scored('print(demo.other())', 7), scored('print(demo.api())', 1, 'api')];
  // A dump that still holds values (so the run counts as printing something, as a Go struct pointer does).
  const outputs = { 'demo.Thing())': '&{9585059 7 0x30546a622000}', 'total(': '3', 'other(': 'other result', 'api(': 'api result' };

  it('runs the next candidates within the bounds and shows the one the model rates higher', async () => {
    const sent: string[] = [];
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: sandboxPrinting(outputs, sent), keepAlive: async () => true,
      teachSelection: { enabled: true, alternatives: 2, extraRuns: 4, extraMs: 60_000, model: dislikesDumps } }, tool, '1.0', info, host, candidates);
    assert.equal(outcome.status, 'ran');
    assert.equal(outcome.result.verified.stdout, '3');
    assert.match(outcome.result.chosen?.signals.join('; ') ?? '', /picked of 2 that ran/);
    // Two alternatives is the bound: the third example and the written program never ran.
    assert.equal(sent.length, 2);
    assert.equal(outcome.result.tried.filter((t) => t.status === 'ran').length, 2);
  });

  it('stops at the run bound', async () => {
    const sent: string[] = [];
    await tryCandidates({ config, logger: createLogger('error'), sandbox: sandboxPrinting(outputs, sent), keepAlive: async () => true,
      teachSelection: { enabled: true, alternatives: 5, extraRuns: 1, extraMs: 60_000, model: dislikesDumps } }, tool, '1.0', info, host, candidates);
    // One run after the first success, then no more (three examples and a written program were waiting).
    assert.equal(sent.length, 2);
  });

  it('never runs a written program as an alternative to a real example that ran', async () => {
    const sent: string[] = [];
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: sandboxPrinting(outputs, sent), keepAlive: async () => true,
      teachSelection: { enabled: true, alternatives: 5, extraRuns: 4, extraMs: 60_000, model: dislikesDumps } }, tool, '1.0', info, host, [candidates[0]!, candidates[3]!]);
    assert.equal(outcome.result.verified.stdout, '&{9585059 7 0x30546a622000}');
    assert.equal(sent.length, 1);
    // The dump is all that ran: the verdict says it is unlikely to teach instead of passing it off as the main use.
    assert.match(outcome.result.verified.note ?? '', /^The one program that ran is unlikely to show the package's main use .*only prints a value or object it made/);
    // Said where a reader of the program alone sees it too: heading the shown code, while the request keeps what ran.
    const ranCode = (outcome.result.testRequest as TestRequest).files[0]!.code;
    assert.match(outcome.result.quickstart?.code ?? '', /^# tooldex: The one program that ran is unlikely to show the package's main use[^]*read the README for that\.\nimport demo\nprint\(demo\.Thing\(\)\)/);
    assert.doesNotMatch(ranCode, /tooldex/);
  });

  it('a shown program likely to teach carries no doubt note', async () => {
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: sandboxPrinting(outputs, []), keepAlive: async () => true,
      teachSelection: { enabled: true, alternatives: 2, extraRuns: 4, extraMs: 60_000, model: dislikesDumps } }, tool, '1.0', info, host, candidates);
    assert.equal(outcome.result.verified.stdout, '3');
    assert.equal(outcome.result.verified.note, undefined);
    assert.equal(outcome.result.quickstart?.code, (outcome.result.testRequest as TestRequest).files[0]!.code);
  });

  it("hands the model the README's lead names: a program calling what the lead calls beats a side helper ranked first", async () => {
    const at = (code: string, score: number, line: number): ScoredCandidate => ({ ...scored(code, score), source: `https://x/README.md#L${line}` });
    // Page order: parse (L10), parse+format (L20), then a side helper (L80) that the ranking put first.
    const page = [at('print(demo.pct_encode("a b"))', 9, 80), at('print(demo.parse("2024-01-02"))', 8, 10), at('print(demo.parse("2024").format("YY"))', 7, 20)];
    const likesLead: TeachWeights = { bias: 0, weights: { leadShare: 3 }, center: { leadShare: 0.5 }, scale: { leadShare: 0.5 }, fittedOn: 'test', lambda: 0 };
    const sent: string[] = [];
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: sandboxPrinting({ 'pct_encode(': 'a%20b', 'parse("2024-01-02")': '2024-01-02', 'format(': '24' }, sent), keepAlive: async () => true,
      teachSelection: { enabled: true, alternatives: 2, extraRuns: 4, extraMs: 60_000, model: likesLead } }, tool, '1.0', info, host, page);
    assert.equal(sent.length, 2);
    assert.equal(outcome.result.verified.stdout, '2024-01-02');
  });

  it("counts docsShare over the whole page, also the examples not tried (servers, network), as the fit did", async () => {
    const at = (code: string, score: number, line: number): ScoredCandidate => ({ ...scored(code, score), source: `https://x/README.md#L${line}` });
    const tried = [at('print(demo.pct_encode("a b"))', 9, 80), at('print(demo.parse("2024-01-02"))', 8, 10)];
    // Two more examples of the page call parse but need the network, so they are not tried.
    const page = [...tried, at('print(demo.parse(fetch_url()))', 5, 30), at('print(demo.parse(read_remote()))', 4, 40)];
    const likesDocs: TeachWeights = { bias: 0, weights: { docsShare: 3 }, center: { docsShare: 0.5 }, scale: { docsShare: 0.5 }, fittedOn: 'test', lambda: 0 };
    const pick = async (withPage: boolean) => {
      const sent: string[] = [];
      const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: sandboxPrinting({ 'pct_encode(': 'a%20b', 'parse(': '2024-01-02' }, sent), keepAlive: async () => true,
        teachSelection: { enabled: true, alternatives: 2, extraRuns: 4, extraMs: 60_000, model: likesDocs } }, tool, '1.0', info, host, tried, undefined, withPage ? page : undefined);
      return outcome.result.verified.stdout;
    };
    assert.equal(await pick(true), '2024-01-02');
    // Counted over the tried two only, both names are called once: a tie, and the ranked order keeps the helper.
    assert.equal(await pick(false), 'a%20b');
  });

  it('disabled, the first program that printed a result is shown (one run)', async () => {
    const sent: string[] = [];
    const outcome = await tryCandidates({ config, logger: createLogger('error'), sandbox: sandboxPrinting(outputs, sent), keepAlive: async () => true,
      teachSelection: { enabled: false, alternatives: 3, extraRuns: 4, extraMs: 60_000, model: dislikesDumps } }, tool, '1.0', info, host, candidates);
    assert.equal(outcome.result.verified.stdout, '&{9585059 7 0x30546a622000}');
    assert.equal(sent.length, 1);
  });
});

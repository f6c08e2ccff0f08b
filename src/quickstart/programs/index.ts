// Turns a scored candidate into the exact POST /tools/test body that verifies it, per ecosystem, and repairs a
// program once its first run says what is missing (a feature, an import, a module), as a careful engineer would.
import { fillElidedText, textStandIn } from '../npm-values.ts';
import type { TestRequest } from '../../sandbox/schema.ts';
import { parseCrateSpec } from '../../sandbox/runtimes/rust.ts';
import type { HostFacts } from '../host-facts.ts';
import type { Candidate, PackageInfo, Program } from '../types.ts';
import { goProgram } from './go.ts';
import { SERVED_NOTE } from './go-serve.ts';
import { servedOnceIn, type ServedProgram } from './serve-once.ts';
import { CALLBACK_NAME, camelName, nodeProgram, type ImportStyle } from './node.ts';
import { definesCli, importedModules, pythonProgram, PYPI_DISTRIBUTION, unboundNames, withCliHelp } from './python.ts';
import { cargoManifest, optionalDependencies, rustProgram, type RustDep } from './rust.ts';
import { rubyProgram } from './ruby.ts';
import { refusedUse, suggestedUses, useRootKnown, withUses } from './rustc-help.ts';
import { fixtureFile, fixtureNote, missingPath } from '../fixtures.ts';
import { LOCAL_WEB_NOTE, withLocalWeb } from '../local-web.ts';

/** Adjustments a repair asks for; each program maker reads the ones of its ecosystem. */
export interface Adjustments {
  extraPackages?: string[];
  /** Python: modules to import that the example uses without importing (a NameError named them). */
  pythonImports?: string[];
  /** Python: standard modules whose class of the same name the example calls bare (`datetime(2024, 1, 30)`): `from datetime import datetime`. */
  pythonClassImports?: string[];
  /**
   * Python: public names of a standard module the example uses bare (`@dataclass`, `ExitStack()`), as `module.name`
   * (`dataclasses.dataclass`): `from dataclasses import dataclass`.
   */
  pythonStdlibNames?: string[];
  /** Python: names of the standard `typing` module the example uses bare (`List`, `Optional`): imported from it. */
  typingNames?: string[];
  /** Python: names the example uses bare that may be the package's own (`@define` of attrs): imported from it first. */
  pythonNames?: string[];
  importStyle?: ImportStyle;
  rustFeatures?: string[];
  rustDeps?: Record<string, RustDep>;
  /** Rust: `use` lines rustc proposed for names the example uses out of scope (a trait method, a std type). */
  rustUses?: string[];
  /** Rust: suggested `use` lines rustc then refused as private, never added again. */
  rustUsesRefused?: string[];
  /** Rust: the edition to build in, when the example is written for an older one than the program's 2021. */
  rustEdition?: string;
  dropDebugPrints?: boolean;
  /** npm, Python: helpers the example leaves to the reader (`doSomething`, `cb`), given stand-ins that print their arguments. */
  stubs?: string[];
  /** npm, Python: files the example looks for that a reader would have beside it, created empty in the workspace. */
  fixtures?: string[];
  /** npm, Python: the example defines a command-line interface that shows nothing without arguments: run it with --help. */
  cliHelp?: boolean;
  /** Go: text values the example leaves to the reader (`gjson.Get(json, …)`), given a sample of the kind they name. */
  goValues?: string[];
  /** Go: those of them the code passes as bytes (`md.Convert(source, &buf)`). */
  goBytes?: string[];
  /** Go: a dropped call's result is not printed (the function returns nothing). */
  goKeepDropped?: boolean;
}

/**
 * The request's time limit applies to each step that runs code: for Rust and Go that includes compiling the package
 * and its dependencies from scratch, which on a loaded machine takes longer than any example runs; the others run
 * scripts. The sandbox's maximum for compiled languages, so a slow build is not mistaken for a broken example.
 */
const TIMEOUT_MS: Record<TestRequest['runtime'], number> = { rust: 60_000, golang: 60_000, node: 30_000, python: 30_000, ruby: 30_000 };

function request(runtime: TestRequest['runtime'], language: string, files: TestRequest['files'], packages: string[], slug: string): TestRequest {
  return { language, runtime, files, packages, slug, env: [], timeoutMs: TIMEOUT_MS[runtime] };
}

export async function makeProgram(candidate: Candidate, info: PackageInfo, host: HostFacts, adjust: Adjustments = {}): Promise<Program> {
  switch (info.ecosystem) {
    case 'npm': {
      // A document the example elides (`const doc = '...'`) is given a sample of its kind first.
      const elided = await fillElidedText(candidate.code, /^(ts|typescript|tsx)$/i.test(candidate.language) ? 'typescript' : 'javascript', info.dataBlocks);
      const made = await nodeProgram(elided.code, candidate.language, info.name, info.moduleType, adjust.importStyle, info.jsBindings, adjust.stubs,
        { exports: info.npmProbe?.exports, paramTypes: info.npmParamTypes, paramNames: info.npmParamNames, dataBlocks: info.dataBlocks });
      const packages = [`${info.name}@${info.version}`, ...made.packages, ...(adjust.extraPackages ?? [])];
      const prose = made.proseValues?.length ? `The example's text introduces ${made.proseValues.join(', ')} without defining ${made.proseValues.length > 1 ? 'them' : 'it'}; tooldex gave ${made.proseValues.length > 1 ? 'each' : 'it'} a sample of the declared parameter type where the package's declarations give one (else undefined).` : '';
      const note = [stubNote(adjust).note, prose, elidedNote(elided.names), fixturesNote(adjust, info, candidate), candidate.localWeb ? LOCAL_WEB_NOTE : '', adjust.cliHelp ? CLI_HELP_NOTE : ''].filter(Boolean).join(' ');
      const web = candidate.localWeb ? withLocalWeb('npm', made.code, made.path) : undefined;
      let code = web?.code ?? made.code;
      if (adjust.cliHelp) code = `process.argv.splice(2, process.argv.length, '--help'); // tooldex: run as a reader would, with --help\n${code}`;
      if (candidate.serves) code = (await servedOnly(code, /\.tsx$/.test(made.path) ? 'tsx' : /\.[mc]?ts$/.test(made.path) ? 'typescript' : 'javascript')).code;
      const served = candidate.serves ? SERVED_NOTE : '';
      return { request: request('node', made.language, [{ path: made.path, code }, ...(web ? [web.file] : []), ...fixtureFiles(adjust, made.path, info, candidate)], [...new Set(packages)], info.slug), code, language: made.language, version: info.version, ...(note || served ? { note: [note, served].filter(Boolean).join(' ') } : {}) };
    }
    case 'pypi': {
      const elided = await fillElidedText(candidate.code, 'python', info.dataBlocks);
      let code = await pythonProgram(elided.code, candidate.language, info.importName, info.pyBindings);
      // A run stopped at one missing name: every other name the script reads unbound is imported now, by the same
      // rules, instead of one run per name (a doctest using `fp` and `mp` bare).
      if (adjust.pythonImports?.length || adjust.pythonClassImports?.length || adjust.pythonNames?.length || adjust.typingNames?.length || adjust.pythonStdlibNames?.length) adjust = await withUnboundImports(code, adjust, info, host);
      if (adjust.pythonImports?.length) code = `${adjust.pythonImports.map((m) => `import ${m}`).join('\n')}\n${code}`;
      if (adjust.pythonClassImports?.length) code = `${adjust.pythonClassImports.map((m) => `from ${m} import ${m}`).join('\n')}\n${code}`;
      if (adjust.pythonStdlibNames?.length) code = `${adjust.pythonStdlibNames.map((q) => `from ${q.slice(0, q.lastIndexOf('.'))} import ${lastName(q)}`).join('\n')}\n${code}`;
      if (adjust.pythonNames?.length) code = `from ${info.importName} import ${adjust.pythonNames.join(', ')}\n${code}`;
      if (adjust.typingNames?.length) code = `from typing import ${adjust.typingNames.join(', ')}\n${code}`;
      if (adjust.stubs?.length) code = withPythonStubs(code, adjust.stubs, info.dataBlocks);
      if (adjust.cliHelp) code = await withCliHelp(code);
      const home = candidate.origin === 'doctest' ? doctestModule(candidate.path, info.importName) : undefined;
      if (home) code = `# A doctest runs in its module's namespace, as doctest itself runs it.\nimport ${home} as _module\nglobals().update({k: v for k, v in vars(_module).items() if not k.startswith('__')})\n${code}`;
      const pin = info.pythonPin ?? { version: info.version };
      // A module with a leading underscore (`_cffi_src`, a build helper of the project's own tree) is no distribution to install.
      const others = (await importedModules(code)).filter((m) => m !== info.importName.split('.')[0] && !host.pythonStdlib.has(m) && !m.startsWith('_'))
        .map((m) => PYPI_DISTRIBUTION[m] ?? m).filter((d) => d.toLowerCase().replace(/[-_.]+/g, '-') !== info.name.toLowerCase().replace(/[-_.]+/g, '-'));
      const packages = [`${info.name}==${pin.version}`, ...others, ...(adjust.extraPackages ?? [])];
      const note = [pin.note, stubNote(adjust).note, elidedNote(elided.names), fixturesNote(adjust, info, candidate), adjust.cliHelp ? CLI_HELP_NOTE : '', candidate.localWeb ? LOCAL_WEB_NOTE : ''].filter(Boolean).join(' ');
      const web = candidate.localWeb ? withLocalWeb('pypi', code, 'main.py') : undefined;
      if (web) code = web.code;
      const asker = candidate.serves ? await servedOnly(code, 'python') : undefined;
      if (asker) code = asker.code;
      const served = asker ? asker.note ?? SERVED_NOTE : '';
      return { request: request('python', 'python', [{ path: 'main.py', code }, ...(web ? [web.file] : []), ...(asker?.files ?? []), ...fixtureFiles(adjust, 'main.py', info, candidate)], [...new Set(packages)], info.slug), code, language: 'python', version: pin.version, ...(note || served ? { note: [note, served].filter(Boolean).join(' ') } : {}) };
    }
    case 'crates': {
      const made = await rustProgram(candidate.code, candidate.origin, {
        name: info.name, importName: info.importName, version: info.version, deps: info.rustDeps ?? {}, features: info.rustFeatures ?? [], gatedNames: info.rustGatedNames ?? {},
      });
      let main = made.main;
      if (adjust.rustUses?.length) main = withUses(main, adjust.rustUses);
      if (adjust.dropDebugPrints) main = main.replace(/^\s*println!\("\{:\?\}", [^;]+\);\n/gm, '').replace(/println!\("\{:\?\}", left\); /g, '');
      if (candidate.serves) main = (await servedOnly(main, 'rust')).code;
      const deps = { ...made.deps, ...(adjust.rustDeps ?? {}) };
      if (adjust.rustFeatures?.length) deps[info.name] = { ...deps[info.name]!, features: [...new Set([...(deps[info.name]?.features ?? []), ...adjust.rustFeatures])] };
      const files = [{ path: 'Cargo.toml', code: cargoManifest(deps, adjust.rustEdition) }, { path: 'src/main.rs', code: main }];
      // Companions are listed too: a new package is what makes the sandbox vendor the manifest's dependencies again.
      // Each with the features the manifest gives it: the sandbox takes a name in `packages` over the same name in a
      // Cargo.toml sent in files, so a bare `tokio@1` there would vendor tokio without the `macros` the manifest asks
      // for ("no matching package named `tokio-macros`"), and a bare crate pin would drop the crate's own features.
      const companions = Object.entries(deps).filter(([key, dep]) => key !== info.name && !dep.package).map(([key, dep]) => crateSpec(key, dep));
      // Crates the features it turns on bring in (a feature's optional dependencies) are vendored only when listed.
      const optional = optionalDependencies(deps[info.name]?.features ?? [], info.rustFeatureMap ?? {}, info.rustDeps ?? {})
        // By crate name: a companion without a plain version is written `name[features]`, with no `@`.
        .filter((spec) => !companions.some((c) => crateNameOf(c) === crateNameOf(spec)));
      const own = crateSpec(info.name, { version: `=${info.version}`, features: deps[info.name]?.features ?? [] });
      const note = [fixturesNote(adjust, info, candidate), candidate.serves ? SERVED_NOTE : ''].filter(Boolean).join(' ');
      return { request: { ...request('rust', 'rust', [...files, ...fixtureFiles(adjust, 'src/main.rs', info, candidate)], [own, ...companions, ...optional], info.slug), entry: 'src/main.rs' }, code: main, language: 'rust', version: info.version, ...(note ? { note } : {}) };
    }
    case 'go': {
      let code = await goProgram(candidate.code, candidate.origin, candidate.exampleName, { modulePackages: info.goPackages ?? {}, std: host.goStd, keepDropped: adjust.goKeepDropped, serve: candidate.serves }, bareNameOwners(info, candidate));
      // Package-level declarations may follow main: the values the example's text introduces, as the docs show them.
      const values = (adjust.goValues ?? []).map((name) => {
        const text = textStandIn(name, info.dataBlocks) ?? '""';
        return `var ${name} = ${adjust.goBytes?.includes(name) ? `[]byte(${text})` : text} // left to the reader: a sample of the text it names`;
      });
      if (values.length) code = `${code.replace(/\s+$/, '')}\n\n${values.join('\n')}\n`;
      const pin = info.goPin ?? { version: info.version };
      const note = [pin.note, candidate.serves ? SERVED_NOTE : '', values.length ? `The example's text introduces ${adjust.goValues!.join(', ')} without defining ${values.length > 1 ? 'them' : 'it'}; tooldex gave ${values.length > 1 ? 'each' : 'it'} a sample of the text its name says (from the docs' own data blocks where they show one).` : '', fixturesNote(adjust, info, candidate)].filter(Boolean).join(' ');
      return { request: request('golang', 'go', [{ path: 'main.go', code }, ...fixtureFiles(adjust, 'main.go', info, candidate)], [`${info.name}@${pin.version}`, ...(adjust.extraPackages ?? [])], info.slug), code, language: 'go', version: pin.version, ...(note ? { note } : {}) };
    }
    case 'rubygems': {
      const code = rubyProgram(candidate.code, info.name);
      return { request: request('ruby', 'ruby', [{ path: 'main.rb', code }], [`${info.name}@${info.version}`, ...(adjust.extraPackages ?? [])], info.slug), code, language: 'ruby', version: info.version };
    }
  }
}

/** A served candidate's program with its one request beside the server (serve-once.ts); one that serves nothing is no program. */
async function servedOnly(code: string, grammar: Parameters<typeof servedOnceIn>[1]): Promise<ServedProgram> {
  const served = await servedOnceIn(code, grammar);
  if (!served) throw new Error('the example serves nothing a request can be made to');
  return served;
}

/** The note for documents the example elides and tooldex filled (`const doc = '...'`). */
function elidedNote(names: string[]): string {
  return names.length ? `The example elides the text of ${names.join(', ')} ('...'); tooldex gave ${names.length > 1 ? 'each' : 'it'} a sample of the kind its name says (from the docs' own data blocks where they show one).` : '';
}

/** A crate as the sandbox's `packages` take it: `name@version[features]` (the version only when it is a plain requirement). */
/** The crate a `packages` spec names (`tokio`, `tokio@1`, `tokio[macros]`, `tokio@1[macros]`). */
export function crateNameOf(spec: string): string {
  return parseCrateSpec(spec)?.name ?? spec.split(/[@[]/)[0]!;
}

export function crateSpec(key: string, dep: Pick<RustDep, 'version' | 'features'>): string {
  const pinned = /^[=^~]?\d[\w.+-]*$/.test(dep.version) ? `${key}@${dep.version}` : key;
  const features = [...new Set(dep.features)].filter((f) => /^[A-Za-z0-9_][A-Za-z0-9_+.-]{0,63}$/.test(f)).slice(0, 32);
  return features.length ? `${pinned}[${features.join(',')}]` : pinned;
}

/** The name of a `module.name` entry (pythonStdlibNames). */
const lastName = (qualified: string) => qualified.slice(qualified.lastIndexOf('.') + 1);

/**
 * The adjustments with every name the script reads but never binds classified as the one-name repairs classify a
 * NameError: typing's generics, names the package's `__init__.py` binds, standard modules and the package itself.
 * Builtins and names a repair already made a stand-in are left alone.
 */
export async function withUnboundImports(code: string, adjust: Adjustments, info: PackageInfo, host: HostFacts): Promise<Adjustments> {
  const root = info.importName.split('.')[0]!;
  const taken = new Set([...(adjust.pythonImports ?? []), ...(adjust.pythonClassImports ?? []), ...(adjust.pythonNames ?? []), ...(adjust.typingNames ?? []), ...(adjust.stubs ?? []), ...(adjust.pythonStdlibNames ?? []).map(lastName)]);
  const out = { ...adjust };
  for (const name of await unboundNames(code)) {
    if (taken.has(name) || host.pythonBuiltins?.has(name)) continue;
    if (TYPING_NAMES.has(name)) out.typingNames = [...(out.typingNames ?? []), name];
    else if (info.pyExports?.includes(name)) out.pythonNames = [...(out.pythonNames ?? []), name];
    else if (host.pythonStdlib.has(name) || name === root) out.pythonImports = [...(out.pythonImports ?? []), name];
    else if (host.pythonStdlibNames?.has(name)) out.pythonStdlibNames = [...(out.pythonStdlibNames ?? []), `${host.pythonStdlibNames.get(name)}.${name}`];
  }
  return out;
}

/** What the failed run's diagnostics ask for, or undefined when a retry would fail the same way. */
export function repairFor(info: PackageInfo, stderr: string, adjust: Adjustments, host?: HostFacts, code?: string): Adjustments | undefined {
  if (info.ecosystem === 'go') {
    // `undefined: json` of a value the text introduces (gjson's README reads `json` its prose shows as a JSON block).
    const undefinedName = /: undefined: ([a-z]\w*)\b/.exec(stderr)?.[1];
    if (undefinedName && !adjust.goValues?.includes(undefinedName) && textStandIn(undefinedName, info.dataBlocks)) {
      return { ...adjust, goValues: [...(adjust.goValues ?? []), undefinedName] };
    }
    // `printValue(L.DoThing())` of a function that returns nothing: the call stays as the example wrote it.
    if (/\(no value\) used as value/.test(stderr) && !adjust.goKeepDropped) return { ...adjust, goKeepDropped: true };
    const asBytes = /cannot use (\w+) \(variable of type string\) as \[\]byte value/.exec(stderr)?.[1];
    if (asBytes && adjust.goValues?.includes(asBytes) && !adjust.goBytes?.includes(asBytes)) return { ...adjust, goBytes: [...(adjust.goBytes ?? []), asBytes] };
  }
  // A file or directory the example reads (or writes into) that a reader would have beside it (`open('example.ini')`,
  // `./path/to/schema.json`, Go's `lstat your/src`, Rust's `File::open("tests/samples/x.gif")`): created once, with
  // the docs' content or a small sample of its kind.
  const absent = missingPath(stderr, code);
  if (absent && !adjust.fixtures?.includes(absent)) return { ...adjust, fixtures: [...(adjust.fixtures ?? []), absent] };
  switch (info.ecosystem) {
    case 'pypi': {
      // A command-line interface run without arguments: a usage error or an aborted prompt. Run as a reader would, with --help.
      if (!adjust.cliHelp && /^(Usage|usage): /m.test(stderr) && /^(Error: (Missing|No such|Got unexpected)|Aborted!|(\S+: )?error: )/m.test(stderr)) return { ...adjust, cliHelp: true };
      // …or a prompt it asked without a terminal (click's `prompt=`: "Your name: Aborted!").
      if (!adjust.cliHelp && code && definesCli(code) && /(^|: )Aborted!$/m.test(stderr)) return { ...adjust, cliHelp: true };
      // A standard module imported for a bare name the example calls (`datetime(2024, 1, 30)`): the name is the
      // module's class of the same name (datetime.datetime, time.time, copy.copy); imported from the module instead.
      if (/TypeError: 'module' object is not callable/.test(stderr) && code) {
        const imported = [...code.matchAll(/^import (\w+)$/gm)].map((m) => m[1]!).filter((m) => host?.pythonStdlib.has(m));
        const called = imported.filter((m) => new RegExp(`(^|[^\\w.])${m}\\s*\\(`, 'm').test(code) && !adjust.pythonClassImports?.includes(m));
        if (called.length) return { ...adjust, pythonImports: (adjust.pythonImports ?? []).filter((m) => !called.includes(m)), pythonClassImports: [...(adjust.pythonClassImports ?? []), ...called] };
      }
      const unnamed = /NameError: name '(\w+)' is not defined/.exec(stderr)?.[1];
      // An annotation naming typing's generics bare (`List[int]`, `Optional[str]`), as docs often do: from typing.
      if (unnamed && TYPING_NAMES.has(unnamed) && !adjust.typingNames?.includes(unnamed)) return { ...adjust, typingNames: [...(adjust.typingNames ?? []), unnamed] };
      // A name the package's `__init__.py` binds, used bare (`Signal` of aiosignal, whatever its case): imported from it.
      if (unnamed && info.pyExports?.includes(unnamed) && !adjust.pythonNames?.includes(unnamed)) return { ...adjust, pythonNames: [...(adjust.pythonNames ?? []), unnamed] };
      if (unnamed && (host?.pythonStdlib.has(unnamed) || unnamed === info.importName.split('.')[0]) && !adjust.pythonImports?.includes(unnamed)) {
        return { ...adjust, pythonImports: [...(adjust.pythonImports ?? []), unnamed] };
      }
      // A public name of one standard module, used bare (`@dataclass` above a README's class, `ExitStack()`): imported
      // from that module (host-facts.ts reads every standard module's `__all__`), not stood in for as a helper.
      const stdlibModule = unnamed ? host?.pythonStdlibNames?.get(unnamed) : undefined;
      if (unnamed && stdlibModule && !adjust.pythonStdlibNames?.map(lastName).includes(unnamed)) return { ...adjust, pythonStdlibNames: [...(adjust.pythonStdlibNames ?? []), `${stdlibModule}.${unnamed}`] };
      // A bare name may be the package's own (`@define` of attrs): imported from the package first; only when the
      // package has no such name is it a helper left to the reader.
      const notExported = new RegExp(`ImportError: cannot import name '(\\w+)' from '${info.importName.split('.')[0]}`).exec(stderr)?.[1];
      if (notExported && adjust.pythonNames?.includes(notExported)) {
        return { ...adjust, pythonNames: adjust.pythonNames.filter((n) => n !== notExported), stubs: [...(adjust.stubs ?? []), notExported] };
      }
      if (unnamed && isHelperName(unnamed, Object.keys(info.pyBindings ?? {}), info.importName.split('.')[0]!) && !adjust.stubs?.includes(unnamed) && !adjust.pythonNames?.includes(unnamed) && !host?.pythonStdlib.has(unnamed)) {
        // The package's own `__init__.py` says whether it has the name, without spending a run to find out.
        if (info.pyExports && !info.pyExports.includes(unnamed)) return { ...adjust, stubs: [...(adjust.stubs ?? []), unnamed] };
        return { ...adjust, pythonNames: [...(adjust.pythonNames ?? []), unnamed] };
      }
      const module = /ModuleNotFoundError: No module named '([\w.]+)'/.exec(stderr)?.[1];
      const missing = module?.split('.')[0];
      if (!module || !missing || missing.startsWith('_')) return undefined;
      // A module inside the package's own namespace folder (PEP 420; a dotted importName is one: `opentelemetry.util.http`)
      // belongs to another distribution of the family, named after its dotted path (`opentelemetry.instrumentation` →
      // opentelemetry-instrumentation, `google.cloud.bigquery` → google-cloud-bigquery): no distribution is the folder.
      const family = info.importName.includes('.') && missing === info.importName.split('.')[0] && module.includes('.') ? module.replace(/\./g, '-') : undefined;
      const dist = family ?? PYPI_DISTRIBUTION[missing] ?? missing;
      return adjust.extraPackages?.includes(dist) ? undefined : { ...adjust, extraPackages: [...(adjust.extraPackages ?? []), dist] };
    }
    case 'npm': {
      // A command-line interface run without arguments stops at a usage error (argparse's "the following arguments
      // are required"): run as a reader would, with --help.
      if (!adjust.cliHelp && /^usage: /im.test(stderr) && /\berror: /i.test(stderr)) return { ...adjust, cliHelp: true };
      // A bare specifier only: `Cannot find module './x'` or `'.'` is a path the example resolves, not a package.
      const missingPkg = /Cannot find (?:package|module) '((?:@[\w.-]+\/)?[A-Za-z0-9_][\w.-]*)'?/.exec(stderr)?.[1];
      if (missingPkg && missingPkg !== info.name && !adjust.extraPackages?.includes(missingPkg)) return { ...adjust, extraPackages: [...(adjust.extraPackages ?? []), missingPkg] };
      // A helper the example leaves to the reader: not defined anywhere (ReferenceError), or not an export of an ES
      // module package (whose named exports are exact; a CommonJS package's may only be hidden from the import).
      const helper = /ReferenceError: ([\w$]+) is not defined/.exec(stderr)?.[1]
        ?? (info.moduleType === 'module' ? /does not provide an export named '([\w$]+)'/.exec(stderr)?.[1] : undefined);
      if (helper && isHelperName(helper, Object.keys(info.jsBindings ?? {}), camelName(info.name)) && !adjust.stubs?.includes(helper)) {
        return { ...adjust, stubs: [...(adjust.stubs ?? []), helper] };
      }
      const kind = adjust.importStyle?.kind ?? 'named';
      if (/does not provide an export named|Named export '[\w$]+' not found|is not a function|is not a constructor|Cannot read properties of undefined/.test(stderr)) {
        if (kind === 'named') return { ...adjust, importStyle: { kind: 'default' } };
        if (kind === 'default') return { ...adjust, importStyle: { kind: 'namespace' } };
      }
      return undefined;
    }
    case 'crates': {
      const gated = [...stderr.matchAll(/gated behind the `([\w-]+)` feature/g)].map((m) => m[1]!);
      // `unresolved import \`tokio::fs\`` / `futures::executor::ThreadPool` with no note: a feature of the crate named
      // like a segment of the path (`fs`; `ThreadPool` → `thread-pool`), as crates name features after what they gate.
      const own = info.importName.replace(/-/g, '_');
      for (const match of stderr.matchAll(new RegExp(`unresolved import \`${own}::([\\w:]+)\``, 'g'))) {
        for (const segment of match[1]!.split('::')) {
          const kebab = segment.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/_/g, '-').toLowerCase();
          for (const feature of [segment, kebab]) if ((info.rustFeatures ?? []).includes(feature) && !gated.includes(feature)) gated.push(feature);
        }
      }
      const fresh = gated.filter((f) => !adjust.rustFeatures?.includes(f) && (info.rustFeatures ?? []).includes(f));
      if (fresh.length) return { ...adjust, rustFeatures: [...(adjust.rustFeatures ?? []), ...fresh] };
      // What rustc proposes to import for a name out of scope (`use prost::Name;` for a trait's `type_url`), with the
      // crate it comes from added when it is a dependency the crate itself declares.
      // A line added before that rustc refuses as private (a path through the defining module): replaced by the
      // crate root's re-export, or by what rustc proposes now.
      const refused = code ? refusedUse(stderr, code, adjust.rustUses ?? []) : undefined;
      if (refused) {
        const kept = (adjust.rustUses ?? []).filter((u) => u !== refused.refused);
        const next = suggestedUses(stderr, info.importName).map((u) => u.line).filter((u) => !kept.includes(u) && u !== refused.refused && !adjust.rustUsesRefused?.includes(u));
        const replacement = refused.root && !adjust.rustUsesRefused?.includes(refused.root) && !kept.includes(refused.root) ? [refused.root] : next.slice(0, 1);
        return { ...adjust, rustUses: [...kept, ...replacement], rustUsesRefused: [...(adjust.rustUsesRefused ?? []), refused.refused] };
      }
      const uses = suggestedUses(stderr, info.importName).filter((u) => !adjust.rustUses?.includes(u.line) && !adjust.rustUsesRefused?.includes(u.line));
      const usable = uses.map((u) => ({ ...u, dep: useRootKnown(u.root, info.importName, info.rustDeps ?? {}) })).filter((u) => u.dep !== undefined);
      if (usable.length) {
        const rustDeps = { ...(adjust.rustDeps ?? {}) };
        for (const u of usable) if (u.dep && !rustDeps[u.dep]) rustDeps[u.dep] = { ...info.rustDeps![u.dep]!, features: [...(info.rustDeps![u.dep]!.features ?? [])] };
        return { ...adjust, rustUses: [...(adjust.rustUses ?? []), ...usable.map((u) => u.line)], ...(Object.keys(rustDeps).length ? { rustDeps } : {}) };
      }
      // A bare trait object (`Box<Error>`): an error from edition 2021 on (E0782), a warning before. The example was
      // written for 2015/2018, where its crate's doctests were compiled: built again as 2018 (not 2015, whose paths
      // need an `extern crate` for every dependency, which rustdoc adds and a program does not).
      if (!adjust.rustEdition && /error\[E0782\]/.test(stderr)) return { ...adjust, rustEdition: '2018' };
      if (!adjust.dropDebugPrints && /doesn't implement `(std::fmt::)?Debug`|cannot be formatted using `\{:\?\}`/.test(stderr)) return { ...adjust, dropDebugPrints: true };
      const derive = /cannot find derive macro `(\w+)`/.exec(stderr)?.[1];
      if (derive && (info.rustFeatures ?? []).includes('derive') && !adjust.rustFeatures?.includes('derive')) return { ...adjust, rustFeatures: [...(adjust.rustFeatures ?? []), 'derive'] };
      return undefined;
    }
    default: return undefined;
  }
}

/** The public names of Python's `typing` module that annotations use bare (Python 3.11's `typing.__all__`, the usual ones). */
const TYPING_NAMES = new Set(['Any', 'Callable', 'ClassVar', 'Dict', 'DefaultDict', 'FrozenSet', 'Generic', 'Iterable', 'Iterator', 'List', 'Literal',
  'Mapping', 'MutableMapping', 'NamedTuple', 'Optional', 'Protocol', 'Sequence', 'Set', 'Tuple', 'Type', 'TypedDict', 'TypeVar', 'Union', 'Generator',
  'AsyncIterator', 'AsyncGenerator', 'Awaitable', 'Coroutine', 'Hashable', 'Final', 'Annotated', 'cast', 'overload']);

const CLI_HELP_NOTE = 'The example is a command-line program, which run here without arguments shows nothing but a prompt or a usage error; tooldex ran it with --help.';

/** A silent Python run of a script that defines a command-line interface: the same script, run with --help. */
export function cliRetry(code: string, adjust: Adjustments): Adjustments | undefined {
  return !adjust.cliHelp && definesCli(code) ? { ...adjust, cliHelp: true } : undefined;
}

/** The module a docstring doctest belongs to (`src/pkg/sub/mod.py` → `pkg.sub.mod`), when it is the package's own. */
export function doctestModule(path: string, importName: string): string | undefined {
  if (!path.endsWith('.py')) return undefined;
  const parts = path.replace(/\.py$/, '').split('/').filter(Boolean);
  const start = parts.indexOf(importName.split('.')[0]!);
  if (start < 0) return undefined;
  const module = parts.slice(start).filter((p, i, all) => !(p === '__init__' && i === all.length - 1));
  return module.every((p) => /^[A-Za-z_]\w*$/.test(p)) ? module.join('.') : undefined;
}

/** Files for the names the example looks for (never the entry file itself): the docs' content, a sample of the kind, else empty. */
function fixtureFiles(adjust: Adjustments, entry: string, info: PackageInfo, candidate: Candidate): TestRequest['files'] {
  return (adjust.fixtures ?? []).filter((name) => name !== entry).map((name) => {
    const file = fixtureFile(name, info.dataBlocks ?? [], candidate.path);
    return { path: file.path, code: file.code };
  });
}

function fixturesNote(adjust: Adjustments, info: PackageInfo, candidate: Candidate): string {
  if (!adjust.fixtures?.length) return '';
  const from = (kind: string) => adjust.fixtures!.filter((name) => fixtureFile(name, info.dataBlocks ?? [], candidate.path).from === kind);
  return fixtureNote(adjust.fixtures, from('docs'), from('sample'));
}

function stubNote(adjust: Adjustments): { note?: string } {
  return adjust.stubs?.length ? { note: `The example leaves ${adjust.stubs.join(', ')} to the reader; tooldex stood in for ${adjust.stubs.length > 1 ? 'them' : 'it'} (a called helper prints what it is given; a value is left undefined).` } : {};
}

/** A name that can stand for a reader's helper: not one the package's docs bind it to, not the package itself. */
function isHelperName(name: string, packageNames: string[], packageName: string): boolean {
  return /^[a-z_$][\w$]*$/.test(name) && !packageNames.includes(name) && name.toLowerCase() !== packageName.toLowerCase();
}

/** Python stand-ins, defined before the example runs: each prints its name and arguments and returns the first. */
function withPythonStubs(code: string, stubs: string[], dataBlocks: PackageInfo['dataBlocks'] = []): string {
  // A called helper prints what it is given; a value the reader fills in is None (what leaving it out means), or
  // text of the kind its name or the docs say (`text1` in Python-Markdown's docs: Markdown).
  const defs = stubs.map((name) => {
    if (CALLBACK_NAME.test(name) || new RegExp(`\\b${name}\\s*\\(`).test(code)) {
      return `def ${name}(*args, **kwargs):\n    print(${JSON.stringify(name)}, *args, *[f"{k}={v!r}" for k, v in kwargs.items()])\n    return args[0] if args else None\n`;
    }
    const text = textStandIn(name, dataBlocks);
    return text ? `${name} = ${text}  # left to the reader: a sample of the text it names\n` : `${name} = None  # left to the reader\n`;
  });
  return `# Stand-ins for what the example leaves to the reader (a called helper prints what it is given).\n${defs.join('\n')}\n${code}`;
}

/** Exported Go names a fragment may use bare, with the package each belongs to (its own file's package first). */
function bareNameOwners(info: PackageInfo, candidate: Candidate): Map<string, string> {
  const owners = new Map<string, string>();
  const counts = new Map<string, number>();
  for (const names of Object.values(info.goExports ?? {})) for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  for (const [pkg, names] of Object.entries(info.goExports ?? {})) for (const n of names) if (counts.get(n) === 1) owners.set(n, pkg);
  const own = candidate.goPackage && !candidate.goPackage.endsWith('_test') ? info.goExports?.[candidate.goPackage] : undefined;
  for (const n of own ?? []) owners.set(n, candidate.goPackage!);
  if (!candidate.goPackage && candidate.origin !== 'readme' && candidate.origin !== 'docs') return new Map();
  return owners;
}

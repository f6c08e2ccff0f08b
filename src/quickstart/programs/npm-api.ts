// Programs written from an npm package's declared API when no example of its docs runs: the main entry's exports as
// the TypeScript checker resolves them (through `export * from`, `export { default as mean } from './src/mean'`, type
// aliases, `export =`), each function called with values built from its parameters' declared types, printed.
// The tree-sitter builder beside it (collect.ts) reads only a root `index.d.ts` and plain `string|number|boolean`
// parameters; a package whose index re-exports per-function files, or whose functions take arrays or options objects
// (`mean(x: number[])`, `query(ast: Node, selector: string)`), got no program. Nothing here is run or imported.
import type TS from 'typescript';
import type { ArchiveFile } from '../../docs/archive.ts';
import { declarationProgram, npmTypeEntries } from '../../docs/extract/declared-api.ts';
import type { ExampleFiles } from '../artifact.ts';
import { docsCall, docsOnlyText, NO_DOCS_VALUES, type DocsValues } from '../docs-values.ts';
import { DECLARATION, declarationTrees, TYPES_DIR } from '../npm-exports.ts';
import type { Candidate } from '../types.ts';
import { shapedText, withDistinctTexts } from './text-shapes.ts';

/** Written programs kept per package (they are tried after every real example, one run each). */
const MAX_PROGRAMS = 3;
/** How deep an object argument is built (`{ a: { b: 1 } }`): deeper types are not a value a reader would write. */
const MAX_DEPTH = 2;
/** Required properties an object argument may have: more is a configuration a sample cannot stand in for. */
const MAX_PROPERTIES = 6;
/** Exports looked at (a bound on generated, very wide entry points). */
const MAX_EXPORTS = 400;
/** Names of calls that act rather than compute (register, mutate, start, stop): their result says nothing. */
const ACTS = /^(set|add|remove|delete|on|off|once|emit|close|destroy|listen|register|use|install|mount|init|reset|clear|start|stop|run|exit|watch|subscribe)(?![a-z])/;
/**
 * Calls that end, detach or block a value, or reach out: never made on an instance a program goes on using. Writes
 * (`set`, `add`, `put`) are made there: what they put in is read back after them.
 */
const ENDS = /^(remove|delete|del|on|off|once|emit|close|destroy|dispose|listen|register|use|install|mount|init|reset|clear|start|stop|run|exit|watch|subscribe|unsubscribe|end|abort|kill|connect|disconnect|open|pipe|unpipe|wait|sleep|removeAll|emitter|prepend)(?![a-z])/;
/** Calls an instance program makes at most: a few writes and the reads that show them. */
const MAX_INSTANCE_CALLS = 5;

/** Verbs of calls whose result is the point (what the old builder ranked up too). */
const COMPUTES = /^(is|get|format|parse|to|create|from|make|normalize|validate|convert|render|compile|transform|build|encode|decode|compare|find|match|sum|mean|count)/;

/**
 * The global types the checker needs to tell an array from an object: the program is built with no lib (nothing read
 * from disk), under which `number[]` is an empty object type. Declared here as the smallest lib that names them; the
 * types it declares (Date, RegExp…) are never sampled.
 */
const LIB_FILE = '__tooldex_globals__.d.ts';
const LIB = [
  'interface Array<T> { length: number; [n: number]: T }', 'interface ReadonlyArray<T> { readonly length: number; readonly [n: number]: T }',
  'interface Promise<T> { then(onfulfilled?: (value: T) => unknown): unknown }', 'interface Boolean {}', 'interface Function {}',
  'interface CallableFunction extends Function {}', 'interface NewableFunction extends Function {}', 'interface IArguments {}',
  'interface Number {}', 'interface Object {}', 'interface RegExp {}', 'interface String {}', 'interface Date {}', 'interface Map<K, V> {}',
  'interface Set<T> {}', 'interface Symbol {}', 'interface Uint8Array { readonly length: number }', 'interface ArrayBuffer {}',
].join('\n');

/**
 * Values of the lib types a declaration names, by the type's name (declared in LIB above; `Buffer` is Node's and
 * unresolved without @types/node, so read from the declared text): what a function taking bytes, a regular
 * expression or a date is given instead of nothing. Bytes are text encoded, so that a decode shows it back.
 */
const LIB_SAMPLES: Readonly<Record<string, string>> = {
  Uint8Array: 'new TextEncoder().encode("hello world")', ArrayBuffer: 'new TextEncoder().encode("hello world").buffer',
  Buffer: 'Buffer.from("hello world")', RegExp: '/[a-z]+(\\d+)/g', Date: 'new Date("2024-02-29T13:45:00Z")',
};

/** In a union with text, only a type whose text form is another notation (a regular expression's source, a date's ISO text) goes before text. */
const beforeText = (name: string) => name === 'RegExp' || name === 'Date';

/**
 * A lib type's value read from a parameter's declared type text alone (`Uint8Array`, `string | RegExp`): the type
 * itself, or a union's member with its own notation. Bytes beside `string` (`xmlData: string | Buffer`) are the same
 * text encoded, so text stays. Shared by the checker's Sampler and the tree-sitter builder (collect.ts).
 */
export function declaredLibSample(declared: string): string | undefined {
  if (LIB_SAMPLES[declared.trim()]) return LIB_SAMPLES[declared.trim()];
  const named = declared.split('|').map((t) => t.trim()).find((t) => LIB_SAMPLES[t] && beforeText(t));
  return named ? LIB_SAMPLES[named] : undefined;
}

/** One written program: its code, a hand rank (documented in docs/quickstarts.md), and where the function is declared. */
export interface ApiProgram { code: string; rank: number; path: string; line: number }

/**
 * Up to MAX_PROGRAMS programs from the declarations in `files` (the package's own, else DefinitelyTyped's under
 * `@types/<name>/`), best first. `importName` is what the program imports; `docs` what the docs' examples pass.
 */
export async function declaredApiPrograms(files: ArchiveFile[], importName: string, docs: DocsValues = NO_DOCS_VALUES): Promise<ApiProgram[]> {
  const { own, definitelyTyped } = declarationTrees(files);
  for (const [tree, prefix] of [[own, ''], [definitelyTyped, typesPrefix(files)]] as const) {
    if (![...tree.keys()].some((p) => DECLARATION.test(p))) continue;
    try {
      const found = await programsOf(tree, importName, docs);
      if (found.length) return found.map((p) => ({ ...p, path: `${prefix}${p.path}` }));
    } catch {
      // Declarations the compiler cannot read: no written program from them.
    }
  }
  return [];
}

function typesPrefix(files: ArchiveFile[]): string {
  return TYPES_DIR.exec(files.find((f) => TYPES_DIR.test(f.path))?.path ?? '')?.[0] ?? '';
}

async function programsOf(files: Map<string, string>, importName: string, docs: DocsValues): Promise<ApiProgram[]> {
  const entry = npmTypeEntries(files).find((e) => e.subpath === '.');
  if (!entry) return [];
  const { ts, program, sourceFile: entrySource } = await declarationProgram(new Map([...files, [LIB_FILE, LIB]]), [entry.file, LIB_FILE]);
  const checker = program.getTypeChecker();
  const sourceFile = entrySource(entry.file);
  const moduleSymbol = sourceFile ? checker.getSymbolAtLocation(sourceFile) : undefined;
  if (!sourceFile || !moduleSymbol) return [];
  const sampler = new Sampler(ts, checker);
  const found: ApiProgram[] = [];
  const local = localName(importName);
  // Every exported function as a program calls it, for the chains below.
  const functions: ChainEnd[] = [];
  const assigned = moduleSymbol.exports?.get('export=' as TS.__String);
  if (assigned) {
    // `export = fn` (ms, debug) is called itself; `export = _` (a namespace object) by its properties.
    const type = checker.getTypeOfSymbolAtLocation(assigned, sourceFile);
    for (const call of sampler.calls(local, type, docs)) found.push(written(`import ${local} from '${importName}';`, call, sourceFile));
    for (const property of checker.getPropertiesOfType(type).slice(0, MAX_EXPORTS)) {
      if (property.name.startsWith('_')) continue;
      const propertyType = checker.getTypeOfSymbolAtLocation(property, sourceFile);
      functions.push({ name: property.name, callee: `${local}.${property.name}`, importLine: `import ${local} from '${importName}';`, type: propertyType, declaration: property.valueDeclaration });
      for (const call of sampler.calls(property.name, propertyType, docs)) found.push(written(`import ${local} from '${importName}';`, { ...call, callee: `${local}.${call.callee}` }, property.valueDeclaration?.getSourceFile() ?? sourceFile, property.valueDeclaration));
    }
  } else {
    for (const symbol of checker.getExportsOfModule(moduleSymbol).slice(0, MAX_EXPORTS)) {
      if (symbol.name.startsWith('_')) continue;
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (!(target.flags & ts.SymbolFlags.Value) || (symbol.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d))) continue;
      const declaration = target.valueDeclaration ?? target.declarations?.[0];
      const type = checker.getTypeOfSymbolAtLocation(target, declaration ?? sourceFile);
      const name = symbol.name === 'default' ? local : symbol.name;
      const importLine = symbol.name === 'default' ? `import ${local} from '${importName}';` : `import { ${name} } from '${importName}';`;
      functions.push({ name, callee: name, importLine, type, declaration });
      for (const call of sampler.calls(name, type, docs)) found.push(written(importLine, call, declaration?.getSourceFile() ?? sourceFile, declaration));
      const returned = sampler.returnedUse(name, type, docs);
      if (returned) found.push(written(importLine, returned, declaration?.getSourceFile() ?? sourceFile, declaration));
      const constructed = sampler.construction(name, type, docs);
      if (constructed) found.push(written(importLine, constructed, declaration?.getSourceFile() ?? sourceFile, declaration));
      // A default export's own functions (`template.ast(…)` beside `template(…)`), as for `export =` above.
      if (symbol.name === 'default') {
        for (const property of checker.getPropertiesOfType(type).slice(0, MAX_EXPORTS)) {
          if (property.name.startsWith('_') || !property.valueDeclaration || property.valueDeclaration.getSourceFile().fileName.endsWith(`/${LIB_FILE}`)) continue;
          const propertyType = checker.getTypeOfSymbolAtLocation(property, property.valueDeclaration);
          functions.push({ name: property.name, callee: `${local}.${property.name}`, importLine, type: propertyType, declaration: property.valueDeclaration });
          for (const call of sampler.calls(property.name, propertyType, docs)) found.push(written(importLine, { ...call, callee: `${local}.${call.callee}` }, property.valueDeclaration.getSourceFile(), property.valueDeclaration));
        }
      }
    }
  }
  for (const chain of sampler.chains(functions, docs)) found.push(written(chain.importLine, chain.call, chain.declaration?.getSourceFile() ?? sourceFile, chain.declaration));
  const seen = new Set<string>();
  return found.sort((a, b) => b.rank - a.rank).filter((p) => !seen.has(p.code) && seen.add(p.code)).slice(0, MAX_PROGRAMS);
}

/** An exported function as a program calls it (`toByteArray`, or `base64.toByteArray` on an `export =` object). */
interface ChainEnd { name: string; callee: string; importLine: string; type: TS.Type; declaration?: TS.Declaration }

/** Chains made per package at most (each is one written program). */
const MAX_CHAINS = 2;

/** A call to print: the callee as written, its arguments, whether it returns a promise, and its rank. */
interface Call { callee: string; args: string[]; awaited: boolean; rank: number; setup?: string; lines?: string[] }

function written(importLine: string, call: Call, file: TS.SourceFile, declaration?: TS.Node): ApiProgram {
  const value = `${call.awaited ? 'await ' : ''}${call.callee}(${call.args.join(', ')})`;
  const code = [importLine, '', ...(call.setup ? [call.setup] : []), ...(call.lines ?? [`console.log(${value});`])].join('\n');
  const line = declaration ? file.getLineAndCharacterOfPosition(declaration.getStart()).line + 1 : 1;
  return { code, rank: call.rank, path: file.fileName.replace(/^\/pkg\//, ''), line };
}

/** The package's name as a JavaScript identifier (`lodash.merge` → `lodashMerge`, `@scope/x-y` → `xY`). */
export function localName(importName: string): string {
  const base = importName.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9_$]+(.)?/g, (_, c?: string) => (c ? c.toUpperCase() : ''));
  return /^[A-Za-z_$]/.test(base) ? base : `pkg${base}`;
}

/** Values for declared types, and the calls of a function-valued export they make possible. */
export class Sampler {
  /** Whether `any`/`unknown` parameters take text (instance methods only, see instanceUse). */
  private anyAsText = false;

  constructor(private ts: typeof TS, private checker: TS.TypeChecker) {}

  /** The calls of `type`'s first signature whose required parameters all have a sample (at most one per export). */
  calls(name: string, type: TS.Type, docs: DocsValues): Call[] {
    if (!/^[A-Za-z_$][\w$]*$/.test(name) || ACTS.test(name)) return [];
    for (const signature of type.getCallSignatures()) {
      const args = this.arguments(name, signature, docs);
      if (!args) continue;
      const returns = this.checker.getReturnTypeOfSignature(signature);
      // As declared: no lib is loaded, so the checker cannot resolve `Promise` itself.
      const declared = signature.declaration && 'type' in signature.declaration ? (signature.declaration.type as TS.TypeNode | undefined)?.getText() ?? '' : '';
      const shown = declared || this.checker.typeToString(returns);
      if (returns.flags & (this.ts.TypeFlags.Void | this.ts.TypeFlags.Never | this.ts.TypeFlags.Undefined) || /^(Promise<(void|never|undefined)>|this|asserts\b)/.test(shown)) continue;
      // A function handed back prints as `[Function]`, never a result.
      if (returns.getCallSignatures().length) continue;
      // Each weight is set by hand (the written-program order in docs/quickstarts.md, as for the tree-sitter builder):
      // what the docs' examples call first (+4 exceeds the other cues' sum), then a plain result, a verb that computes.
      const rank = (docsCall(docs, name) ? 4 : 0) + (returns.flags & (this.ts.TypeFlags.StringLike | this.ts.TypeFlags.NumberLike | this.ts.TypeFlags.BooleanLike) ? 1 : 0)
        + (COMPUTES.test(name) ? 1 : 0) + (args.length ? 0 : -1);
      return [{ callee: name, args, awaited: /^Promise\b/.test(shown), rank }];
    }
    return [];
  }

  /**
   * A class whose constructor needs nothing the samples cannot give, then one computing method of the instance:
   * `const parser = new XMLParser();` and `parser.parse("example")`, printed.
   */
  construction(name: string, type: TS.Type, docs: DocsValues): Call | undefined {
    const construct = type.getConstructSignatures()[0];
    if (!construct || !/^[A-Z]/.test(name)) return undefined;
    const args = this.arguments(name, construct, docs);
    if (!args) return undefined;
    const instance = this.checker.getReturnTypeOfSignature(construct);
    const variable = name.replace(/^[A-Z]+(?=[A-Z][a-z])|^[A-Z]+$|^[A-Z]/, (m) => m.toLowerCase());
    // The instance used: data put in by its methods and read back, the results printed.
    const used = this.instanceUse(variable, instance, docs);
    if (used) return { callee: name, args, awaited: false, rank: used.rank, setup: `const ${variable} = new ${name}(${args.join(', ')});`, lines: used.lines };
    for (const method of this.checker.getPropertiesOfType(instance).slice(0, 100)) {
      if (!/^[a-z]\w*$/.test(method.name) || ACTS.test(method.name) || !method.valueDeclaration) continue;
      const methodType = this.checker.getTypeOfSymbolAtLocation(method, method.valueDeclaration);
      const [call] = this.calls(method.name, methodType, docs);
      if (!call || !call.args.length) continue;
      return { ...call, callee: `${variable}.${method.name}`, setup: `const ${variable} = new ${name}(${args.join(', ')});`, rank: call.rank - 1 + (COMPUTES.test(method.name) ? 1 : 0) };
    }
    return undefined;
  }

  /**
   * Calls of an instance's methods, printed with their names: the ones the docs call first, then those taking data
   * (the one taking more first: `setKey(key, value)` before `getKey(key)`), then reads without arguments. A method
   * that returns nothing is made as a statement (a write); one returning a function or ending the value never.
   * Undefined when nothing would be printed.
   */
  instanceUse(variable: string, instance: TS.Type, docs: DocsValues): { lines: string[]; rank: number } | undefined {
    if (instance.flags & (this.ts.TypeFlags.StringLike | this.ts.TypeFlags.NumberLike | this.ts.TypeFlags.BooleanLike) || this.checker.isArrayType(instance)) return undefined;
    const calls: Array<{ line: string; prints: boolean; args: number; docs: boolean; index: number }> = [];
    for (const [index, method] of this.checker.getPropertiesOfType(instance).slice(0, 100).entries()) {
      if (!/^[a-z]\w*$/.test(method.name) || ENDS.test(method.name) || !method.valueDeclaration || method.valueDeclaration.getSourceFile().fileName.endsWith(`/${LIB_FILE}`)) continue;
      const methodType = this.checker.getTypeOfSymbolAtLocation(method, method.valueDeclaration);
      const signature = methodType.getCallSignatures()[0];
      if (!signature) continue;
      // The docs call it on a value of their own (`cache.setKey("a", 1)`): their text goes to it.
      const docsKey = [...docs.passed.keys()].find((k) => k.endsWith(`.${method.name}`)) ?? method.name;
      // A value a method stores is anything (`setKey(key: string, value: any)`): text stands in for it, which the
      // read after it shows back. Only here: a function given `any` at the top level is not called blind.
      this.anyAsText = true;
      const args = this.arguments(docsKey, signature, docs);
      this.anyAsText = false;
      if (!args) continue;
      const returns = this.checker.getReturnTypeOfSignature(signature);
      const declared = signature.declaration && 'type' in signature.declaration ? (signature.declaration.type as TS.TypeNode | undefined)?.getText() ?? '' : '';
      const shown = declared || this.checker.typeToString(returns);
      if (returns.getCallSignatures().length) continue;
      const nothing = Boolean(returns.flags & (this.ts.TypeFlags.Void | this.ts.TypeFlags.Never | this.ts.TypeFlags.Undefined)) || /^(Promise<(void|never|undefined)>|this)$/.test(shown);
      // A call that returns nothing and takes no data only changes or blocks the value: nothing to show.
      if (nothing && !args.length) continue;
      const call = `${/^Promise\b/.test(shown) ? 'await ' : ''}${variable}.${method.name}(${args.join(', ')})`;
      const label = JSON.stringify(`${method.name}(${args.join(', ').slice(0, 40)}):`);
      calls.push({ line: nothing ? `${call};` : `console.log(${label}, ${call});`, prints: !nothing, args: args.length, docs: docsCall(docs, method.name), index });
    }
    const kept = calls.sort((a, b) => Number(b.docs) - Number(a.docs) || Number(b.args > 0) - Number(a.args > 0) || b.args - a.args || a.index - b.index).slice(0, MAX_INSTANCE_CALLS);
    // Writes first (statements), then the reads that show them, each in the order kept.
    const lines = [...kept.filter((c) => !c.prints), ...kept.filter((c) => c.prints)].map((c) => c.line);
    if (!kept.some((c) => c.prints)) return undefined;
    // Hand rank, as the builder's other weights: the docs' own methods, and a computed result shown.
    return { lines, rank: 1 + (kept.some((c) => c.docs) ? 4 : 0) + Math.min(2, kept.filter((c) => c.prints).length - 1) * 0.5 };
  }

  /**
   * Two exports where one's result is the other's input (encode then decode, parse then inspect, compile then run):
   * `const uint8Array = toByteArray("aGVsbG8gd29ybGQ=")`, then `fromByteArray(uint8Array)`, both printed. The type that
   * joins them is what the checker says the first returns and the second's first parameter takes, printed the same,
   * and not plain text, a number, a boolean or `any` (every text function would join every other); a round trip (the
   * second returns the first's input type) may join through text when the first's input is not text.
   */
  chains(functions: ChainEnd[], docs: DocsValues): Array<{ importLine: string; call: Call; declaration?: TS.Declaration }> {
    const { TypeFlags } = this.ts;
    const plain = (t: TS.Type) => Boolean(t.flags & (TypeFlags.StringLike | TypeFlags.NumberLike | TypeFlags.BooleanLike | TypeFlags.Any | TypeFlags.Unknown | TypeFlags.Void | TypeFlags.Undefined | TypeFlags.Never | TypeFlags.Null));
    const ends = functions.filter((f) => /^[A-Za-z_$][\w$]*$/.test(f.name) && !ACTS.test(f.name)).map((f) => {
      const signature = f.type.getCallSignatures()[0];
      const first = signature?.getParameters()[0];
      const firstType = first?.valueDeclaration ? this.checker.getTypeOfSymbolAtLocation(first, first.valueDeclaration) : undefined;
      return { ...f, signature, firstType, returns: signature ? this.checker.getReturnTypeOfSignature(signature) : undefined };
    }).filter((f) => f.signature && f.returns && !f.returns.getCallSignatures().length);
    const out: Array<{ importLine: string; call: Call; declaration?: TS.Declaration }> = [];
    for (const from of ends) {
      if (out.length >= MAX_CHAINS) break;
      const joined = this.checker.typeToString(from.returns!);
      if (from.returns!.flags & (TypeFlags.Void | TypeFlags.Undefined | TypeFlags.Never | TypeFlags.Any | TypeFlags.Unknown) || /^Promise\b/.test(joined)) continue;
      const args = this.arguments(from.name, from.signature!, docs);
      if (!args?.length) continue;
      for (const to of ends) {
        if (to === from || !to.firstType || this.checker.typeToString(to.firstType) !== joined) continue;
        const roundTrip = Boolean(from.firstType && !plain(from.firstType) && this.checker.typeToString(to.returns!) === this.checker.typeToString(from.firstType));
        if (plain(from.returns!) && !roundTrip) continue;
        // The second's other required parameters, sampled as any call's (the first is the joined value).
        const variable = /^[A-Za-z]\w*$/.test(joined) && !plain(from.returns!) ? joined.replace(/^[A-Z]+(?=[A-Z][a-z])|^[A-Z]+$|^[A-Z]/, (m) => m.toLowerCase()) : 'result';
        const named = variable === from.callee.split('.')[0] || variable === to.callee.split('.')[0] ? 'result' : variable;
        const given = this.arguments(to.name, to.signature!, docs, named);
        if (!given?.length) continue;
        const lines = [
          `const ${named} = ${from.callee}(${args.join(', ')});`,
          `console.log(${JSON.stringify(`${from.name}(${args.join(', ').slice(0, 40)}):`)}, ${named});`,
          `console.log(${JSON.stringify(`${to.name}(${given.join(', ').slice(0, 40)}):`)}, ${to.callee}(${given.join(', ')}));`,
        ];
        const importLine = from.importLine === to.importLine ? from.importLine : `${from.importLine}\n${to.importLine}`;
        // Hand rank, as the builder's other weights: above a lone call (a value made and used), the docs' calls first.
        const rank = 3 + (docsCall(docs, from.name) ? 2 : 0) + (docsCall(docs, to.name) ? 2 : 0) + (roundTrip ? 1 : 0);
        out.push({ importLine, call: { callee: from.callee, args, awaited: false, rank, lines }, declaration: from.declaration });
        break;
      }
    }
    return out;
  }

  /** A function that returns an object with methods: the object used (`const cache = create(…)`, then its methods). */
  returnedUse(name: string, type: TS.Type, docs: DocsValues): Call | undefined {
    if (!/^[A-Za-z_$][\w$]*$/.test(name) || ACTS.test(name)) return undefined;
    for (const signature of type.getCallSignatures()) {
      const args = this.arguments(name, signature, docs);
      if (!args) continue;
      const returns = this.checker.getReturnTypeOfSignature(signature);
      if (!(returns.flags & this.ts.TypeFlags.Object) || returns.getCallSignatures().length) continue;
      // Named after the type it returns (`FlatCache` → `flatCache`), as a reader names it.
      const typeName = returns.getSymbol()?.name ?? '';
      const variable = /^[A-Z][A-Za-z0-9]*$/.test(typeName) && typeName.toLowerCase() !== name.toLowerCase() ? typeName.replace(/^[A-Z]+(?=[A-Z][a-z])|^[A-Z]+$|^[A-Z]/, (m) => m.toLowerCase()) : 'value';
      const used = this.instanceUse(variable, returns, docs);
      if (!used) continue;
      return { callee: name, args, awaited: false, rank: used.rank + (docsCall(docs, name) ? 4 : 0), setup: `const ${variable} = ${name}(${args.join(', ')});`, lines: used.lines };
    }
    return undefined;
  }

  /** Samples for the required parameters of `signature` (optional and rest ones left out), or undefined. */
  arguments(fn: string, signature: TS.Signature, docs: DocsValues, given?: string): string[] | undefined {
    const args: string[] = [];
    for (const parameter of signature.getParameters()) {
      const declaration = parameter.valueDeclaration;
      if (!declaration || !this.ts.isParameter(declaration)) return undefined;
      if (declaration.questionToken || declaration.initializer || declaration.dotDotDotToken) break;
      // The first argument given (a chain's joined value), whatever its type.
      if (given !== undefined && !args.length) { args.push(given); continue; }
      const type = this.checker.getTypeOfSymbolAtLocation(parameter, declaration);
      // A lib type the parameter names (`uint8: Uint8Array`, `source: string | RegExp`): its value, before text. A
      // function that takes `string | RegExp` takes the text as the expression's source; "example" is none.
      // Text the docs pass this function or bind to the parameter's name comes first, where the parameter takes text;
      // then the lib type's value; then text of the format the parameter's name says (`b64`, `character`: text-shapes.ts).
      const docsGiven = this.admitsString(type) ? docsOnlyText(docs, fn, parameter.name, args.length) : undefined;
      const lib = docsGiven === undefined ? this.libSample(type, declaration.type?.getText() ?? '') : undefined;
      const text = docsGiven ?? (lib === undefined && this.admitsString(type) ? shapedText(parameter.name) : undefined);
      const sample = lib ?? (text !== undefined ? JSON.stringify(text) : this.sample(type, 0));
      if (sample === undefined) return undefined;
      args.push(sample);
    }
    // Two text arguments that are the same text (`compare("example", "example")`) show nothing: each differs.
    return withDistinctTexts(args, (a, i) => (/^"/.test(a) && !(given !== undefined && i === 0) ? { text: JSON.parse(a) as string, write: (t) => JSON.stringify(t) } : undefined));
  }

  /** A lib type's value (LIB_SAMPLES) for a parameter's type, or a union's member of one; undefined for any other. */
  private libSample(type: TS.Type, declared: string): string | undefined {
    const fromText = declaredLibSample(declared);
    if (fromText) return fromText;
    const members = type.isUnion() ? type.types : [type];
    const withText = members.some((m) => m.flags & this.ts.TypeFlags.StringLike);
    for (const member of members) {
      const symbol = member.getSymbol();
      const name = symbol?.name ?? '';
      if (LIB_SAMPLES[name] && (!withText || beforeText(name)) && symbol?.declarations?.some((d) => d.getSourceFile().fileName.endsWith(`/${LIB_FILE}`) || d.getSourceFile().fileName === LIB_FILE)) return LIB_SAMPLES[name];
    }
    return undefined;
  }

  private admitsString(type: TS.Type): boolean {
    if (type.flags & this.ts.TypeFlags.String) return true;
    return type.isUnion() && type.types.some((t) => (t.flags & this.ts.TypeFlags.String) !== 0);
  }

  /** A JavaScript expression of `type`, or undefined when the type says too little (any, unknown, a function, a class instance). */
  sample(type: TS.Type, depth: number): string | undefined {
    const { TypeFlags } = this.ts;
    if (type.flags & TypeFlags.String) return '"example"';
    if (this.anyAsText && depth === 0 && type.flags & (TypeFlags.Any | TypeFlags.Unknown)) return '"example"';
    if (type.flags & TypeFlags.Number) return '2';
    if (type.flags & TypeFlags.Boolean) return 'true';
    if (type.isStringLiteral()) return JSON.stringify(type.value);
    if (type.isNumberLiteral()) return String(type.value);
    if (type.flags & TypeFlags.BooleanLiteral) return this.checker.typeToString(type);
    if (type.isUnion()) {
      const members = type.types.filter((t) => !(t.flags & (TypeFlags.Undefined | TypeFlags.Null | TypeFlags.Void)));
      // Text first, as the reader tries a function with text; then whichever member has a sample.
      const ordered = [...members.filter((t) => t.flags & TypeFlags.String), ...members.filter((t) => !(t.flags & TypeFlags.String))];
      for (const member of ordered) {
        const sample = this.sample(member, depth);
        if (sample !== undefined) return sample;
      }
      return undefined;
    }
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      const elements = this.checker.getTypeArguments(type as TS.TypeReference);
      if (this.checker.isTupleType(type)) {
        const samples = elements.map((e) => this.sample(e, depth + 1));
        return samples.every((s) => s !== undefined) ? `[${samples.join(', ')}]` : undefined;
      }
      const element = elements[0];
      if (!element || depth >= MAX_DEPTH) return undefined;
      // A few values, so that what the function computes over them shows (a mean of one number shows nothing).
      if (element.flags & TypeFlags.Number) return '[1, 2, 3, 4]';
      if (element.flags & TypeFlags.String) return '["example", "sample"]';
      const one = this.sample(element, depth + 1);
      return one === undefined ? undefined : `[${one}]`;
    }
    if (type.flags & TypeFlags.Object && depth < MAX_DEPTH) return this.objectSample(type, depth);
    return undefined;
  }

  /** An object literal with the required properties of a plain object type (an interface or literal type, not a class or function). */
  private objectSample(type: TS.Type, depth: number): string | undefined {
    if (type.getCallSignatures().length || type.getConstructSignatures().length) return undefined;
    const declarations = type.getSymbol()?.declarations ?? [];
    if (declarations.some((d) => this.ts.isClassDeclaration(d) || d.getSourceFile().fileName.endsWith(`/${LIB_FILE}`))) return undefined;
    // Named types with no declaration here (the lib's Date, Map, Buffer: no lib is loaded) are not sampled.
    if (!declarations.length && !(type as TS.ObjectType).objectFlags) return undefined;
    if (this.checker.getIndexInfosOfType(type).length && !this.checker.getPropertiesOfType(type).length) return '{}';
    const parts: string[] = [];
    for (const property of this.checker.getPropertiesOfType(type)) {
      if (property.flags & this.ts.SymbolFlags.Optional) continue;
      if (parts.length >= MAX_PROPERTIES || !property.valueDeclaration || property.flags & this.ts.SymbolFlags.Method) return undefined;
      const sample = this.sample(this.checker.getTypeOfSymbolAtLocation(property, property.valueDeclaration), depth + 1);
      if (sample === undefined) return undefined;
      parts.push(`${/^[A-Za-z_$][\w$]*$/.test(property.name) ? property.name : JSON.stringify(property.name)}: ${sample}`);
    }
    if (!declarations.length && !parts.length) return undefined;
    return parts.length ? `{ ${parts.join(', ')} }` : '{}';
  }
}

/** The written programs as candidates (origin `api`, tried after every real example), with their declarations' URLs. */
export async function declaredApiCandidates(artifact: ExampleFiles, docs: DocsValues = NO_DOCS_VALUES): Promise<Candidate[]> {
  const programs = await declaredApiPrograms(artifact.files, artifact.importName, docs);
  return programs.map((p) => ({ code: p.code, language: 'js', origin: 'api', path: p.path, source: artifact.fileUrl(p.path, p.line) }));
}

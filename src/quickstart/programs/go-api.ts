// Go programs written from a package's declared API that perform its main operation: the package's main type is
// built by its constructor, then its methods are called on it (data in first, then what reads it back) and what they
// compute is printed, not the constructed value. Read from real parses (tree-sitter's Go grammar); no package named.
//
// Why: the older builder (collect.ts goApiCandidates) prints what one function returns, so a constructor's program
// only dumps a new struct (`fmt.Println(xxh3.New())`, `backoff.NewExponentialBackOff()`: rated "trivial: nothing is
// hashed", "only dumps a new struct" on every fresh set). A hasher teaches when bytes are written and the sum is read;
// a cache when a key is set and then got.
import { textOf } from '../../docs/archive.ts';
import type { ExampleFiles } from '../artifact.ts';
import { docsCall, type DocsValues, NO_DOCS_VALUES } from '../docs-values.ts';
import { descendants, namedChildren, withSyntaxTree, type SyntaxNode } from '../parse.ts';
import type { Candidate } from '../types.ts';

/**
 * Plain values for parameters of basic types (what a reader would pass to try a call), shared with the one-call
 * builder (collect.ts). An error is a plain value too (what go-multierror's Append or errwrap's Wrapf are given).
 */
export const GO_SAMPLE: Readonly<Record<string, string>> = {
  int: '2', int8: '2', int16: '2', int32: '2', int64: '2', uint: '2', uint8: '2', uint16: '2', uint32: '2', uint64: '2', uintptr: '2',
  float32: '1.5', float64: '1.5', string: '"example"', bool: 'true', byte: '\'a\'', rune: '\'a\'', '[]byte': '[]byte("example")', 'time.Duration': 'time.Second',
  error: 'errors.New("example")',
};
/** Method calls also take small slices (a store's `SetMany(keys []string)`). */
const SAMPLE: Readonly<Record<string, string>> = { ...GO_SAMPLE, '[]string': '[]string{"example", "sample"}', '[]int': '[]int{3, 1, 2}' };
/**
 * Result types a reader sees as a result when printed (not an address or a struct dump). An `any` result is what a
 * store hands back (`Get(k) (interface{}, bool)`): the value put in before it, printed as it is.
 */
const PLAIN_RESULT = /^(u?int(8|16|32|64)?|uintptr|float(32|64)|string|bool|byte|rune|\[\](byte|string|u?int(8|16|32|64)?|float64|rune)|time\.(Duration|Time)|error|any|interface\{\})$/;
/** Parameter types that take any value (`Set(k string, x interface{}, d time.Duration)`): text stands in for it. */
const ANY = /^(any|interface\{\})$/;
/**
 * Methods a program must not call: they block (serve, wait, start a loop), end the value's life before it is read,
 * or exit the process. (collect.ts keeps its own, shorter list for the functions it calls once: a different job.)
 */
const NOT_CALLED = /^(Close|Stop|Start|Run|Serve|Listen|Wait|Shutdown|Release|Exit|Fatal|Panic|Main|Lock|Unlock|RLock|RUnlock|Delete|Remove|Clear|Reset|Purge|Flush|Free|Destroy|Kill|Dial|Connect|Open|Watch|Loop)/;
/**
 * Methods that implement a standard library interface (encoding's Text/Binary/JSON marshalers, `sql.Scanner`,
 * `driver.Valuer`, gob, `fmt.Formatter`): how other packages drive the type, not its own API. Called with stand-in
 * text they only print parse errors (a UUID's `UnmarshalText("example")`).
 */
const STANDARD_INTERFACE = /^((Marshal|Unmarshal|Append)(Text|Binary|JSON|YAML|XML)|Scan|Value|GobEncode|GobDecode|Format|GoString)$/;
const MAX_CALLS = 6;
const MAX_PROGRAMS = 2;

interface Param { names: string[]; type: string; variadic: boolean }
interface Func { name: string; params: Param[]; results: string[]; typeParams: Array<{ name: string; constraint: string }>; path: string; line: number }
interface Method extends Func { receiver: string; receiverParams: string[] }

interface GoApi {
  pkg: string;
  /** Exported type names → their type parameters (`Cache` → [K, V]). */
  types: Map<string, string[]>;
  /** Methods by receiver type name (structs' methods and interfaces' method elements). */
  methods: Map<string, Method[]>;
  functions: Func[];
}

function paramsOf(list: SyntaxNode | null): Param[] {
  if (!list) return [];
  return namedChildren(list).filter((p) => /parameter_declaration$/.test(p.type)).map((p) => ({
    names: p.childrenForFieldName('name').filter((n): n is SyntaxNode => Boolean(n)).map((n) => n.text),
    type: p.childForFieldName('type')?.text ?? '',
    variadic: p.type === 'variadic_parameter_declaration',
  }));
}

function resultsOf(result: SyntaxNode | null): string[] {
  if (!result) return [];
  if (result.type !== 'parameter_list') return [result.text];
  return paramsOf(result).flatMap((p) => Array.from({ length: Math.max(1, p.names.length) }, () => p.type));
}

/** `*Cache[K, V]` → `Cache`; `Glob` → `Glob`. */
const baseType = (type: string) => type.replace(/^\*/, '').replace(/\[.*$/, '');

/** The declared API of the Go files given (one package): exported types, their methods, exported functions. */
export async function readGoApi(files: Array<{ path: string; text: string }>): Promise<GoApi | undefined> {
  const api: GoApi = { pkg: '', types: new Map(), methods: new Map(), functions: [] };
  // Methods of unexported types, and the unexported types each exported struct embeds.
  const hidden = new Map<string, Method[]>();
  const embeds = new Map<string, string[]>();
  const addMethod = (m: Method) => api.methods.set(m.receiver, [...(api.methods.get(m.receiver) ?? []), m]);
  for (const file of files) {
    await withSyntaxTree('go', file.text, (root) => {
      const pkg = descendants(root, 'package_identifier')[0]?.text;
      if (!pkg || pkg === 'main' || (api.pkg && api.pkg !== pkg)) return;
      api.pkg = pkg;
      for (const spec of descendants(root, 'type_spec')) {
        const name = spec.childForFieldName('name')?.text ?? '';
        if (!/^[A-Z]/.test(name)) continue;
        const typeParams = spec.childForFieldName('type_parameters');
        api.types.set(name, typeParams ? descendants(typeParams, 'type_parameter_declaration').flatMap((d) => d.childrenForFieldName('name').filter((n): n is SyntaxNode => Boolean(n)).map((n) => n.text)) : []);
        const body = spec.childForFieldName('type');
        if (body?.type === 'struct_type') {
          const inner = descendants(body, 'field_declaration').filter((f) => !f.childForFieldName('name')).map((f) => baseType(f.childForFieldName('type')?.text ?? '')).filter((t) => /^[a-z]/.test(t));
          if (inner.length) embeds.set(name, inner);
        }
        if (body?.type !== 'interface_type') continue;
        for (const elem of namedChildren(body).filter((n) => /^method_(elem|spec)$/.test(n.type))) {
          const methodName = elem.childForFieldName('name')?.text ?? '';
          if (!/^[A-Z]/.test(methodName)) continue;
          addMethod({ name: methodName, params: paramsOf(elem.childForFieldName('parameters')), results: resultsOf(elem.childForFieldName('result')), typeParams: [], receiver: name, receiverParams: api.types.get(name) ?? [], path: file.path, line: elem.startPosition.row + 1 });
        }
      }
      for (const fn of namedChildren(root).filter((n) => n.type === 'function_declaration' || n.type === 'method_declaration')) {
        const name = fn.childForFieldName('name')?.text ?? '';
        if (!/^[A-Z]/.test(name)) continue;
        const typeParamList = fn.childForFieldName('type_parameters');
        const typeParams = typeParamList ? descendants(typeParamList, 'type_parameter_declaration').flatMap((d) => {
          const constraint = d.childForFieldName('type')?.text ?? '';
          return d.childrenForFieldName('name').filter((n): n is SyntaxNode => Boolean(n)).map((n) => ({ name: n.text, constraint }));
        }) : [];
        const base: Func = { name, params: paramsOf(fn.childForFieldName('parameters')), results: resultsOf(fn.childForFieldName('result')), typeParams, path: file.path, line: fn.startPosition.row + 1 };
        if (fn.type === 'function_declaration') { api.functions.push(base); continue; }
        const receiver = paramsOf(fn.childForFieldName('receiver'))[0]?.type ?? '';
        // `func (c *Cache[K, V])`: the receiver's own names for the type's parameters.
        const receiverParams = /\[(.*)\]$/.exec(receiver)?.[1]!.split(',').map((s) => s.trim()) ?? [];
        if (/^[A-Z]/.test(baseType(receiver))) addMethod({ ...base, receiver: baseType(receiver), receiverParams });
        else hidden.set(baseType(receiver), [...(hidden.get(baseType(receiver)) ?? []), { ...base, receiver: baseType(receiver), receiverParams }]);
      }
    });
  }
  // Methods promoted from an embedded unexported type (`type Cache struct { *cache }`, the methods on `*cache`):
  // callable on the exported type, as go/doc lists them.
  for (const [type, embedded] of embeds) {
    for (const inner of embedded) for (const method of hidden.get(inner) ?? []) addMethod({ ...method, receiver: type });
  }
  return api.pkg ? api : undefined;
}

/** Text the docs pass to a method called on any value (`g.Match("api.github.com")` → Match's first argument). */
function docsMethodText(docs: DocsValues, method: string, param: string, position: number): string | undefined {
  if (position === 0) for (const [key, text] of docs.passed) if (key === method || key.endsWith(`.${method}`)) return text;
  return param ? docs.bound.get(param) : undefined;
}

/**
 * Arguments for a call from its parameters' types: basic types sampled, type parameters (instantiated as string)
 * given text; variadic parameters left out. Undefined when a parameter has no plain sample.
 */
function sampleArgs(params: Param[], stringTypes: Set<string>, text: (param: string, position: number) => string | undefined, own: ReadonlyMap<string, string[]> = new Map()): string[] | undefined {
  const args: string[] = [];
  const used = new Map<string, number>();
  for (const param of params) {
    if (param.variadic) continue;
    const type = stringTypes.has(param.type) || ANY.test(param.type) ? 'string' : param.type;
    // A value of one of the package's own types, made by an argument-free function (`v.Add(curve.NewIdentityPoint(),
    // curve.NewGeneratorPoint())`): a second parameter of the type gets the next such function, when there is one.
    const makers = SAMPLE[type] ? undefined : own.get(type);
    const nth = used.get(type) ?? 0;
    if (makers) used.set(type, nth + Math.max(1, param.names.length));
    const sample = SAMPLE[type] ?? (makers ? makers[nth % makers.length] : undefined);
    if (!sample) return undefined;
    (param.names.length ? param.names : ['']).forEach((name, i) => {
      const docs = type === 'string' || type === '[]byte' ? text(name, args.length) : undefined;
      const value = makers ? makers[(nth + i) % makers.length]! : sample;
      args.push(docs === undefined ? value : type === 'string' ? JSON.stringify(docs) : `[]byte(${JSON.stringify(docs)})`);
    });
  }
  return args;
}

/**
 * Values of the package's own (non-generic) types that an argument-free exported function returns alone, by the type
 * as a parameter declares it (`*Point` → `edwards.NewGeneratorPoint()`): arguments for methods that take them, so a
 * type whose methods combine values (points, scalars, matrices) is used, not only dumped. In declaration order,
 * `New…` first.
 */
function ownValues(api: GoApi): Map<string, string[]> {
  const values = new Map<string, string[]>();
  const makers = api.functions.filter((fn) => !fn.params.length && !fn.typeParams.length && fn.results.length === 1 && api.types.get(baseType(fn.results[0]!))?.length === 0)
    .sort((a, b) => Number(!/^New/.test(a.name)) - Number(!/^New/.test(b.name)));
  for (const fn of makers) values.set(fn.results[0]!, [...(values.get(fn.results[0]!) ?? []), `${api.pkg}.${fn.name}()`]);
  return values;
}

/** A constructor: an exported function whose first result is one of the package's exported types that has methods. */
function constructors(api: GoApi, docs: DocsValues): Array<{ fn: Func; type: string; rank: number }> {
  const found: Array<{ fn: Func; type: string; rank: number }> = [];
  for (const fn of api.functions) {
    const [first, second, ...more] = fn.results;
    if (!first || more.length || (second !== undefined && second !== 'error')) continue;
    const type = baseType(first);
    if (!api.types.has(type) || !(api.methods.get(type) ?? []).length) continue;
    // Type parameters any/comparable are instantiated as string; other constraints are not guessed.
    if (fn.typeParams.some((t) => !/^(any|comparable|interface\{\})$/.test(t.constraint))) continue;
    if (/^(Must|Register|Default|Set|Init)/.test(fn.name)) continue;
    const rank = (docsCall(docs, fn.name, [api.pkg]) ? 4 : 0) + (/^New/.test(fn.name) ? 1 : 0) - fn.params.filter((p) => !p.variadic).length * 0.5;
    found.push({ fn, type, rank });
  }
  return found.sort((a, b) => b.rank - a.rank);
}

/**
 * The calls to make on a value of `type`: docs-called methods first, then those that take data (so what is written
 * is there to be read), then the rest in declaration order; never a blocking or value-ending one.
 */
function methodCalls(api: GoApi, type: string, docs: DocsValues, own: ReadonlyMap<string, string[]> = new Map()): Array<{ method: Method; args: string[] }> {
  const calls: Array<{ method: Method; args: string[]; order: number }> = [];
  for (const [index, method] of (api.methods.get(type) ?? []).entries()) {
    if (NOT_CALLED.test(method.name) || STANDARD_INTERFACE.test(method.name) || method.typeParams.length) continue;
    if (method.results.some((r) => /^(func|chan|<-chan)\b/.test(r))) continue;
    const args = sampleArgs(method.params, new Set(method.receiverParams), (param, position) => docsMethodText(docs, method.name, param, position), own);
    if (!args) continue;
    // A method that returns nothing shows nothing itself: kept only when it puts data in (not a switch such as
    // `EnableLog(true)`, not a zero-argument call that only changes or blocks the value).
    const data = method.params.some((p) => !p.variadic && p.type !== 'bool');
    if (!method.results.length && !data) continue;
    const docsCalled = docsCall(docs, method.name);
    calls.push({ method, args, order: (docsCalled ? 0 : 2) + (args.length ? 0 : 1) + index / 1000 });
  }
  const kept = calls.sort((a, b) => a.order - b.order).slice(0, MAX_CALLS);
  // Data goes in before it is read back: calls with arguments first, writes (nothing but a count, an error or a
  // handle out) before reads, and of two calls the one taking more data first (`Set(key, value)` before `Get(key)`);
  // then the calls without arguments; otherwise in the order kept.
  const write = (c: { method: Method }) => (c.method.results.every((r) => r === 'error' || r === 'int' || !PLAIN_RESULT.test(r)) ? 0 : 1);
  const data = (c: { method: Method }) => c.method.params.filter((p) => !p.variadic).reduce((n, p) => n + Math.max(1, p.names.length), 0);
  const withArgs = kept.filter((c) => c.args.length).map((c, i) => ({ c, i })).sort((a, b) => write(a.c) - write(b.c) || data(b.c) - data(a.c) || a.i - b.i).map(({ c }) => c);
  return [...withArgs, ...kept.filter((c) => !c.args.length)];
}

/** Zero-argument methods of a package type that return a plain value (an `*Item`'s `Key()`, `Value()`): its face. */
function accessors(api: GoApi, type: string, docs: DocsValues): string[] {
  const held = (m: Method) => m.receiverParams.includes(m.results[0]!);
  // The docs' own reads first (`item.Value()`), then what the value holds (a type parameter: the stored value), text.
  const order = (m: Method) => (docsCall(docs, m.name) ? 0 : 4) + (held(m) ? 0 : 2) + (m.results[0] === 'string' ? 0 : 1);
  return (api.methods.get(baseType(type)) ?? [])
    .filter((m) => !m.params.length && m.results.length === 1 && (PLAIN_RESULT.test(m.results[0]!) || held(m)) && !NOT_CALLED.test(m.name))
    .map((m, i) => ({ m, key: order(m) + i / 1000 })).sort((a, b) => a.key - b.key).slice(0, 2).map(({ m }) => m.name);
}

/** One statement per call, printing what it computes with the method's name in front. */
function callStatements(api: GoApi, value: string, call: { method: Method; args: string[] }, index: number, plainParams: Set<string>, docs: DocsValues): string[] {
  const { method, args } = call;
  const expr = `${value}.${method.name}(${args.join(', ')})`;
  const results = method.results;
  const plain = (r: string) => PLAIN_RESULT.test(r) || plainParams.has(r);
  if (!results.length) return [expr];
  if (results.length === 1 && results[0] === 'error') return [`if err := ${expr}; err != nil {\n\tfmt.Println("${method.name}:", err)\n}`];
  const label = `"${method.name}(${args.join(', ').replace(/["\\]/g, '').slice(0, 40)}):"`;
  if (results.length === 1 && plain(results[0]!)) return [`fmt.Println(${label}, ${expr})`];
  const fields = accessors(api, results[0]!, docs);
  if (results.length <= 2 && fields.length && (results.length === 1 || results[1] === 'error')) {
    const name = `r${index + 1}`;
    const bind = results.length === 2 ? `${name}, err := ${expr}\nif err != nil {\n\tpanic(err)\n}` : `${name} := ${expr}`;
    const shown = `fmt.Println(${label}, ${fields.map((f) => `${name}.${f}()`).join(', ')})`;
    return [bind, results[0]!.startsWith('*') ? `if ${name} != nil {\n\t${shown}\n}` : shown];
  }
  // Both results, spaced as Println spaces them (Sprint leaves none beside a string: `exampletrue`).
  if (results.length === 2 && plain(results[0]!) && (results[1] === 'error' || results[1] === 'bool')) return [`fmt.Println(${label}, strings.TrimSpace(fmt.Sprintln(${expr})))`];
  // A result with no plain face (a handle, a struct): the call is still made, for what it puts in; Go lets a call
  // statement drop its results.
  return [expr];
}

/**
 * Programs that build the package's main type with its constructor and then use it: for Go modules whose examples do
 * not run (or are not there). Marked `api`: tried after every real example, as the other written programs are.
 */
export async function goMethodPrograms(artifact: ExampleFiles, docs: DocsValues = NO_DOCS_VALUES): Promise<Candidate[]> {
  const rootFiles = artifact.files.filter((f) => /^[^/]+\.go$/.test(f.path) && !f.path.endsWith('_test.go')).map((f) => ({ path: f.path, text: textOf(f) }));
  const api = await readGoApi(rootFiles);
  if (!api) return [];
  const programs: Candidate[] = [];
  const own = ownValues(api);
  for (const { fn, type } of constructors(api, docs)) {
    if (programs.length >= MAX_PROGRAMS) break;
    const stringTypes = new Set(fn.typeParams.map((t) => t.name));
    const args = sampleArgs(fn.params, stringTypes, (param, position) => docsMethodText(docs, fn.name, param, position));
    if (!args) continue;
    const calls = methodCalls(api, type, docs, own);
    const receiverParams = new Set(calls.flatMap((c) => c.method.receiverParams));
    const statements = calls.flatMap((call, i) => callStatements(api, 'v', call, i, receiverParams, docs));
    // Calls after the last print only change the value: nothing a reader sees.
    while (statements.length && !statements[statements.length - 1]!.includes('fmt.Println')) statements.pop();
    // Something computed must be printed: a program of effects only shows nothing.
    if (!statements.some((s) => s.includes('fmt.Println'))) continue;
    const instantiate = fn.typeParams.length ? `[${fn.typeParams.map(() => 'string').join(', ')}]` : '';
    const construct = `${api.pkg}.${fn.name}${instantiate}(${args.join(', ')})`;
    const head = fn.results.length === 2 ? [`v, err := ${construct}`, 'if err != nil {\n\tpanic(err)\n}'] : [`v := ${construct}`];
    programs.push({ code: [...head, ...statements].join('\n'), language: 'go', origin: 'api', path: fn.path, source: artifact.fileUrl(fn.path, fn.line) });
  }
  return programs;
}

// For PyPI packages whose docs show no example that runs here: programs written from the package's public API, as a
// careful engineer would try it. The public module (the import package, or the one package inside a namespace package
// such as `google` → `google.protobuf`) and its public submodules are parsed (tree-sitter, nothing is imported); public
// functions and classes (`__all__`, else names without an underscore) whose required parameters take plain values
// (from their annotations, else from what their names say: `data` a dict, `text` a string, `count` a number) are called
// with such values and what they return is printed. Marked `api`, tried after the real examples.
// A compiled module (a Rust or C extension: fastuuid, httptools' parser) has no Python source; its stub (`.pyi`, which
// the wheel ships for type checkers) declares the same API with `...` bodies, and is read in its place.
import { textOf } from '../docs/archive.ts';
import type { ExampleFiles } from './artifact.ts';
import { descendants, namedChildren, parseCode, type SyntaxNode } from './parse.ts';
import { docsCall, docsText, NO_DOCS_VALUES, type DocsValues } from './docs-values.ts';
import type { Candidate } from './types.ts';
import { withDistinctTexts } from './programs/text-shapes.ts';
import { parameterDocTypes } from './programs/python-docstrings.ts';

const MAX_API_CANDIDATES = 4;
const MAX_MODULE_CHARS = 200_000;

/** Plain values by annotation (the first alternative of a union that has one; `Optional[X]` is X). */
const BY_TYPE: Record<string, string> = {
  str: '"example"', Text: '"example"', AnyStr: '"example"', int: '2', float: '2', bool: 'True', bytes: 'b"example"',
  'list[str]': '["example", "sample"]', 'List[str]': '["example", "sample"]', 'Sequence[str]': '["example", "sample"]', 'Iterable[str]': '["example", "sample"]',
  'list[int]': '[1, 2, 3]', 'List[int]': '[1, 2, 3]', 'Sequence[int]': '[1, 2, 3]', 'Iterable[int]': '[1, 2, 3]',
  dict: '{"name": "example", "count": 2}', 'dict[str, Any]': '{"name": "example", "count": 2}', 'Dict[str, Any]': '{"name": "example", "count": 2}', 'Mapping[str, Any]': '{"name": "example", "count": 2}',
};

/** Plain values by what an unannotated parameter's name says it is; names of files, hosts and callables get none. */
const BY_NAME: Array<[RegExp, string]> = [
  [/^(s|string|text|txt|name|source|src|stream|content|message|msg|line|word|label|title|value|input|doc|expr|expression|query|prefix|suffix|char)$/, '"example"'],
  [/^(n|num|number|count|size|length|width|height|seconds|secs|millis|micros|nanos|index|idx|i|x|y|amount|digits|num_\w+|\w+_count|\w+_size)$/, '2'],
  [/^(data|obj|mapping|payload|record)$/, '{"name": "example", "count": 2}'],
  [/^(items|values|documents|seq|sequence|iterable|lines|words|names)$/, '["example", "sample"]'],
];

/** Names that change state, reach out or run something rather than compute a value. */
const SIDE_EFFECT = /^(set|reset|register|unregister|install|uninstall|enable|disable|remove|delete|write|save|main|run|serve|start|stop|close|shutdown|exit|kill|patch|monkey|configure|setup|teardown|warn|add|clear|cleanup|open|connect|listen|print|log|debug|emit|send|upload|download|fetch|request|get_client|client|mount|chdir|sleep|wait|spawn|fork|exec|system|call|invoke|deprecated)(_|$)|^(test|mock)/;
/** Classes that are not made to be constructed plainly. */
const NOT_PLAIN_BASE = /\b(Exception|Error|Warning|ABC|ABCMeta|Protocol|Enum|IntEnum|StrEnum|Flag|IntFlag|type|TypedDict|NamedTuple|Generic|Thread|Process)\b/;
/** Module names that are not public API (internals, vendored copies, compatibility shims, entry points). */
const PRIVATE_MODULE = /^(_.*|internal|compat|vendor|vendored|tests?|testing|conftest|setup|cli|__main__|version|about|.*_pb2(_grpc)?|.*_test)$/;
/** Decorators that keep a function a plain function. */
const PLAIN_DECORATOR = /^@(functools\.)?(lru_cache|cache|wraps\b.*)(\(.*\))?$/;

interface Module { dotted: string; dir: string; file: string; root: SyntaxNode; all?: Set<string>; private?: boolean; stub?: boolean; nested?: boolean }
interface Found { code: string; rank: number; path: string; line: number; order: number; module: string }

const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();

/** A plain value for a parameter, from its annotation, else its name; undefined when a reader would need more. */
/** Parameters whose value a reader would have to supply for real (a URL, host, path or callable). */
const NOT_PLAIN_NAME = /(^|_)(url|uri|host|hostname|address|addr|endpoint|path|file|filename|dir|directory|fd|fp|fileobj|socket|sock|callback|func|fn|handler|client|session|conn|connection)s?$/i;

/** Functions that take a URL apart or check it (`parse_url`, `urlsplit`, `validate_uri`): a URL is their plain input. */
const READS_URL = /^(parse|split|normalize|normalise|validate|is_?valid|unquote|quote|clean)|(parse|split)$/i;

export function sampleValue(name: string, annotation?: string, fn = ''): string | undefined {
  // A function that parses a URL is given one, text or bytes as its annotation says (no request is made).
  if (/^(url|uri)$/i.test(name) && READS_URL.test(fn.split('.').pop() ?? '')) {
    return /^(bytes|bytearray)\b/.test(annotation ?? '') ? 'b"https://user@example.com:8080/docs/page?q=1#top"' : '"https://user@example.com:8080/docs/page?q=1#top"';
  }
  // Whatever its type says, a URL, host, path or callable is not a plain value: a reader would give a real one.
  if (NOT_PLAIN_NAME.test(name)) return undefined;
  // A status code a reader would try is a real one.
  if (/^(status|status_code|code)$/.test(name) && (!annotation || /^int\b/.test(annotation))) return '200';
  if (annotation) {
    let type = annotation.replace(/^['"]|['"]$/g, '').replace(/\btyping\./g, '').trim();
    const optional = /^(?:Optional|Union)\[(.*)\]$/.exec(type);
    if (optional) type = optional[1]!.replace(/,/g, '|');
    for (const alternative of type.split('|').map((t) => t.trim()).filter((t) => t !== 'None')) {
      if (BY_TYPE[alternative]) return BY_TYPE[alternative];
    }
    return undefined;
  }
  return BY_NAME.find(([pattern]) => pattern.test(name))?.[1];
}

/** The call's arguments for a parameter list (`self`/`cls` skipped), or undefined when one cannot be given plainly. */
export function sampleArguments(parameters: SyntaxNode, method = false, fn = '', docs: DocsValues = NO_DOCS_VALUES): string[] | undefined {
  const args: string[] = [];
  let keywordOnly = false;
  let first = true;
  const documented = parameterDocTypes(parameters.parent);
  for (const param of namedChildren(parameters)) {
    if (param.type === 'comment') continue;
    const isFirst = first;
    first = false;
    if (param.type === 'keyword_separator' || param.type === 'list_splat_pattern') { keywordOnly = true; continue; }
    if (param.type === 'positional_separator' || param.type === 'dictionary_splat_pattern' || param.type === 'default_parameter' || param.type === 'typed_default_parameter') continue;
    if (param.type === 'typed_parameter' && /^\*/.test(param.text)) { keywordOnly = !/^\*\*/.test(param.text) || keywordOnly; continue; }
    const name = param.type === 'identifier' ? param.text : namedChildren(param).find((c) => c.type === 'identifier')?.text ?? '';
    if (method && isFirst && /^(self|cls)$/.test(name)) continue;
    const annotation = param.type === 'typed_parameter' ? param.childForFieldName('type')?.text : undefined;
    // Unannotated, the type the docstring declares is read like an annotation; the name's rule is kept where it
    // gives no plain value.
    const docType = annotation ? undefined : documented.get(name);
    let value = (docType ? sampleValue(name, docType, fn) : undefined) ?? sampleValue(name, annotation, fn);
    // Text the docs give this function or bind to this parameter's name (`slugify(txt)` after `txt = "This is a
    // test ---"`), where the parameter takes text: a string sample, or an unannotated name no rule reads (`datestring`).
    const takesText = value === BY_TYPE.str || (value === undefined && !NOT_PLAIN_NAME.test(name) && (!annotation || /^(str|Text|AnyStr)\b/.test(annotation)));
    const text = takesText && !keywordOnly ? docsText(docs, fn, name, args.length) : undefined;
    if (text !== undefined) value = JSON.stringify(text);
    if (value === undefined) return undefined;
    args.push(keywordOnly ? `${name}=${value}` : value);
  }
  // Two text arguments that are the same text (`compare("example", "example")`) show nothing: each differs.
  const text = /^(\w+=)?(".*")$/;
  return withDistinctTexts(args, (a) => {
    const m = text.exec(a);
    return m ? { text: JSON.parse(m[2]!) as string, write: (t) => `${m[1] ?? ''}${JSON.stringify(t)}` } : undefined;
  });
}

const bodyStatements = (node: SyntaxNode) => namedChildren(node.childForFieldName('body') ?? node).filter((n) => n.type !== 'comment');

/** A function that only documents itself, passes or raises: nothing to show. */
function isStub(fn: SyntaxNode): boolean {
  const body = bodyStatements(fn).filter((s, i) => !(i === 0 && s.type === 'expression_statement' && s.namedChildren[0]?.type === 'string'));
  return body.every((s) => s.type === 'pass_statement' || s.type === 'raise_statement' || (s.type === 'expression_statement' && s.text === '...'));
}

function functionCall(fn: SyntaxNode, qualified: string, docs: DocsValues, stub = false): { call: string; plain: boolean; args: number } | undefined {
  const params = fn.childForFieldName('parameters');
  const returns = fn.childForFieldName('return_type')?.text ?? '';
  // In a stub every body is `...`: what it returns is declared by its annotation, and one without says nothing.
  if (!params || /^(None|NoReturn|Never)$/.test(returns) || (stub ? !returns : isStub(fn))) return undefined;
  // A decorator or a factory of functions: what it returns prints as an address.
  if (/^(typing\.)?Callable\b/.test(returns) || descendants(fn.childForFieldName('body') ?? fn, 'function_definition').length) return undefined;
  const args = sampleArguments(params, false, qualified, docs);
  // Only `*args, **kwargs`: a pass-through whose real signature is elsewhere (`boto3.resource(*args, **kwargs)`).
  if (!args || (!args.length && namedChildren(params).some((p) => /^(list_splat_pattern|dictionary_splat_pattern)$/.test(p.type) || /^\*/.test(p.text)))) return undefined;
  let call = `${qualified}(${args.join(', ')})`;
  // A generator's values are what it gives (one given nothing may never end: `count()`); an async function's result
  // is what awaiting it gives (an async generator is left out).
  const generator = descendants(fn.childForFieldName('body') ?? fn, ['yield']).some((y) => nearestFunction(y)?.equals(fn));
  const isAsync = /^async\s/.test(fn.text);
  if (generator && (isAsync || !args.length)) return undefined;
  if (generator) call = `list(${call})`;
  if (isAsync) call = `asyncio.run(${call})`;
  return { call, plain: args.every((a) => !/^b?"/.test(a)), args: args.length };
}

function nearestFunction(node: SyntaxNode): SyntaxNode | null {
  for (let p = node.parent; p; p = p.parent) if (p.type === 'function_definition' || p.type === 'lambda') return p;
  return null;
}

const MAX_METHOD_CALLS = 4;

/**
 * Calls of a class's own public methods on an instance, what each returns printed with its name: the operation the
 * class is for (`add` then `get`, `encode` then `decode`), not the instance dumped. Methods that change state only or
 * reach out (SIDE_EFFECT), properties, async methods, generators and stubs are left out; methods that take data come
 * first, the one taking more first (`set(key, value)` before `get(key)`), so what is put in is there to be read back;
 * the docs' own calls come before others of their kind. Each call must be made with plain values.
 */
function methodCalls(cls: SyntaxNode, variable: string, docs: DocsValues, stub = false): string[] {
  const calls: Array<{ line: string; args: number; docs: boolean; index: number }> = [];
  const defs = namedChildren(cls.childForFieldName('body') ?? cls).map((n) => (n.type === 'decorated_definition' ? { def: n.childForFieldName('definition'), decorated: n.text } : { def: n, decorated: '' }));
  for (const [index, { def, decorated }] of defs.entries()) {
    if (def?.type !== 'function_definition') continue;
    const name = def.childForFieldName('name')?.text ?? '';
    if (!/^[a-z]\w*$/.test(name) || SIDE_EFFECT.test(name) || /^async\s/.test(def.text) || (!stub && isStub(def))) continue;
    if (decorated && !/^@(functools\.)?(lru_cache|cache)\b/.test(decorated.trimStart())) continue;
    const returns = def.childForFieldName('return_type')?.text ?? '';
    if (/^(None|NoReturn|Never)$/.test(returns) || descendants(def.childForFieldName('body') ?? def, ['yield']).some((y) => nearestFunction(y)?.equals(def))) continue;
    // A method that returns nothing on any path shows nothing (a stub's says so by declaring a return type).
    if (stub ? !returns : !descendants(def.childForFieldName('body') ?? def, 'return_statement').some((r) => r.namedChildCount > 0 && nearestFunction(r)?.equals(def))) continue;
    // The docs call a method on a value of their own (`s.put("colour", …)`): its text goes to this method.
    const docsKey = [...docs.passed.keys()].find((k) => k.endsWith(`.${name}`)) ?? name;
    const args = sampleArguments(def.childForFieldName('parameters')!, true, docsKey, docs);
    if (!args) continue;
    calls.push({ line: `print(${JSON.stringify(`${name}(${args.join(', ')}):`.replace(/"/g, "'"))}, ${variable}.${name}(${args.join(', ')}))`, args: args.length, docs: docsCall(docs, name), index });
  }
  return calls.sort((a, b) => Number(b.args > 0) - Number(a.args > 0) || Number(b.docs) - Number(a.docs) || b.args - a.args || a.index - b.index)
    .slice(0, MAX_METHOD_CALLS).map((c) => c.line);
}

/**
 * The public data a class declares (`schema: bytes` in its body, `@property def host`): what a stub says an instance
 * holds. Empty when the class prints itself (`__repr__`/`__str__`).
 */
export function publicFields(cls: SyntaxNode): string[] {
  const body = namedChildren(cls.childForFieldName('body') ?? cls);
  const defined = (name: string) => body.some((n) => (n.type === 'decorated_definition' ? n.childForFieldName('definition') : n)?.childForFieldName('name')?.text === name);
  if (defined('__repr__') || defined('__str__')) return [];
  const fields: string[] = [];
  for (const node of body) {
    const assignment = node.type === 'expression_statement' ? node.namedChildren[0] : undefined;
    if (assignment?.type === 'assignment' && assignment.childForFieldName('type') && assignment.childForFieldName('left')?.type === 'identifier') fields.push(assignment.childForFieldName('left')!.text);
    if (node.type === 'decorated_definition' && /^@property\b/.test(node.text)) fields.push(node.childForFieldName('definition')?.childForFieldName('name')?.text ?? '');
  }
  return [...new Set(fields)].filter((f) => /^[a-z]\w*$/i.test(f) && !f.startsWith('_'));
}

/** A dict of an object's fields read by name: `{"host": url.host, …}` (its default repr is only an address). */
const fieldsOf = (variable: string, fields: string[]) => `{${fields.map((f) => `${JSON.stringify(f)}: ${variable}.${f}`).join(', ')}}`;

/** Fields a printed result is shown by: one a stub declares without a repr; a long list is the object dumped, not shown. */
const MAX_SHOWN_FIELDS = 8;

/** A class a reader would construct plainly and look at: its arguments and how to show the instance. */
function classUse(cls: SyntaxNode, qualified: string, docs: DocsValues = NO_DOCS_VALUES, stub = false): { code: string; args: number; shows: boolean; calls?: string } | undefined {
  const name = cls.childForFieldName('name')?.text ?? '';
  const bases = cls.childForFieldName('superclasses')?.text ?? '';
  if (/(Error|Exception|Warning|Mixin|Base|Meta|Protocol|Interface|ABC)$/.test(name) || NOT_PLAIN_BASE.test(bases)) return undefined;
  const methods = new Map(descendants(cls, 'function_definition').filter((f) => f.parent?.parent?.equals(cls) || f.parent?.parent?.parent?.equals(cls))
    .map((f) => [f.childForFieldName('name')?.text ?? '', f]));
  if ([...methods.values()].some((m) => /@(abc\.)?abstractmethod/.test(m.parent?.type === 'decorated_definition' ? m.parent.text : ''))) return undefined;
  const init = methods.get('__init__');
  const realBases = bases.replace(/^\(|\)$/g, '').split(',').map((b) => b.trim()).filter((b) => b && b !== 'object' && !b.includes('='));
  if (!init && realBases.length) return undefined; // an inherited constructor: its parameters are not known here
  const args = init ? sampleArguments(init.childForFieldName('parameters')!, true) : [];
  if (!args) return undefined;
  const shows = methods.has('__repr__') || methods.has('__str__') || /@(dataclasses\.)?dataclass|@(attr\.)?(s|attrs|define|frozen)\b/.test(cls.parent?.type === 'decorated_definition' ? cls.parent.text : '');
  // Without a repr of its own an instance prints as an address; its public attributes are what it holds.
  const fields = stub ? publicFields(cls) : [];
  const holds = fields.length > 0 || init && descendants(init, 'attribute').some((a) => a.childForFieldName('object')?.text === 'self' && /^[a-z]/i.test(a.childForFieldName('attribute')?.text ?? '') && a.parent?.type === 'assignment' && a.parent.childForFieldName('left')?.equals(a));
  if (!shows && !holds) return undefined;
  // A compiled class declaring a long list of fields (fastuuid's `UUID`: sixteen) shown field by field is a dump.
  if (!shows && fields.length > MAX_SHOWN_FIELDS) return undefined;
  const plainName = snake(name).replace(/^_+/, '') || 'value';
  const variable = `${qualified.split('.')[0]}.` === `${plainName}.` ? `${plainName}_value` : plainName;
  // A compiled object has no `__dict__` for `vars` to read: its declared fields are read by name.
  const show = shows ? `print(${variable})` : stub ? `print(${fieldsOf(variable, fields)})` : `print({k: v for k, v in vars(${variable}).items() if not k.startswith("_")})`;
  const calls = methodCalls(cls, variable, docs, stub);
  return { code: `${variable} = ${qualified}(${args.join(', ')})\n${show}`, args: args.length, shows, ...(calls.length ? { calls: `${variable} = ${qualified}(${args.join(', ')})\n${calls.join('\n')}` } : {}) };
}

/** The package's public modules, the package first: a namespace package (only `__path__`) gives its one subpackage. */
async function publicModules(artifact: ExampleFiles): Promise<Module[]> {
  const py = moduleSources(artifact);
  const at = (path: string) => py.find((f) => f.path === path);
  const parse = (f: ModuleSource) => parseCode('python', textOf(f.file));
  const initOf = (dotted: string) => py.filter((f) => f.path === `${dotted.replace(/\./g, '/')}/__init__.py` || f.path.endsWith(`/${dotted.replace(/\./g, '/')}/__init__.py`)).sort((a, b) => a.path.length - b.path.length)[0];
  // A package inside a namespace folder is imported by its dotted name (`opentelemetry.util.http`, `poetry.core`): the
  // folder above it has no `__init__.py` to start from.
  const root = initOf(artifact.importName) ? artifact.importName : artifact.importName.split('.')[0]!;
  const init = initOf(root);
  const single = py.filter((f) => f.path === `${root}.py` || f.path.endsWith(`/${root}.py`)).sort((a, b) => a.path.length - b.path.length)[0];
  if (!init && !single) return [];
  if (!init) return [{ dotted: root, dir: '', file: single!.file.path, root: await parse(single!), stub: single!.stub }];
  let dir = init.path.slice(0, -'/__init__.py'.length);
  let dotted = root;
  let top = init;
  let tree = await parse(init);
  for (let depth = 0; depth < 3 && !bindsPublicNames(tree); depth++) {
    // A namespace package holds packages only; one with modules of its own (aiobotocore) is the API itself.
    if (py.some((f) => new RegExp(`^${escape(dir)}/[A-Za-z]\\w*\\.py$`).test(f.path) && !f.path.endsWith('/__init__.py'))) break;
    const subpackages = [...new Set(py.map((f) => new RegExp(`^${escape(dir)}/([A-Za-z]\\w*)/__init__\\.py$`).exec(f.path)?.[1]).filter((d): d is string => Boolean(d)))];
    if (subpackages.length !== 1) break;
    dir = `${dir}/${subpackages[0]}`;
    dotted = `${dotted}.${subpackages[0]}`;
    top = at(`${dir}/__init__.py`)!;
    tree = await parse(top);
  }
  const modules: Module[] = [{ dotted, dir, file: top.file.path, root: tree, all: allOf(tree), stub: top.stub }];
  // Private modules too: the package re-exports from them (h11's `from ._events import Request`), but they are not
  // called by their own path.
  for (const file of py) {
    const name = new RegExp(`^${escape(dir)}/(\\w+)\\.py$`).exec(file.path)?.[1];
    if (!name || name === '__init__' || /^(conftest|setup|__main__)$/.test(name) || /(^|_)tests?$|^test_/.test(name)) continue;
    const parsed = await parse(file);
    modules.push({ dotted: `${dotted}.${name}`, dir, file: file.file.path, root: parsed, all: allOf(parsed), private: PRIVATE_MODULE.test(name), stub: file.stub });
  }
  // Modules of subpackages (`httptools/parser/url_parser.pyi`), reached only through re-exports (`from .parser import
  // parse_url`, which `parser/__init__.py` takes from `.url_parser`): not called by their own path.
  for (const file of py) {
    const rel = new RegExp(`^${escape(dir)}/((?:[A-Za-z]\\w*/){1,2})(\\w+)\\.py$`).exec(file.path);
    if (!rel || /(^|\/)(tests?|testing|vendor|_vendor)\//.test(rel[1]!)) continue;
    const sub = `${dotted}.${rel[1]!.replace(/\/$/, '').replace(/\//g, '.')}`;
    const parsed = await parse(file);
    modules.push({ dotted: rel[2] === '__init__' ? sub : `${sub}.${rel[2]}`, dir, file: file.file.path, root: parsed, all: allOf(parsed), private: true, nested: true, stub: file.stub });
  }
  return modules;
}

/** A module's file: its source (`.py`), else its stub (`.pyi`) under the source's path. */
interface ModuleSource { path: string; file: ExampleFiles['files'][number]; stub: boolean }

/**
 * Each module once: its `.py`, or its `.pyi` where there is no `.py` (a compiled module) or where the `.py` defines
 * nothing itself (`from .fastuuid import *` of a compiled module: the stub beside it declares what that gives).
 */
function moduleSources(artifact: ExampleFiles): ModuleSource[] {
  const files = artifact.files.filter((f) => /\.pyi?$/.test(f.path) && f.bytes.length <= MAX_MODULE_CHARS);
  const stubs = new Map(files.filter((f) => f.path.endsWith('.pyi')).map((f) => [f.path.slice(0, -1), f]));
  const sources = new Set(files.filter((f) => f.path.endsWith('.py')).map((f) => f.path));
  const out: ModuleSource[] = [];
  for (const f of files) {
    if (f.path.endsWith('.pyi')) {
      if (!sources.has(f.path.slice(0, -1))) out.push({ path: f.path.slice(0, -1), file: f, stub: true });
      continue;
    }
    const stub = stubs.get(f.path);
    const definesNothing = stub && !/^(async\s+)?(def|class)\s/m.test(textOf(f));
    out.push(definesNothing ? { path: f.path, file: stub, stub: true } : { path: f.path, file: f, stub: false });
  }
  return out;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether a module binds anything a reader would use (not only `__path__`, `__version__` and such). */
function bindsPublicNames(tree: SyntaxNode): boolean {
  return namedChildren(tree).some((st) => {
    if (/^(function_definition|class_definition|decorated_definition)$/.test(st.type)) return true;
    // Re-exports of its own modules count; `from pkgutil import extend_path` (a namespace package's) does not.
    if (st.type === 'import_from_statement') return /^\./.test(st.childForFieldName('module_name')?.text ?? '');
    const left = st.type === 'expression_statement' && st.namedChildren[0]?.type === 'assignment' ? st.namedChildren[0].childForFieldName('left')?.text : undefined;
    return Boolean(left && !/^__\w+__$/.test(left));
  });
}

function allOf(tree: SyntaxNode): Set<string> | undefined {
  for (const st of namedChildren(tree)) {
    const assignment = st.type === 'expression_statement' ? st.namedChildren[0] : undefined;
    if (assignment?.type === 'assignment' && assignment.childForFieldName('left')?.text === '__all__') {
      return new Set(descendants(assignment, 'string_content').map((s) => s.text));
    }
  }
  return undefined;
}

/** The class a module defines under this name (a return annotation's), if any. */
function classNamed(tree: SyntaxNode, name: string): SyntaxNode | undefined {
  return /^\w+$/.test(name) ? definitions(tree).find((d) => d.type === 'class_definition' && d.childForFieldName('name')?.text === name) : undefined;
}

/** Top-level definitions of a module, decorated ones only when the decorator keeps them plain. */
function definitions(tree: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const st of namedChildren(tree)) {
    if (st.type === 'function_definition' || st.type === 'class_definition') out.push(st);
    else if (st.type === 'decorated_definition') {
      const def = st.childForFieldName('definition');
      const decorators = namedChildren(st).filter((c) => c.type === 'decorator').map((d) => d.text.trim());
      if (def && (def.type === 'class_definition' ? decorators.every((d) => /^@(dataclasses\.)?dataclass|^@(attr\.)?(s|attrs|define|frozen)\b/.test(d)) : decorators.every((d) => PLAIN_DECORATOR.test(d)))) out.push(def);
    }
  }
  return out;
}

/**
 * The module's statements that run when it is imported: its top level, and the blocks of its top-level `try` and `if`
 * (a compiled module tried first, a pure-Python one on ImportError; one per Python version).
 */
function importTimeStatements(root: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const st of namedChildren(root)) {
    out.push(st);
    if (st.type !== 'try_statement' && st.type !== 'if_statement') continue;
    for (const block of descendants(st, 'block')) {
      // Only the try's and if's own blocks, not those of functions or classes defined in them.
      let owner = block.parent;
      while (owner && !owner.equals(st) && !/^(function_definition|class_definition)$/.test(owner.type)) owner = owner.parent;
      if (owner?.equals(st)) out.push(...namedChildren(block));
    }
  }
  return out;
}

const definesName = (module: Module, name: string) => definitions(module.root).some((d) => d.childForFieldName('name')?.text === name);

/** Where the package's `__init__` takes a name from (`from .loader import load` → the loader module's file). */
function reexports(init: Module, modules: Module[], depth = 0): Map<string, Module> {
  const out = new Map<string, Module>();
  // A package's `.x` is its own module x; a plain module's is its sibling.
  const base = /__init__\.pyi?$/.test(init.file) ? init.dotted : init.dotted.slice(0, Math.max(0, init.dotted.lastIndexOf('.')));
  const resolve = (from: string) => (/^\.\w/.test(from) ? `${base}.${from.slice(1)}` : from === '.' ? base : from);
  // Modules imported under a name (`from google_crc32c import cext as impl`, in a try and in its except): where a
  // later `value = impl.value` takes the name from.
  const aliases = new Map<string, Module[]>();
  const statements = importTimeStatements(init.root);
  for (const st of statements) {
    if (st.type !== 'import_from_statement') continue;
    const from = resolve(st.childForFieldName('module_name')?.text ?? '');
    const module = modules.find((m) => m.dotted === from);
    for (const child of st.childrenForFieldName('name')) {
      if (child?.type === 'aliased_import') {
        const sub = modules.find((m) => m.dotted === `${from}.${child.childForFieldName('name')?.text ?? ''}`);
        const alias = child.childForFieldName('alias')?.text ?? '';
        if (sub && alias) aliases.set(alias, [...(aliases.get(alias) ?? []), sub]);
      }
      if (!module || child?.type !== 'dotted_name' || !/^\w+$/.test(child.text)) continue;
      // A module that takes the name from another in turn (`httptools.parser` from `.url_parser`): where it is
      // defined. The first import that reaches a definition stays (the fallback of a try reaches the same name).
      const defines = definesName(module, child.text);
      const found = (!defines && depth < 2 ? reexports(module, modules, depth + 1).get(child.text) : undefined) ?? module;
      const had = out.get(child.text);
      if (!had || (!definesName(had, child.text) && definesName(found, child.text))) out.set(child.text, found);
    }
    if (!module) continue;
    // `from ._models import *`: the names that module makes public (its `__all__`, else those without an underscore).
    if (namedChildren(st).some((c) => c.type === 'wildcard_import')) {
      for (const def of definitions(module.root)) {
        const name = def.childForFieldName('name')?.text ?? '';
        if (name && (module.all ? module.all.has(name) : !name.startsWith('_')) && !out.has(name)) out.set(name, module);
      }
    }
  }
  for (const st of statements) {
    const assignment = st.type === 'expression_statement' ? st.namedChildren[0] : undefined;
    const left = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : undefined;
    const right = assignment?.childForFieldName('right');
    if (left?.type !== 'identifier' || right?.type !== 'attribute' || out.has(left.text)) continue;
    const alias = right.childForFieldName('object')?.text ?? '';
    if (right.childForFieldName('attribute')?.text !== left.text) continue;
    const module = aliases.get(alias)?.find((m) => definesName(m, left.text));
    if (module) out.set(left.text, module);
  }
  return out;
}

/** The candidates: plain calls of the public API, best first, at most two per module, four in all. */
export async function pythonApiCandidates(artifact: ExampleFiles, docs: DocsValues = NO_DOCS_VALUES): Promise<Candidate[]> {
  const modules = await publicModules(artifact);
  if (!modules.length) return [];
  const [init, ...rest] = modules;
  const fromInit = reexports(init!, rest);
  const found: Found[] = [];
  const seen = new Set<SyntaxNode['id']>();
  let order = 0;
  const consider = (module: Module, def: SyntaxNode, access: { imports: string; prefix: string }, topLevel: boolean) => {
    const name = def.childForFieldName('name')?.text ?? '';
    if (!name || name.startsWith('_') || seen.has(def.id) || (def.type === 'function_definition' && SIDE_EFFECT.test(name))) return;
    seen.add(def.id);
    const qualified = `${access.prefix}${name}`;
    let code: string;
    let rank = topLevel ? 1 : 0;
    if (def.type === 'class_definition') {
      const use = classUse(def, qualified, docs, module.stub);
      if (!use) return;
      code = use.code;
      // The instance used (its methods called, results printed) before the instance shown: what it is for.
      if (use.calls) {
        const callRank = rank + 1 + (use.args || !use.shows ? 1 : 0) + (docsCall(docs, name, ['', ...qualified.split('.').slice(0, -1)]) ? 3 : 0);
        found.push({ code: `${access.imports}\n\n${use.calls}`, rank: callRank, path: module.file, line: def.startPosition.row + 1, order: order++, module: module.dotted });
      }
      // Given values, an instance shows what it made of them; given none, its defaults are worth seeing only as
      // the attributes it holds (`TransferConfig()`), not as a bare repr (`URL('')`).
      rank += use.args || !use.shows ? 1 : 0;
    } else {
      const call = functionCall(def, qualified, docs, module.stub);
      if (!call) return;
      code = `print(${call.call})`;
      // A result whose class the stub declares with fields and no repr prints as an address: its fields are shown.
      const returned = module.stub ? classNamed(module.root, def.childForFieldName('return_type')?.text ?? '') : undefined;
      const fields = returned ? publicFields(returned) : [];
      if (fields.length && fields.length <= MAX_SHOWN_FIELDS) {
        const variable = snake(returned!.childForFieldName('name')!.text);
        code = `${variable} = ${call.call}\nprint(${fieldsOf(variable, fields)})`;
      }
      // What the docs' examples call is what they show the package doing.
      if (docsCall(docs, name, ['', ...qualified.split('.').slice(0, -1)])) rank += 3;
      // A value a function computes from plain input; a string it is given may have to follow a format it expects.
      rank += (call.args ? 0 : -1) + (call.plain && call.args ? 1 : 0)
        + (/^(to|from|get|parse|format|dump|dumps|load|loads|encode|decode|render|convert|normalize|make|create|build|compute|calculate|escape|quote|split|join|compile|safe)(_|$)/i.test(name) ? 1 : 0);
    }
    if (/\basyncio\.run\(/.test(code)) code = `import asyncio\n${code}`;
    found.push({ code: `${access.imports}\n\n${code}`, rank, path: module.file, line: def.startPosition.row + 1, order: order++, module: module.dotted });
  };
  const access = (module: Module) => {
    const dot = module.dotted.lastIndexOf('.');
    if (dot < 0) return { imports: `import ${module.dotted}`, prefix: `${module.dotted}.` };
    const last = module.dotted.slice(dot + 1);
    return { imports: `from ${module.dotted.slice(0, dot)} import ${last}`, prefix: `${last}.` };
  };
  const publicIn = (module: Module, name: string) => (module.all ? module.all.has(name) : !name.startsWith('_'));
  // The package's own namespace first: its definitions and what it re-exports from its modules.
  for (const def of definitions(init!.root)) if (publicIn(init!, def.childForFieldName('name')?.text ?? '')) consider(init!, def, access(init!), true);
  for (const [name, module] of fromInit) {
    if (!publicIn(init!, name)) continue;
    const def = definitions(module.root).find((d) => d.childForFieldName('name')?.text === name);
    if (def) consider(module, def, access(init!), true);
  }
  for (const module of rest.filter((m) => !m.private && !m.nested)) {
    for (const def of definitions(module.root)) if (publicIn(module, def.childForFieldName('name')?.text ?? '')) consider(module, def, access(module), false);
  }
  const perModule = new Map<string, number>();
  const picked: Found[] = [];
  for (const f of found.sort((a, b) => b.rank - a.rank || a.order - b.order)) {
    if ((perModule.get(f.module) ?? 0) >= 2) continue;
    perModule.set(f.module, (perModule.get(f.module) ?? 0) + 1);
    picked.push(f);
    if (picked.length >= MAX_API_CANDIDATES) break;
  }
  return picked.map((f) => ({ code: f.code, language: 'python', origin: 'api', path: f.path, source: artifact.fileUrl(f.path, f.line) }));
}

// Python examples as programs: REPL transcripts (>>>) become scripts that print the results they show (and catch the
// exceptions they show), a missing import of the package is added, and a script that prints nothing prints its result.
import { namedFiles } from '../fixtures.ts';
import { keepForExit, withPythonWrittenFiles } from './python-files.ts';
import { showPythonAssertions } from './assertions.ts';
import { descendants, namedChildren, parseCode, type SyntaxNode } from '../parse.ts';

/** Common import names whose PyPI distribution has another name. */
export const PYPI_DISTRIBUTION: Record<string, string> = {
  yaml: 'PyYAML', PIL: 'Pillow', sklearn: 'scikit-learn', bs4: 'beautifulsoup4', cv2: 'opencv-python-headless', dateutil: 'python-dateutil',
  dotenv: 'python-dotenv', jose: 'python-jose', jwt: 'PyJWT', google: 'protobuf', attr: 'attrs', Crypto: 'pycryptodome', OpenSSL: 'pyOpenSSL',
  magic: 'python-magic', docx: 'python-docx', serial: 'pyserial', usb: 'pyusb', gi: 'PyGObject', win32api: 'pywin32', psycopg2: 'psycopg2-binary',
  zmq: 'pyzmq', fitz: 'PyMuPDF', skimage: 'scikit-image', multipart: 'python-multipart', typing_extensions: 'typing-extensions',
};

/** Aliases the scientific Python docs take for granted (doctests of pandas use `np` and `pd` without importing them). */
const CONVENTIONAL_ALIASES: Record<string, string> = {
  np: 'import numpy as np', pd: 'import pandas as pd', plt: 'import matplotlib.pyplot as plt', mpl: 'import matplotlib as mpl',
  sns: 'import seaborn as sns', pl: 'import polars as pl', xr: 'import xarray as xr', nx: 'import networkx as nx', sp: 'import scipy as sp',
};

interface Step { source: string; output: string[] }

/**
 * An IPython session (`In [1]: x = f()`, `   ...:     body`, `Out[1]: 42`, numba's docs) in the doctest form the
 * transcript readers take (`>>> `, `... `, the result on its own line): the same transcript, another console's prompts.
 * Undefined when the block has no `In [n]:` prompt. Without it the `...:` continuations stayed in the code (an
 * IndentationError) and an `In [n]:` line was no statement.
 */
export function ipythonAsDoctest(code: string): string | undefined {
  const lines = code.split('\n');
  if (!lines.some((l) => IPYTHON_INPUT.test(l))) return undefined;
  const out: string[] = [];
  let inStep = false;
  for (const line of lines) {
    const input = IPYTHON_INPUT.exec(line);
    const more = inStep ? /^\s*\.\.\.+:(?: |$)(.*)$/.exec(line) : null;
    const output = /^\s*Out\s*\[\d*\]:(?: |$)(.*)$/.exec(line);
    if (input) out.push(`>>> ${input[1]}`.trimEnd());
    else if (more) out.push(`... ${more[1]}`.trimEnd());
    else if (output) out.push(output[1]!);
    else out.push(line);
    if (input) inStep = true;
    else if (!more && line.trim()) inStep = false;
  }
  return out.join('\n');
}

const IPYTHON_INPUT = /^\s*In\s*\[\d*\]:(?: |$)(.*)$/;

/**
 * Splits a `>>>` transcript into statements (with their `...` continuations) and the output shown after each. A body
 * pasted into IPython-style docs (numba's: `>>> def integrand(t):`, then the body indented with no prompt, then an
 * empty `   ...:`) continues the statement too: a line after a statement that opens a block (or after such a line),
 * indented past the prompt, with no output shown yet, is the block's body (its indentation read from where the code
 * after `>>> ` starts), and `...:`, IPython's continuation prompt, is one. They were taken as output, so the script
 * had a `def` with no body (an IndentationError).
 */
export function readTranscript(code: string): Step[] {
  const steps: Step[] = [];
  let column = 0;
  let inBody = false;
  for (const raw of code.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    const prompt = /^(\s*)>>>( |$)(.*)$/.exec(line);
    const more = /^\s*\.\.\.:?( |$)(.*)$/.exec(line);
    const last = steps[steps.length - 1];
    const open = Boolean(last && !last.output.length && (inBody || /:\s*(#.*)?$/.test(last.source)));
    const lead = /^(\s*)/.exec(line)?.[1]?.length ?? 0;
    if (prompt) {
      steps.push({ source: prompt[3] ?? '', output: [] });
      column = (prompt[1]?.length ?? 0) + 4;
      inBody = false;
    } else if (more && last && !last.output.length) {
      last.source += `\n${more[2] ?? ''}`;
      inBody = false;
    } else if (open && last && line.trim() && lead > column - 4) {
      last.source += `\n${line.slice(Math.min(column, lead))}`;
      inBody = true;
    } else if (last && line.trim()) last.output.push(line.trim());
  }
  return steps;
}

const indent = (text: string, by = '    ') => text.split('\n').map((l) => (l ? by + l : l)).join('\n');

/** The source's one expression statement (not an assignment, a yield or a print), as a value to print. */
export async function isPrintable(source: string): Promise<{ expression: string } | undefined> {
  const root = await parseCode('python', source);
  const statements = namedChildren(root).filter((n) => n.type !== 'comment');
  if (statements.length !== 1 || root.hasError) return undefined;
  const only = statements[0]!;
  if (only.type !== 'expression_statement') return undefined;
  const expression = namedChildren(only)[0];
  if (!expression || expression.type === 'assignment' || expression.type === 'augmented_assignment' || expression.type === 'yield') return undefined;
  if (expression.type === 'call' && /^print$/.test(expression.childForFieldName('function')?.text ?? '')) return undefined;
  return { expression: expression.text };
}

/** A transcript as a script: each shown result printed, each shown exception caught and printed. */
export async function transcriptToScript(code: string): Promise<string> {
  const out: string[] = [];
  for (const step of readTranscript(code)) {
    if (!step.source.trim()) continue;
    const raised = step.output.some((l) => /^Traceback \(most recent call last\)/.test(l)) || step.output.some((l) => /^\w+(Error|Exception)\b:?/.test(l) && step.output.length <= 3 && /Error|Exception/.test(step.output[0] ?? ''));
    const printable = step.output.length ? await isPrintable(step.source) : undefined;
    let line = step.source;
    if (printable) {
      const shownRepr = /^['"]|^b['"]/.test(step.output[0] ?? '');
      line = shownRepr ? `print(repr(${printable.expression}))` : `print(${printable.expression})`;
    }
    if (raised) line = `try:\n${indent(step.source)}\nexcept Exception as error:\n    print(type(error).__name__ + ':', error)`;
    out.push(line);
  }
  return out.join('\n') + '\n';
}

/** Top-level calls of the script's own `async def` functions, run as asyncio would (an unawaited call runs nothing). */
async function runCoroutines(code: string): Promise<string> {
  const root = await parseCode('python', code);
  const statements = namedChildren(root);
  const asyncNames = new Set(statements.flatMap((st) => (st.type === 'decorated_definition' ? namedChildren(st).filter((n) => n.type === 'function_definition') : [st]))
    .filter((st) => st.type === 'function_definition' && /^async\s/.test(st.text)).map((st) => st.childForFieldName('name')?.text ?? ''));
  if (!asyncNames.size) return code;
  let out = code;
  for (const statement of [...statements].reverse()) {
    const call = statement.type === 'expression_statement' ? namedChildren(statement)[0] : undefined;
    const fn = call?.type === 'call' ? call.childForFieldName('function')?.text : undefined;
    if (call && fn && asyncNames.has(fn)) out = `${out.slice(0, call.startIndex)}asyncio.run(${call.text})${out.slice(call.endIndex)}`;
  }
  return out === code || /^\s*import asyncio\b/m.test(out) ? out : `import asyncio\n${out}`;
}

/** Whether the script awaits outside any function (`await`, `async with`, `async for` at the top level, as in a notebook). */
export async function awaitsAtTopLevel(code: string): Promise<boolean> {
  if (!/\bawait\b|\basync\s+(with|for)\b/.test(code)) return false;
  const root = await parseCode('python', code);
  const outside = (node: SyntaxNode) => {
    for (let p = node.parent; p; p = p.parent) if (p.type === 'function_definition' || p.type === 'lambda') return false;
    return true;
  };
  return descendants(root, 'await').some(outside)
    || descendants(root, ['with_statement', 'for_statement']).some((n) => /^async\s/.test(n.text) && outside(n));
}

/**
 * A script that awaits at its top level (valid in a notebook or `python -m asyncio`, a SyntaxError in a script) as the
 * asyncio program a reader would write: its imports stay on top, the rest becomes `async def main()`, run by
 * `asyncio.run(main())`.
 */
export async function wrapInAsyncMain(code: string): Promise<string> {
  const root = await parseCode('python', code);
  const statements = namedChildren(root);
  let split = 0;
  while (split < statements.length && /^(import_statement|import_from_statement|future_import_statement|comment)$/.test(statements[split]!.type)) split++;
  const head = split ? code.slice(0, statements[split - 1]!.endIndex).replace(/\s+$/, '') : '';
  const body = split < statements.length ? code.slice(statements[split]!.startIndex).replace(/\s+$/, '') : 'pass';
  const imports = /^\s*import asyncio\b/m.test(head) ? head : ['import asyncio', head].filter(Boolean).join('\n');
  return `${imports}\n\n\nasync def main():\n${indent(body)}\n\n\nasyncio.run(main())\n`;
}

/** Decorators and calls that define a command-line interface (click, Typer, argparse, Fire, docopt). */
const CLI_DECORATOR = /^@([A-Za-z_]\w*)(?:\.\w+)*\.(command|group)\b/;
const CLI_DEFINITION = /^\s*@[\w.]+\.(command|group|option|argument)\b|\bArgumentParser\(|\bTyper\(|\bfire\.Fire\(|\bdocopt\(/m;

export function definesCli(code: string): boolean {
  return CLI_DEFINITION.test(code);
}

/**
 * A script that defines a command-line interface, run as its reader first runs one: with `--help` (a CLI without
 * arguments prompts, complains or does nothing to show). Its entry point is called when the script only defines it:
 * the command or group that no other command of the script is attached to, else the app object the commands are on.
 */
export async function withCliHelp(code: string): Promise<string> {
  const root = await parseCode('python', code);
  const statements = namedChildren(root);
  const defined = new Set(statements.flatMap((st) => {
    const def = st.type === 'decorated_definition' ? st.childForFieldName('definition') : st;
    const assigned = st.type === 'expression_statement' && st.namedChildren[0]?.type === 'assignment' ? st.namedChildren[0].childForFieldName('left')?.text : undefined;
    const named = def && /^(function_definition|class_definition)$/.test(def.type) ? def.childForFieldName('name')?.text : undefined;
    return [named, assigned].filter((n): n is string => Boolean(n));
  }));
  let entry: string | undefined;
  for (const st of statements) {
    if (st.type !== 'decorated_definition') continue;
    const owners = namedChildren(st).filter((c) => c.type === 'decorator').map((d) => CLI_DECORATOR.exec(d.text.trim())?.[1]).filter((o): o is string => Boolean(o));
    if (!owners.length) continue;
    // `@click.command()` makes a root command; `@cli.command()` attaches to the script's own group `cli`, `@app.command()` to a Typer app.
    const owner = owners[0]!;
    entry = defined.has(owner) ? entry ?? owner : st.childForFieldName('definition')?.childForFieldName('name')?.text;
    if (!defined.has(owner)) break;
  }
  const called = entry !== undefined && descendants(root, 'call').some((c) => c.childForFieldName('function')?.text === entry);
  let split = 0;
  while (split < statements.length && /^(import_statement|import_from_statement|future_import_statement|comment)$/.test(statements[split]!.type)) split++;
  const at = split ? statements[split - 1]!.endIndex : 0;
  const help = 'import sys\n\nsys.argv[1:] = ["--help"]  # a command-line interface shows what it does with --help\n';
  let out = split ? `${code.slice(0, at)}\n${help}${code.slice(at)}` : `${help}\n${code}`;
  if (entry && !called) out = `${out.replace(/\s+$/, '')}\n\n${entry}()\n`;
  return out;
}

const PRINTS = /\bprint\s*\(|\blogging\.|\bpprint\(|\bsys\.stdout\.write\(|\bconsole\.print\(|\brich\.print\(|\becho\(/;

/** Adds a print of the script's result when it prints nothing (its last expression, else its last assignment). */
async function printResult(code: string, inAsyncMain = false, show: (value: string) => string = (value) => `print(${value})`): Promise<string> {
  if (PRINTS.test(code)) return code;
  const root = await parseCode('python', code);
  const statements = namedChildren(root).filter((n) => n.type !== 'comment');
  const last = statements[statements.length - 1];
  if (!last) return code;
  if (last.type === 'expression_statement') {
    const expression = namedChildren(last)[0];
    if (expression?.type === 'assignment') {
      const target = expression.childForFieldName('left');
      if (target && /^[A-Za-z_][\w, ]*$/.test(target.text)) return `${code.replace(/\s+$/, '')}\n${show(target.text)}\n`;
    } else if (expression && (expression.type !== 'await' || inAsyncMain)) {
      return `${code.slice(0, last.startIndex)}${show(expression.text)}${code.slice(last.endIndex)}`;
    }
  }
  // Test cases: run them, reporting on stdout (what the example asserts is then shown to hold).
  const testCases = statements.filter((st) => st.type === 'class_definition' && /TestCase\b/.test(st.childForFieldName('superclasses')?.text ?? ''))
    .map((st) => st.childForFieldName('name')?.text).filter((n): n is string => Boolean(n));
  if (testCases.length) {
    const suite = testCases.map((n) => `unittest.defaultTestLoader.loadTestsFromTestCase(${n})`).join(', ');
    return `${code.replace(/\s+$/, '')}\n\nimport sys\nimport unittest\nunittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(unittest.TestSuite([${suite}]))\n`;
  }
  // Only definitions: call the functions that need no arguments and print what they return.
  const callable = statements.filter((s) => s.type === 'function_definition' && namedChildren(s.childForFieldName('parameters') ?? s).length === 0)
    .map((s) => s.childForFieldName('name')?.text).filter((n): n is string => Boolean(n) && !n!.startsWith('_'));
  if (callable.length && statements.every((s) => /^(function_definition|class_definition|decorated_definition|import_statement|import_from_statement|expression_statement)$/.test(s.type))) {
    return `${code.replace(/\s+$/, '')}\n\n${callable.map((n) => `print(${n}())`).join('\n')}\n`;
  }
  return code;
}

/** Top-level module names the code imports. */
export async function importedModules(code: string): Promise<string[]> {
  const root = await parseCode('python', code);
  const names = new Set<string>();
  for (const node of descendants(root, ['import_statement', 'import_from_statement'])) {
    if (node.type === 'import_from_statement') {
      const module = node.childForFieldName('module_name')?.text ?? '';
      if (module && !module.startsWith('.')) names.add(module.split('.')[0]!);
    } else {
      for (const child of node.childrenForFieldName('name')) {
        const dotted = (child as SyntaxNode | null)?.type === 'aliased_import' ? child!.childForFieldName('name')?.text : child?.text;
        if (dotted) names.add(dotted.split('.')[0]!);
      }
    }
  }
  return [...names];
}

/**
 * Names the package's own examples bind it to (`import pandas as pd`, `from requests import Session`), with the
 * statement: an example (a doctest, usually) that uses such a name without importing it gets that statement.
 */
export async function pythonBindings(codes: string[], importName: string): Promise<Record<string, string>> {
  const root = importName.split('.')[0]!;
  const bindings: Record<string, string> = {};
  for (const code of codes) {
    if (!code.includes(root)) continue;
    const tree = await parseCode('python', code.replace(/^\s*(>>>|\.\.\.) ?/gm, ''));
    for (const statement of descendants(tree, ['import_statement', 'import_from_statement'])) {
      const module = statement.type === 'import_from_statement' ? statement.childForFieldName('module_name')?.text ?? '' : '';
      if (statement.type === 'import_from_statement' && module.split('.')[0] !== root) continue;
      for (const child of statement.childrenForFieldName('name')) {
        if (!child) continue;
        const alias = child.type === 'aliased_import' ? child.childForFieldName('alias')?.text : undefined;
        const dotted = child.type === 'aliased_import' ? child.childForFieldName('name')?.text ?? '' : child.text;
        if (statement.type === 'import_statement' && dotted.split('.')[0] !== root) continue;
        const bound = alias ?? (statement.type === 'import_statement' ? dotted.split('.')[0]! : dotted);
        if (bound && !bindings[bound]) bindings[bound] = statement.type === 'import_statement' ? `import ${child.text}` : `from ${module} import ${child.text}`;
      }
    }
  }
  return bindings;
}

/** Names the script reads but never binds (imports, assignments, definitions, parameters, loops, builtins aside). */
export async function unboundNames(script: string): Promise<Set<string>> {
  const root = await parseCode('python', script);
  const bound = new Set<string>();
  for (const node of descendants(root, ['import_statement', 'import_from_statement', 'assignment', 'function_definition', 'class_definition',
    'parameters', 'for_statement', 'with_item', 'as_pattern', 'for_in_clause', 'lambda_parameters', 'except_clause', 'global_statement'])) {
    // `with ExitStack() as stack`, `except ValueError as err`: the alias is bound, not what it names (the context
    // manager's call, the exception type) nor, for an except clause, its whole body; a with item without `as` binds nothing.
    if (node.type === 'with_item' || node.type === 'except_clause') continue;
    const target = node.type === 'assignment' ? node.childForFieldName('left') : node.type === 'for_statement' || node.type === 'for_in_clause' ? node.childForFieldName('left')
      : node.type === 'function_definition' || node.type === 'class_definition' ? node.childForFieldName('name') : node.type === 'as_pattern' ? node.childForFieldName('alias') : node;
    if (!target) continue;
    if (node.type === 'import_statement' || node.type === 'import_from_statement') {
      for (const child of node.childrenForFieldName('name')) {
        const name = child?.type === 'aliased_import' ? child.childForFieldName('alias')?.text : child?.text.split('.')[0];
        if (name) bound.add(name);
      }
      continue;
    }
    for (const id of [target, ...descendants(target, 'identifier')]) if (id.type === 'identifier') bound.add(id.text);
  }
  const unbound = new Set<string>();
  for (const id of descendants(root, 'identifier')) {
    const parent = id.parent;
    if (bound.has(id.text) || !parent) continue;
    if (parent.type === 'attribute' && parent.childForFieldName('attribute')?.equals(id)) continue;
    if (parent.type === 'keyword_argument' && parent.childForFieldName('name')?.equals(id)) continue;
    unbound.add(id.text);
  }
  return unbound;
}

/** The example as a script that uses `importName` (imported when the example forgot) and prints something. */
export async function pythonProgram(code: string, language: string, importName: string, bindings: Record<string, string> = {}): Promise<string> {
  const transcript = language === 'pycon' || /^\s*>>>/m.test(code);
  let script = transcript ? await transcriptToScript(code) : code.replace(/\s+$/, '') + '\n';
  const root = importName.split('.')[0]!;
  const unbound = await unboundNames(script);
  const fromDocs = [...new Set([...unbound].map((name) => bindings[name] ?? CONVENTIONAL_ALIASES[name]).filter((line): line is string => Boolean(line)))];
  if (fromDocs.length) script = `${fromDocs.join('\n')}\n${script}`;
  if (!(await importedModules(script)).includes(root) && new RegExp(`\\b${root}\\.`).test(script)) script = `import ${importName}\n${script}`;
  // Checks (`assert is_generic_type(Mapping)`) print the value they check (assertions.ts).
  if (!PRINTS.test(script)) script = await showPythonAssertions(script);
  // Prints nothing and names files: those it wrote are printed at exit, its value only when it wrote none.
  // Not inside an async main, whose values are its own (python-files.ts keeps the value as a module's global).
  if (await awaitsAtTopLevel(script)) return wrapInAsyncMain(await printResult(script, true));
  const files = PRINTS.test(script) ? [] : await namedFiles(script, 'python', [], true);
  if (!files.length) return printResult(await runCoroutines(script));
  return withPythonWrittenFiles(await printResult(await runCoroutines(script), false, keepForExit), files);
}

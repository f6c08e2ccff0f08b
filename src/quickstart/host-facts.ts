// Facts about the sandbox's toolchains a program maker needs: the Python version (for pins), the names of Python's
// standard modules and Go's standard packages (for imports). Read once from the toolchains themselves, not guessed.
import { execFile } from 'node:child_process';
import type { Toolchains } from '../sandbox/toolchains.ts';

export interface HostFacts {
  /** e.g. "3.11.7"; undefined when the sandbox has no python. */
  pythonVersion?: string;
  pythonStdlib: Set<string>;
  /** Python's builtins (`dir(builtins)`): names a script uses unbound that no import should shadow. */
  pythonBuiltins?: Set<string>;
  /**
   * A public name of one standard module (its `__all__`), name → dotted module: `dataclass` → dataclasses, `ExitStack`
   * → contextlib, `urlopen` → urllib.request. Names two modules export (`Path`: pathlib and zipfile) are left out.
   */
  pythonStdlibNames?: Map<string, string>;
  /** Go standard package name → import path (e.g. "json" → "encoding/json"); the usual one when names clash. */
  goStd: Map<string, string>;
  /** Toolchain versions by runtime, for verified.runtime ("python 3.11.7", "go1.26.8"). */
  runtimes: Record<string, string>;
}

/**
 * Python run in the sandbox's interpreter: each standard module's `__all__` read from its source with `ast` (no module
 * is imported, so none runs), under the modules `sys.stdlib_module_names` lists, private and test folders left out;
 * a name exported by exactly one module is printed with that module.
 */
export const STDLIB_NAMES_SCRIPT = [
  'import sys, os, ast, sysconfig',
  'root = sysconfig.get_paths()["stdlib"]',
  'seen = {}',
  'for dirpath, dirs, files in os.walk(root):',
  '    rel = os.path.relpath(dirpath, root)',
  '    parts = [] if rel == "." else rel.split(os.sep)',
  '    if parts and (parts[0] not in sys.stdlib_module_names or any(p.startswith("_") or p in ("test", "tests", "idle_test") or not p.isidentifier() for p in parts)):',
  '        dirs[:] = []',
  '        continue',
  '    for f in files:',
  '        stem = f[:-3]',
  '        if not f.endswith(".py") or (stem.startswith("_") and stem != "__init__"):',
  '            continue',
  '        mod = parts + ([] if stem == "__init__" else [stem])',
  '        if not mod or mod[0] not in sys.stdlib_module_names:',
  '            continue',
  '        try:',
  '            src = open(os.path.join(dirpath, f), encoding="utf-8").read()',
  '            tree = ast.parse(src) if "__all__" in src else None',
  '        except Exception:',
  '            continue',
  '        for node in tree.body if tree else []:',
  '            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets) and isinstance(node.value, (ast.List, ast.Tuple)):',
  '                for e in node.value.elts:',
  '                    if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.isidentifier():',
  '                        seen.setdefault(e.value, set()).add(".".join(mod))',
  'for name, mods in sorted(seen.items()):',
  '    if len(mods) == 1:',
  '        print(name, mods.pop())',
].join('\n');

/** The output of STDLIB_NAMES_SCRIPT as name → module. */
export function parseStdlibNames(out: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [name, module] = line.trim().split(' ');
    if (name && module) names.set(name, module);
  }
  return names;
}

const run = (file: string, args: string[]) => new Promise<string>((resolve, reject) => {
  execFile(file, args, { timeout: 60_000, encoding: 'utf8', maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
});

/** When two standard packages share a name, the one a reader most likely means. */
const GO_PREFERRED: Record<string, string> = {
  rand: 'math/rand', template: 'text/template', scanner: 'text/scanner', pprof: 'runtime/pprof', build: 'go/build',
  parser: 'go/parser', token: 'go/token', constant: 'go/constant', format: 'go/format', doc: 'go/doc', types: 'go/types',
  ast: 'go/ast', printer: 'go/printer', importer: 'go/importer', trace: 'runtime/trace', url: 'net/url', http: 'net/http',
  json: 'encoding/json', xml: 'encoding/xml', csv: 'encoding/csv', hex: 'encoding/hex', base64: 'encoding/base64', pem: 'encoding/pem',
  sql: 'database/sql', driver: 'database/sql/driver', filepath: 'path/filepath', path: 'path', signal: 'os/signal', exec: 'os/exec',
  user: 'os/user', atomic: 'sync/atomic', utf8: 'unicode/utf8', errors: 'errors', io: 'io', fs: 'io/fs', ioutil: 'io/ioutil',
  slog: 'log/slog', log: 'log', zip: 'archive/zip', tar: 'archive/tar', gzip: 'compress/gzip', sha256: 'crypto/sha256', md5: 'crypto/md5',
  tls: 'crypto/tls', heap: 'container/heap', list: 'container/list', context: 'context', bufio: 'bufio', bytes: 'bytes', strings: 'strings',
  strconv: 'strconv', time: 'time', fmt: 'fmt', os: 'os', sort: 'sort', sync: 'sync', math: 'math', regexp: 'regexp', reflect: 'reflect',
  runtime: 'runtime', unicode: 'unicode', net: 'net', embed: 'embed', testing: 'testing', slices: 'slices', maps: 'maps', cmp: 'cmp',
  iter: 'iter', big: 'math/big', httptest: 'net/http/httptest', mail: 'net/mail', color: 'image/color', image: 'image', png: 'image/png',
};

export async function readHostFacts(toolchains: Toolchains): Promise<HostFacts> {
  const facts: HostFacts = { pythonStdlib: new Set(), goStd: new Map(Object.entries(GO_PREFERRED)), runtimes: {} };
  for (const [runtime, toolchain] of Object.entries(toolchains)) if (toolchain.available && toolchain.version) facts.runtimes[runtime] = toolchain.version;
  const python = toolchains.python;
  if (python.available && python.paths.python) {
    // The standard modules' public names are read beside the other facts (a few seconds: every module's source parsed).
    const stdlibNames = run(python.paths.python, ['-c', STDLIB_NAMES_SCRIPT]).then(parseStdlibNames, () => undefined);
    try {
      const out = await run(python.paths.python, ['-c', 'import sys, builtins;print(sys.version.split()[0]);print(" ".join(sorted(sys.stdlib_module_names)));print(" ".join(dir(builtins)))']);
      const [version, names = '', builtins = ''] = out.trim().split('\n');
      facts.pythonVersion = version;
      for (const name of names.split(' ')) if (name) facts.pythonStdlib.add(name);
      facts.pythonBuiltins = new Set(builtins.split(' ').filter(Boolean));
    } catch { /* no python facts: pins are left to pip */ }
    // None (the script failed): a bare standard name stays a NameError.
    facts.pythonStdlibNames = await stdlibNames;
  }
  const go = toolchains.golang;
  if (go.available && go.paths.go) {
    try {
      const out = await run(go.paths.go, ['list', 'std']);
      for (const pkg of out.split('\n').map((l) => l.trim()).filter((l) => l && !l.includes('internal') && !l.startsWith('vendor/'))) {
        const name = pkg.split('/').pop()!;
        if (!facts.goStd.has(name)) facts.goStd.set(name, pkg);
      }
    } catch { /* the preferred table alone */ }
  }
  return facts;
}

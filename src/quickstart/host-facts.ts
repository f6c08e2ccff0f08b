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
  /** Go standard package name → import path (e.g. "json" → "encoding/json"); the usual one when names clash. */
  goStd: Map<string, string>;
  /** Toolchain versions by runtime, for verified.runtime ("python 3.11.7", "go1.26.8"). */
  runtimes: Record<string, string>;
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
    try {
      const out = await run(python.paths.python, ['-c', 'import sys, builtins;print(sys.version.split()[0]);print(" ".join(sorted(sys.stdlib_module_names)));print(" ".join(dir(builtins)))']);
      const [version, names = '', builtins = ''] = out.trim().split('\n');
      facts.pythonVersion = version;
      for (const name of names.split(' ')) if (name) facts.pythonStdlib.add(name);
      facts.pythonBuiltins = new Set(builtins.split(' ').filter(Boolean));
    } catch { /* no python facts: pins are left to pip */ }
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

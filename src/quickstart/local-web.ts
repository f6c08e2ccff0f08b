// Examples of HTTP clients call third-party hosts (requests' `requests.get('https://api.github.com/user')`), which a
// verification never reaches. Rather than show an unverifiable example, or a status-code doctest that runs but teaches
// nothing, such an example also runs against a local stand-in: its URLs point at a small HTTP server started in the
// same process on loopback (the sandbox's own network namespace), which answers every request with a JSON echo of
// it, as httpbin.org does (`/status/<code>` answers that status). The output then shows the client at work (status,
// headers, the JSON it sent); the verified note says plainly that the answers came from the stand-in.
import type { Ecosystem } from '../catalog/index.ts';
import { grammarOf, isTranscript } from './combine.ts';
import { descendants, namedChildren, withSyntaxTree, type SyntaxNode } from './parse.ts';
import type { Candidate } from './types.ts';

export const LOCAL_WEB_PORT = 8765;
export const LOCAL_WEB_ORIGIN = `http://127.0.0.1:${LOCAL_WEB_PORT}`;
const PYTHON_MODULE = '_tooldex_local_web';
const NODE_FILE = 'tooldex-local-web.cjs';

/** Callees that send a request: the HTTP protocol's verbs and the usual client entry points, as a method or a function. */
const HTTP_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'request', 'fetch', 'urlopen', 'stream', 'send']);
/** A URL of a host other than this machine, at the start of a string's content: scheme and host (with any port). */
const REMOTE_ORIGIN = /^https?:\/\/(?!(?:localhost|127\.0\.0\.1|\[::1\])(?:[:/]|$))[^/\s'"`]+/;

/** The grammar a candidate's code is read with here, and whether it is a Python transcript (`>>>` prompts). */
export interface WebSource { grammar: 'python' | 'javascript' | 'typescript' | 'tsx'; transcript?: boolean }

// The grammars load on the first candidate that needs one (parse.ts caches them), not when this module is imported:
// importing the quickstart code (every CLI command, every test that touches it) no longer pays for four grammars.

/**
 * Code a parser can read, with where each of its lines starts in the original: a transcript's prompts (`>>> `,
 * `... `) are cut and its output lines dropped, every other text is read as it is.
 */
function readable(code: string, source: WebSource): { text: string; lines: Array<{ line: number; column: number }> } {
  const original = code.split('\n');
  if (!source.transcript) return { text: code, lines: original.map((_, line) => ({ line, column: 0 })) };
  const text: string[] = [];
  const lines: Array<{ line: number; column: number }> = [];
  let inStep = false;
  original.forEach((raw, line) => {
    const prompt = /^(\s*>>>(?: |$))/.exec(raw) ?? (inStep ? /^(\s*\.\.\.(?: |$))/.exec(raw) : null);
    if (prompt) { text.push(raw.slice(prompt[1]!.length)); lines.push({ line, column: prompt[1]!.length }); inStep = true; return; }
    // Output ends the statement: a later `...` line is output too (an ellipsis in a repr).
    if (raw.trim()) inStep = false;
  });
  return { text: text.join('\n'), lines };
}

function calleeName(call: SyntaxNode): { name: string; bare: boolean } | undefined {
  const callee = call.childForFieldName('function');
  if (!callee) return undefined;
  if (callee.type === 'identifier') return { name: callee.text, bare: true };
  const member = callee.childForFieldName('attribute') ?? callee.childForFieldName('property');
  return member ? { name: member.text, bare: false } : undefined;
}

/** The string literals a call is given: its arguments, keyword values, and the values of an options object or dict it is given. */
function argumentStrings(call: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const visit = (node: SyntaxNode, depth: number) => {
    if (/^(string|template_string)$/.test(node.type)) { out.push(node); return; }
    if (depth > 0 && /^(keyword_argument|object|dictionary|pair)$/.test(node.type)) {
      for (const child of namedChildren(node)) visit(child, depth - 1);
    }
  };
  const args = call.childForFieldName('arguments');
  for (const arg of args ? namedChildren(args) : []) visit(arg, 3);
  return out;
}

interface SentUrl { line: number; column: number; length: number; origin: string; path: string }

/**
 * The URL literals the code sends requests to: a string given to a call of an HTTP verb (`requests.get`,
 * `session.post`, `urllib3.request`, `fetch`) or of the package itself called bare (`got('https://…')`), whose content
 * starts with a remote origin. A URL only parsed or built (`URL('https://…')`, `isURL('https://…')`) is no request.
 */
function sentUrls(code: string, source: WebSource, bindings: string[]): Promise<SentUrl[]> {
  const { text, lines } = readable(code, source);
  return withSyntaxTree(source.grammar, text, (root) => {
    const found: SentUrl[] = [];
    for (const call of descendants(root, ['call', 'call_expression'])) {
      const callee = calleeName(call);
      if (!callee || !(HTTP_VERBS.has(callee.name.toLowerCase()) || (callee.bare && bindings.includes(callee.name)))) continue;
      for (const string of argumentStrings(call)) {
        // The content between the quotes (a Python prefix such as `f` or `r` before them).
        const quote = /^[rbuf]*("""|\'\'\'|["'`])/i.exec(string.text);
        if (!quote) continue;
        const content = string.text.slice(quote[0].length);
        const origin = REMOTE_ORIGIN.exec(content)?.[0];
        if (!origin) continue;
        const at = lines[string.startPosition.row];
        if (!at || string.startPosition.row !== string.endPosition.row) continue;
        const rest = content.slice(origin.length, content.length - quote[1]!.length);
        found.push({ line: at.line, column: at.column + string.startPosition.column + quote[0].length, length: origin.length, origin, path: rest });
        break;
      }
    }
    return found;
  });
}

/**
 * The example with the URL literals it *sends requests to* pointed at the stand-in, path and query kept; a URL it
 * only parses or builds (`URL('https://…')` of yarl, whatwg-url) is left as it is. Undefined when nothing changed.
 */
export async function pointedAtLocalWeb(code: string, source: WebSource, bindings: string[] = []): Promise<string | undefined> {
  const urls = await sentUrls(code, source, bindings);
  if (!urls.length) return undefined;
  const lines = code.split('\n');
  // From the last to the first, so earlier columns stay where they were.
  for (const url of [...urls].sort((a, b) => b.line - a.line || b.column - a.column)) {
    const line = lines[url.line]!;
    // An origin with no path gets the root path (`https://example.com` → `http://127.0.0.1:8765/`).
    const replacement = `${LOCAL_WEB_ORIGIN}${url.path.startsWith('/') ? '' : '/'}`;
    lines[url.line] = line.slice(0, url.column) + replacement + line.slice(url.column + url.length);
  }
  return lines.join('\n');
}

/**
 * Whether the example sends a request to a URL it names: a URL literal given to an HTTP method or to the package
 * itself called (`got('https://…')`). A URL only parsed or built (`new URL('https://…')`) is not a request.
 */
export async function sendsRequest(code: string, source: WebSource, bindings: string[] = []): Promise<boolean> {
  return (await sentUrls(code, source, bindings)).length > 0;
}

/** How a candidate of an ecosystem is read here. */
function webSource(ecosystem: Ecosystem, candidate: Candidate): WebSource | undefined {
  if (ecosystem === 'pypi') return { grammar: 'python', transcript: isTranscript(candidate) };
  if (ecosystem !== 'npm') return undefined;
  const grammar = grammarOf(ecosystem, candidate);
  return { grammar: /^(tsx|jsx)$/i.test(candidate.language) ? 'tsx' : grammar === 'typescript' ? 'typescript' : 'javascript' };
}

/** The ecosystems whose programs can start the stand-in in-process before the example runs. */
export function localWebApplies(ecosystem: Ecosystem): boolean {
  return ecosystem === 'pypi' || ecosystem === 'npm';
}

/** Candidates whose only obstacle is the network, again with their URLs pointed at the stand-in (marked `localWeb`). */
export async function localWebVariants(candidates: Candidate[], ecosystem: Ecosystem, blockersOf: (code: string) => string[], bindings: string[] = []): Promise<Candidate[]> {
  if (!localWebApplies(ecosystem)) return [];
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    if (candidate.origin === 'api') continue;
    const blockers = blockersOf(candidate.code);
    if (blockers.length !== 1 || blockers[0] !== 'needs network') continue;
    const source = webSource(ecosystem, candidate);
    const code = source ? await pointedAtLocalWeb(candidate.code, source, bindings) : undefined;
    if (code) out.push({ ...candidate, code, localWeb: true });
  }
  return out;
}

export const LOCAL_WEB_NOTE = `The example calls a third-party web service, which a verification does not reach: tooldex ran it with its URLs pointed at a local stand-in (${LOCAL_WEB_ORIGIN}, started in the same program), which answers every request with a JSON echo of it as httpbin.org does. The output shows the client working, not the real service's answers.`;

const PYTHON_SERVER = `# tooldex: a local stand-in for the web service the example calls (its URLs point here). Every request is answered
# with a JSON echo of itself, as httpbin.org answers; /status/<code> answers with that status.
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class _Echo(BaseHTTPRequestHandler):
    def _answer(self):
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        parts = url.path.strip("/").split("/")
        status = int(parts[1]) if len(parts) == 2 and parts[0] == "status" and parts[1].isdigit() else 200
        try:
            sent = json.loads(body) if body else None
        except ValueError:
            sent = None
        form = parse_qs(body) if "form-urlencoded" in (self.headers.get("Content-Type") or "") else {}
        flat = lambda d: {k: v[0] if len(v) == 1 else v for k, v in d.items()}
        payload = json.dumps({
            "method": self.command, "url": "http://%s%s" % (self.headers.get("Host", ""), self.path),
            "args": flat(parse_qs(url.query)), "headers": dict(self.headers), "data": body, "form": flat(form), "json": sent,
        }).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _answer

    def log_message(self, *args):
        pass


_server = ThreadingHTTPServer(("127.0.0.1", ${LOCAL_WEB_PORT}), _Echo)
_server.daemon_threads = True
threading.Thread(target=_server.serve_forever, daemon=True).start()
`;

// CommonJS, so both module kinds load it (an ES module imports it, a CommonJS one requires it). The bind is issued
// while the module loads, before the example's first request (whose connect comes later in the same turn's queue);
// unref'd and answering with `Connection: close`, it never keeps the program from exiting.
const NODE_SERVER = `// tooldex: a local stand-in for the web service the example calls (its URLs point here). Every request is answered
// with a JSON echo of itself, as httpbin.org answers; /status/<code> answers with that status.
const http = require('node:http');
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', () => {
    const url = new URL(req.url, 'http://' + (req.headers.host || '127.0.0.1'));
    const status = /^\\/status\\/(\\d{3})$/.exec(url.pathname);
    let json = null;
    try { json = body ? JSON.parse(body) : null; } catch {}
    const payload = JSON.stringify({ method: req.method, url: url.href, args: Object.fromEntries(url.searchParams), headers: req.headers, data: body, json });
    res.writeHead(status ? Number(status[1]) : 200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), Connection: 'close' });
    res.end(req.method === 'HEAD' ? undefined : payload);
  });
});
server.listen(${LOCAL_WEB_PORT}, '127.0.0.1');
server.unref();
`;

/** The program's entry with the stand-in started first, and the stand-in's file. */
export function withLocalWeb(ecosystem: 'pypi' | 'npm', code: string, entryPath: string): { code: string; file: { path: string; code: string } } {
  if (ecosystem === 'pypi') {
    // After any `from __future__` import, which Python requires first.
    const future = /^(?:from __future__ import [^\n]+\n)+/m.exec(code);
    const at = future && future.index === code.search(/\S/) ? future.index + future[0].length : 0;
    const line = `import ${PYTHON_MODULE}  # tooldex: a local stand-in for the web service (see the note)\n`;
    return { code: code.slice(0, at) + line + code.slice(at), file: { path: `${PYTHON_MODULE}.py`, code: PYTHON_SERVER } };
  }
  const line = /\.c[jt]s$/.test(entryPath) ? `require('./${NODE_FILE}'); // tooldex: a local stand-in for the web service (see the note)` : `import './${NODE_FILE}'; // tooldex: a local stand-in for the web service (see the note)`;
  return { code: `${line}\n${code}`, file: { path: NODE_FILE, code: NODE_SERVER } };
}

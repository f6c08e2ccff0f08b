// Examples of HTTP clients call third-party hosts (requests' `requests.get('https://api.github.com/user')`), which a
// verification never reaches. Rather than show an unverifiable example, or a status-code doctest that runs but teaches
// nothing, such an example also runs against a local stand-in: its URLs point at a small HTTP server started in the
// same process on loopback (the sandbox's own network namespace), which answers every request with a JSON echo of
// it, as httpbin.org does (`/status/<code>` answers that status). The output then shows the client at work (status,
// headers, the JSON it sent); the verified note says plainly that the answers came from the stand-in.
import type { Ecosystem } from '../catalog/index.ts';
import type { Candidate } from './types.ts';

export const LOCAL_WEB_PORT = 8765;
export const LOCAL_WEB_ORIGIN = `http://127.0.0.1:${LOCAL_WEB_PORT}`;
const PYTHON_MODULE = '_tooldex_local_web';
const NODE_FILE = 'tooldex-local-web.cjs';

/** A call of an HTTP method (`.get(`, `request(`, `urlopen(`, `fetch(`…: the protocol's own verbs), up to an argument. */
const VERB_CALL = String.raw`(?:\.|\b)(?:get|post|put|patch|delete|head|options|request|fetch|urlopen|stream|send)\(`;
/** Arguments before the URL: anything but parentheses, strings kept whole (`"GET", ` before urllib3's URL). */
const BEFORE_URL = String.raw`(?:[^()'"\`]|'[^']*'|"[^"]*")*?`;
/** A URL literal of a host other than this machine: quote, host, path; the same quote closes it. */
const REMOTE_URL = String.raw`(['"\`])https?:\/\/(?!(?:localhost|127\.0\.0\.1|\[::1\])[:/'"\`])[^/'"\`\s]+(\/[^'"\`\s]*)?\2`;

const escapeName = (name: string) => name.replace(/\$/g, '\\$');

/** The calls that send a request, with the URL literal each is given: an HTTP verb's, or the package's own (`got(…)`). */
function requestCalls(bindings: string[]): RegExp {
  const own = bindings.filter((b) => /^[A-Za-z_$][\w$]*$/.test(b)).map(escapeName);
  const callee = own.length ? `(?:${VERB_CALL}|(?:^|(?<=[^\\w$.]))(?:${own.join('|')})\\()` : VERB_CALL;
  return new RegExp(`(${callee}${BEFORE_URL})${REMOTE_URL}`, 'gim');
}

/**
 * The example with the URL literals it *sends requests to* pointed at the stand-in, path and query kept; a URL it
 * only parses or builds (`URL('https://…')` of yarl, whatwg-url) is left as it is. Undefined when nothing changed.
 */
export function pointedAtLocalWeb(code: string, bindings: string[] = []): string | undefined {
  let changed = false;
  const out = code.replace(requestCalls(bindings), (_, call: string, quote: string, path: string | undefined) => {
    changed = true;
    return `${call}${quote}${LOCAL_WEB_ORIGIN}${path ?? '/'}${quote}`;
  });
  return changed ? out : undefined;
}

/**
 * Whether the example sends a request to a URL it names: a URL literal given to an HTTP method or to the package
 * itself called (`got('https://…')`). A URL only parsed or built (`new URL('https://…')`) is not a request.
 */
export function sendsRequest(code: string, bindings: string[] = []): boolean {
  return requestCalls(bindings).test(code);
}

/** The ecosystems whose programs can start the stand-in in-process before the example runs. */
export function localWebApplies(ecosystem: Ecosystem): boolean {
  return ecosystem === 'pypi' || ecosystem === 'npm';
}

/** Candidates whose only obstacle is the network, again with their URLs pointed at the stand-in (marked `localWeb`). */
export function localWebVariants(candidates: Candidate[], ecosystem: Ecosystem, blockersOf: (code: string) => string[], bindings: string[] = []): Candidate[] {
  if (!localWebApplies(ecosystem)) return [];
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    if (candidate.origin === 'api') continue;
    const blockers = blockersOf(candidate.code);
    if (blockers.length !== 1 || blockers[0] !== 'needs network') continue;
    const code = pointedAtLocalWeb(candidate.code, bindings);
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

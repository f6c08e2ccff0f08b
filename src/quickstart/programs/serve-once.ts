// Servers shown answering one request, beyond Go (issue 24 part 4, round 20 q3): npm (`app.listen(3000)`,
// `http.createServer(…).listen(…)`, hono's `serve(app)`), PyPI (`app.run()`, `uvicorn.run(app)`, `web.run_app(app)`)
// and crates (`axum::serve(listener, app).await`, actix's `HttpServer::new(…).bind(…)?.run().await`, warp, poem,
// salvo). Go rewrites its serving statement into a goroutine (go-serve.ts); here the serving statement stays as the
// example wrote it and a request is started *beside* it, first thing in the program: a timer (Node), a thread
// (Python, Rust: std only, so any async runtime serves). Like Go's, the asker reads the listening ports from
// /proc/net/tcp{,6} of the sandbox's own loopback-only network namespace (plus any port the example names), asks one
// GET of a route the example registers, prints the request and the answer and ends the process; a 404 or no answer
// within the deadline fails the program. The route and the ports come from the program's parse, as Go's do.
import { descendants, namedChildren, parseCode, withSyntaxTree, type Grammar, type SyntaxNode } from '../parse.ts';
import { serveCallsIn } from '../exits.ts';
import { concretePath, DEADLINE_SECONDS, goServeCalls } from './go-serve.ts';

/** Route registrations that answer GET (or any method): a method or function of this name given a path first. */
const GET_ROUTES = /^(get|GET|route|all|any|at|resource|api_route|add_get|add_route|router|on|page|static)$/;
const OTHER_ROUTES = /^(post|put|patch|delete|head|options|add_post|POST|PUT|PATCH|DELETE)$/;
/** Methods whose chain makes a server that a later argument-less `run()` starts (actix's `.bind(…)?.run()`, poem's). */
const BINDS = /^(bind|bind_\w+|listen|listen_\w+|new)$/;

type Served = 'javascript' | 'typescript' | 'tsx' | 'python' | 'rust';
const CALLS = ['call_expression', 'call', 'macro_invocation'];

function calleeOf(call: SyntaxNode): { name: string; receiver?: SyntaxNode } {
  const fn = call.childForFieldName('function') ?? call.namedChildren[0];
  if (!fn) return { name: '' };
  const name = fn.childForFieldName('property')?.text ?? fn.childForFieldName('attribute')?.text ?? fn.childForFieldName('field')?.text
    ?? fn.childForFieldName('name')?.text ?? fn.text.split(/[.:]+/).pop() ?? '';
  const receiver = fn.childForFieldName('object') ?? fn.childForFieldName('value') ?? fn.childForFieldName('path') ?? undefined;
  return { name, receiver };
}

function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  return args ? namedChildren(args).filter((n) => n.type !== 'comment') : [];
}

/** A string literal's content (JS/TS, Python, Rust), or undefined when the node is no plain string. */
function stringValue(node: SyntaxNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'template_string' && namedChildren(node).some((c) => c.type === 'template_substitution')) return undefined;
  if (node.type === 'string' || node.type === 'template_string' || node.type === 'string_literal') {
    const quote = /^[rbuRBU]?("""|'''|["'`])/.exec(node.text);
    return quote ? node.text.slice(quote[0].length, node.text.length - quote[1]!.length) : undefined;
  }
  return undefined;
}

/** Rust: a chain that ends in `.run()` / `.start()` on a server built with `bind`/`new` (actix, poem), awaited or not. */
function rustChainServes(call: SyntaxNode): boolean {
  const { name, receiver } = calleeOf(call);
  if (!/^(run|start|launch)$/.test(name) || !receiver) return false;
  return descendants(receiver, 'call_expression').some((c) => BINDS.test(calleeOf(c).name) && /Server|server|bind|listen/.test(c.text));
}

/** The calls that serve until the process is stopped, in order (exits.ts's reading, plus Rust's bound-server chains). */
export function serveCallsOf(root: SyntaxNode, grammar: Served): SyntaxNode[] {
  const found = serveCallsIn(root);
  if (grammar === 'rust') {
    for (const call of descendants(root, 'call_expression')) if (rustChainServes(call) && !found.some((f) => f.equals(call))) found.push(call);
  }
  return found;
}

/**
 * The path to ask: the first route registered for GET (or any method): a call of a route method given a path first
 * (`app.get('/', …)`, `@app.route("/")`, `.route("/", get(h))`, `web.resource("/")`), or a Rust attribute
 * (`#[get("/")]`); else the first route of another method; else `/`.
 */
export function routeIn(root: SyntaxNode): string {
  let other: string | undefined;
  const routes: Array<{ name: string; pattern: string; at: number }> = [];
  for (const call of descendants(root, CALLS)) {
    const pattern = stringValue(argumentsOf(call)[0]);
    if (pattern !== undefined && pattern.startsWith('/')) routes.push({ name: calleeOf(call).name, pattern, at: call.startIndex });
  }
  // Rust route attributes (actix's `#[get("/")]`, rocket's): the attribute's path and its first string argument.
  for (const attribute of descendants(root, 'attribute')) {
    const name = attribute.namedChildren[0]?.text.split('::').pop() ?? '';
    const args = attribute.childForFieldName('arguments') ?? namedChildren(attribute).find((c) => c.type === 'token_tree');
    const pattern = stringValue(args ? namedChildren(args).find((c) => c.type === 'string_literal') : undefined);
    if (pattern !== undefined && pattern.startsWith('/')) routes.push({ name, pattern, at: attribute.startIndex });
  }
  for (const { name, pattern } of routes.sort((a, b) => a.at - b.at)) {
    if (GET_ROUTES.test(name)) return concretePath(pattern);
    if (OTHER_ROUTES.test(name)) other ??= concretePath(pattern);
  }
  return other ?? '/';
}

/** Ports the serving calls name: a number or an address string among their arguments, or a `port` key/keyword. */
function portsNamed(calls: SyntaxNode[]): number[] {
  const ports = new Set<number>();
  for (const call of calls) {
    for (const node of [call, ...descendants(call, ['integer', 'number', 'integer_literal', 'string', 'string_literal', 'template_string'])]) {
      if (node === call) continue;
      const text = stringValue(node) ?? node.text;
      const port = /^(\d{2,5})$/.exec(text)?.[1] ?? /:(\d{2,5})\/?$/.exec(text)?.[1];
      if (port && Number(port) >= 80 && Number(port) < 65536) ports.add(Number(port));
    }
  }
  return [...ports];
}

/** The route and ports of a program that serves, or undefined when nothing in it serves. */
/**
 * Python: the application object a module registers routes on (`@app.route("/")`, `@app.get("/")`,
 * `app.add_url_rule("/", …)`), bound at module level from a call (`app = Flask(__name__)`, `app = FastAPI()`), when
 * nothing in the module serves it: the docs serve such a module with a command (`flask run`, `fastapi dev main.py`).
 */
function pythonApp(root: SyntaxNode): string | undefined {
  const receivers: string[] = [];
  for (const call of descendants(root, 'call')) {
    const fn = call.childForFieldName('function');
    const object = fn?.type === 'attribute' ? fn.childForFieldName('object') : undefined;
    const pattern = stringValue(argumentsOf(call)[0]);
    if (object?.type !== 'identifier' || pattern === undefined || !pattern.startsWith('/')) continue;
    const method = fn!.childForFieldName('attribute')?.text ?? '';
    if (GET_ROUTES.test(method) || OTHER_ROUTES.test(method) || /^(add_url_rule|add_api_route|websocket)$/.test(method)) receivers.push(object.text);
  }
  const bound = new Set(namedChildren(root).filter((s) => s.type === 'expression_statement').map((s) => s.namedChildren[0])
    .filter((a): a is SyntaxNode => a?.type === 'assignment' && a.childForFieldName('left')?.type === 'identifier' && a.childForFieldName('right')?.type === 'call')
    .map((a) => a.childForFieldName('left')!.text));
  return receivers.find((r) => bound.has(r));
}

/** What to ask a program that serves: the route, the ports it names, and (Python) an app object nothing serves. */
export interface ServedAsk { path: string; ports: number[]; app?: string }

/** The route and ports of a program that serves, or undefined when nothing in it serves. */
export async function servedRequest(program: string, grammar: Served): Promise<ServedAsk | undefined> {
  const root = await parseCode(grammar, program);
  const calls = serveCallsOf(root, grammar);
  if (calls.length) return { path: routeIn(root), ports: portsNamed(calls) };
  const app = grammar === 'python' ? pythonApp(root) : undefined;
  return app ? { path: routeIn(root), ports: [], app } : undefined;
}

/**
 * Whether the code serves, or (Python) defines an application a command would serve (a candidate becomes a served
 * variant). Go's serving calls are go-serve.ts's reading, which its rewrite uses too.
 */
export async function serves(code: string, grammar: Grammar): Promise<boolean> {
  if (grammar === 'go') return withSyntaxTree('go', code, (root) => goServeCalls(root).length > 0);
  if (!/^(javascript|typescript|tsx|python|rust)$/.test(grammar)) return false;
  return (await servedRequest(code, grammar as Served)) !== undefined;
}

/** The note of a Python application served here because the docs serve it with a command. */
export const APP_SERVED_NOTE = 'The example defines a web application that the docs serve with a command (such as `flask run`); tooldex served it inside the sandbox (a WSGI application with Python\'s own wsgiref server on its loopback; an ASGI application called in-process with one HTTP request) and made one GET request to a route it registers; the program prints that request and the answer, then exits.';

const FAIL_404 = (path: string) => `tooldex: the server answered GET ${path} with 404: it serves no route there`;
const FAIL_LATE = (path: string) => `tooldex: the server did not answer GET ${path} within ${DEADLINE_SECONDS} s`;

/** Node: a timer-driven asker started after the example's code has run (listen does not block Node's event loop). */
function nodeAsker(path: string, ports: number[]): string {
  return `// tooldex: the example starts a server; this asks it for ${path} once (from inside the sandbox), prints the answer and exits.
;(function tooldexAsk(path, named) {
  const deadline = Date.now() + ${DEADLINE_SECONDS * 1000};
  const listening = async () => {
    const fs = await import('node:fs');
    const ports = [...named];
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text = '';
      try { text = fs.readFileSync(table, 'utf8'); } catch { continue; }
      for (const line of text.split('\\n').slice(1)) {
        const fields = line.trim().split(/\\s+/);
        if (fields.length > 3 && fields[3] === '0A') ports.push(parseInt(fields[1].slice(fields[1].lastIndexOf(':') + 1), 16));
      }
    }
    return [...new Set(ports)];
  };
  const tryOnce = async () => {
    const http = await import('node:http');
    for (const port of await listening()) {
      const answer = await new Promise((resolve) => {
        const asking = http.get({ host: '127.0.0.1', port, path, timeout: 5000 }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => { if (body.length < 2000) body += chunk; });
          res.on('end', () => resolve({ res, body }));
          res.on('error', () => resolve(undefined));
        });
        asking.on('error', () => resolve(undefined));
        asking.on('timeout', () => { asking.destroy(); resolve(undefined); });
      });
      if (!answer) continue;
      if (answer.res.statusCode === 404) { console.error(${JSON.stringify(FAIL_404(path))}); process.exit(1); }
      const kind = answer.res.headers['content-type'];
      process.stdout.write(\`GET \${path}\\nHTTP/\${answer.res.httpVersion} \${answer.res.statusCode} \${answer.res.statusMessage}\\n\${kind ? \`Content-Type: \${kind}\\n\` : ''}\\n\${answer.body.slice(0, 2000).replace(/\\n+$/, '')}\\n\`, () => process.exit(0));
      return true;
    }
    return false;
  };
  const poll = () => tryOnce().then((done) => {
    if (done) return;
    if (Date.now() > deadline) { console.error(${JSON.stringify(FAIL_LATE(path))}); process.exit(1); }
    setTimeout(poll, 100);
  }, () => setTimeout(poll, 100));
  setTimeout(poll, 100);
})(${JSON.stringify(path)}, ${JSON.stringify(ports)});
`;
}

/** The module a Python program imports first: it starts the asking (non-daemon) thread, which ends the process with os._exit. */
export const PYTHON_ASK_MODULE = '_tooldex_ask';

function pythonAsker(path: string, ports: number[]): string {
  return `# tooldex: the example starts a server; this asks it for ${path} once (from inside the sandbox), prints the answer and exits.
def _tooldex_ask(path, named):
    import http.client, os, sys, time
    deadline = time.monotonic() + ${DEADLINE_SECONDS}
    while time.monotonic() < deadline:
        ports = list(named)
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                lines = open(table).read().splitlines()[1:]
            except OSError:
                continue
            for line in lines:
                fields = line.split()
                if len(fields) > 3 and fields[3] == "0A":
                    ports.append(int(fields[1].rsplit(":", 1)[1], 16))
        for port in dict.fromkeys(ports):
            try:
                asking = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                asking.request("GET", path)
                answer = asking.getresponse()
                body = answer.read(2000).decode("utf-8", "replace")
            except Exception:
                continue
            if answer.status == 404:
                sys.stderr.write(${JSON.stringify(`${FAIL_404(path)}\n`)})
                sys.stderr.flush()
                os._exit(1)
            kind = answer.getheader("Content-Type")
            sys.stdout.write("GET %s\\nHTTP/%s %s %s\\n%s\\n%s\\n" % (path, "1.1" if answer.version == 11 else "1.0", answer.status, answer.reason, "Content-Type: %s\\n" % kind if kind else "", body.rstrip("\\n")))
            sys.stdout.flush()
            os._exit(0)
        time.sleep(0.1)
    sys.stderr.write(${JSON.stringify(`${FAIL_LATE(path)}\n`)})
    sys.stderr.flush()
    os._exit(1)

import threading
threading.Thread(target=_tooldex_ask, args=(${JSON.stringify(path)}, ${JSON.stringify(ports)})).start()
`;
}

/**
 * Python, an application nothing serves: a WSGI app is served with the standard library's wsgiref on the loopback and
 * asked as above; an ASGI app (its call is a coroutine function) gets one HTTP request in-process (no ASGI server is
 * in the standard library).
 */
function pythonAppAsker(path: string): string {
  return `${pythonAsker(path, []).replace(/\nimport threading\n[^\n]*\n$/, '\n')}
def serve(app, path=${JSON.stringify(path)}):
    import asyncio, inspect, os, sys, threading
    call = getattr(app, "__call__", None)
    if inspect.iscoroutinefunction(app) or inspect.iscoroutinefunction(call):
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1", "method": "GET", "scheme": "http",
                 "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": [(b"host", b"127.0.0.1")],
                 "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80)}
        asyncio.run(app(scope, receive, send))
        start = next((m for m in sent if m.get("type") == "http.response.start"), None)
        if start is None:
            sys.stderr.write("tooldex: the application answered nothing to GET %s\\n" % path)
            sys.stderr.flush()
            os._exit(1)
        status = start["status"]
        if status == 404:
            sys.stderr.write(${JSON.stringify(`${FAIL_404(path)}
`)})
            sys.stderr.flush()
            os._exit(1)
        import http
        kind = next((v.decode("latin-1") for k, v in start.get("headers", []) if k.lower() == b"content-type"), None)
        body = b"".join(m.get("body", b"") for m in sent if m.get("type") == "http.response.body").decode("utf-8", "replace")[:2000]
        phrase = http.HTTPStatus(status).phrase if status in http.HTTPStatus._value2member_map_ else ""
        sys.stdout.write("GET %s\\nHTTP/1.1 %s %s\\n%s\\n%s\\n" % (path, status, phrase, "Content-Type: %s\\n" % kind if kind else "", body.rstrip("\\n")))
        sys.stdout.flush()
        os._exit(0)
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = make_server("127.0.0.1", 0, app, handler_class=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _tooldex_ask(path, [server.server_port])
`;
}

/** Rust: std only (a thread, a TcpStream and HTTP/1.1 by hand), so it needs no crate and works beside any runtime. */
const RUST_ASK_FN = `
/// tooldex: the example starts a server; this asks it for one path once (from inside the sandbox), prints the
/// answer and ends the process. A server that answers 404, or nothing within the deadline, fails the program.
fn tooldex_ask(path: &str, named: &[u16]) {
    use std::io::{Read, Write};
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(${DEADLINE_SECONDS});
    while std::time::Instant::now() < deadline {
        let mut ports: Vec<u16> = named.to_vec();
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = std::fs::read_to_string(table).unwrap_or_default();
            for line in text.lines().skip(1) {
                let fields: Vec<&str> = line.split_whitespace().collect();
                if fields.len() > 3 && fields[3] == "0A" {
                    if let Some(port) = fields[1].rsplit(':').next().and_then(|p| u16::from_str_radix(p, 16).ok()) {
                        if !ports.contains(&port) { ports.push(port); }
                    }
                }
            }
        }
        for port in ports {
            let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
            let Ok(mut stream) = std::net::TcpStream::connect_timeout(&address, std::time::Duration::from_secs(2)) else { continue };
            let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(5)));
            if stream.write_all(format!("GET {path} HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\nConnection: close\\r\\n\\r\\n").as_bytes()).is_err() { continue; }
            let mut raw = Vec::new();
            let _ = stream.read_to_end(&mut raw);
            let text = String::from_utf8_lossy(&raw).into_owned();
            let Some((head, body)) = text.split_once("\\r\\n\\r\\n") else { continue };
            let mut lines = head.lines();
            let status = lines.next().unwrap_or_default().to_string();
            if status.split_whitespace().nth(1) == Some("404") {
                eprintln!("tooldex: the server answered GET {path} with 404: it serves no route there");
                std::process::exit(1);
            }
            let header = |name: &str| head.lines().skip(1).find_map(|l| l.split_once(':').filter(|(k, _)| k.trim().eq_ignore_ascii_case(name)).map(|(_, v)| v.trim().to_string()));
            let mut shown = body.to_string();
            if header("Transfer-Encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
                // The chunks' contents without their size lines.
                let mut rest = body;
                shown.clear();
                while let Some((size, after)) = rest.split_once("\\r\\n") {
                    let Ok(size) = usize::from_str_radix(size.trim(), 16) else { break };
                    if size == 0 || size > after.len() { break; }
                    shown.push_str(&after[..size]);
                    rest = after[size..].trim_start_matches("\\r\\n");
                }
            }
            let shown: String = shown.chars().take(2000).collect();
            println!("GET {path}\\n{status}");
            if let Some(kind) = header("Content-Type") { println!("Content-Type: {kind}"); }
            println!("\\n{}", shown.trim_end_matches('\\n'));
            std::process::exit(0);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    eprintln!("tooldex: the server did not answer GET {path} within ${DEADLINE_SECONDS} s");
    std::process::exit(1);
}
`;

/** Where a Python program's own code may start: after a module docstring and `from __future__` imports. */
function pythonInsertAt(program: string): number {
  let at = 0;
  const future = [...program.matchAll(/^from __future__ import [^\n]*\n/gm)].pop();
  if (future) at = future.index! + future[0].length;
  return at;
}

/** A program run with one request to its server, and the files beside it that the request needs (Python's asker module). */
export interface ServedProgram { code: string; files: Array<{ path: string; code: string }>; note?: string }

/**
 * The program with a request to the server it starts made beside it, or undefined when the program serves nothing
 * (or, Rust, has no `fn main` to start the asker in). What the asking takes is kept out of the example's way: one
 * import line first (Python), one line first in `fn main` and a function after it (Rust), a block after it (Node).
 */
export async function servedOnceIn(program: string, grammar: Served): Promise<ServedProgram | undefined> {
  const asked = await servedRequest(program, grammar);
  if (!asked) return undefined;
  const { path, ports, app } = asked;
  if (grammar === 'python' && app) {
    const line = `import ${PYTHON_ASK_MODULE}; ${PYTHON_ASK_MODULE}.serve(${app})  # tooldex: serves ${app} and asks it for ${path} once, prints the answer and exits (see the note)`;
    return { code: `${program.replace(/\s*$/, '\n')}\n${line}\n`, files: [{ path: `${PYTHON_ASK_MODULE}.py`, code: pythonAppAsker(path) }], note: APP_SERVED_NOTE };
  }
  if (grammar === 'python') {
    const at = pythonInsertAt(program);
    const line = `import ${PYTHON_ASK_MODULE}  # tooldex: asks the server below for ${path} once, prints the answer and exits (see the note)\n`;
    return { code: `${program.slice(0, at)}${line}${program.slice(at)}`, files: [{ path: `${PYTHON_ASK_MODULE}.py`, code: pythonAsker(path, ports) }] };
  }
  const root = await parseCode(grammar, program);
  if (grammar === 'rust') {
    const main = descendants(root, 'function_item').find((f) => f.parent?.type === 'source_file' && f.childForFieldName('name')?.text === 'main');
    const body = main?.childForFieldName('body');
    if (!body) return undefined;
    const start = `\n    std::thread::spawn(|| tooldex_ask(${JSON.stringify(path)}, &[${ports.join(', ')}]));`;
    const at = body.startIndex + 1;
    return { code: `${program.slice(0, at)}${start}${program.slice(at).replace(/\s*$/, '\n')}${RUST_ASK_FN}`, files: [] };
  }
  // JavaScript/TypeScript: a serving call the program prints (`console.log(app.listen(3000))`, from printing an
  // example's expression statements) prints a server object, not what it serves: the call stands alone.
  let code = program;
  const printed = serveCallsOf(root, grammar).map((call) => call.parent?.parent).filter((outer): outer is SyntaxNode => outer?.type === 'call_expression'
    && outer.childForFieldName('function')?.text === 'console.log' && argumentsOf(outer).length === 1);
  for (const outer of printed.sort((a, b) => b.startIndex - a.startIndex)) code = `${code.slice(0, outer.startIndex)}${argumentsOf(outer)[0]!.text}${code.slice(outer.endIndex)}`;
  return { code: `${code.replace(/\s*$/, '\n')}\n${nodeAsker(path, ports)}`, files: [] };
}

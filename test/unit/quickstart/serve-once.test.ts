// Server examples of npm, PyPI and crates run with one request started beside them (programs/serve-once.ts, issue 24,
// round 20 q3): the program asks a route the example registers once, prints the request and the answer and exits; a
// 404 or no answer fails it. The programs are run with the host's node, python3 and rustc in a new network namespace
// with loopback only, as the sandbox runs them; the servers are the standard libraries' own, so no package is needed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { servedOnceIn, servedRequest, serves, type ServedProgram } from '../../../src/quickstart/programs/serve-once.ts';

function has(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const isolated = has('unshare', ['-rn', 'true']);

/** Runs a command in a fresh network namespace (loopback only, as the sandbox's run step), in a directory holding the file. */
function runIsolated(file: string, program: ServedProgram, command: string): { status: number | null; stdout: string; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-serve-once-'));
  try {
    for (const written of [{ path: file, code: program.code }, ...program.files]) fs.writeFileSync(path.join(dir, written.path), written.code);
    const run = spawnSync('unshare', ['-rn', 'sh', '-c', `ip link set lo up 2>/dev/null; ${command}`], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const NODE_SERVER = `import http from 'node:http';

const server = http.createServer((req, res) => {
  if (req.url === '/users/1') { res.setHeader('Content-Type', 'application/json'); res.end(JSON.stringify({ user: 'example' })); return; }
  res.statusCode = 404;
  res.end('no');
});
const app = { get(route, handler) {} };
app.get('/users/:id', () => {});
server.listen(3000, () => console.log('listening on 3000'));
`;

const PYTHON_SERVER = `from http.server import BaseHTTPRequestHandler, HTTPServer

class Hello(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"hello from " + self.path.encode()
        self.send_response(200 if self.path == "/hello" else 404)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(body)

def route(path):
    return lambda f: f

@route("/hello")
def hello():
    pass

server = HTTPServer(("127.0.0.1", 8000), Hello)
server.serve_forever()
`;

// A std-only Rust server whose serving function is named as frameworks name theirs (`axum::serve`, salvo's `serve`).
const RUST_SERVER = `use std::io::{Read, Write};
use std::net::TcpListener;

fn serve(listener: TcpListener) {
    for stream in listener.incoming() {
        let mut stream = stream.unwrap();
        let mut buffer = [0u8; 1024];
        let n = stream.read(&mut buffer).unwrap();
        let request = String::from_utf8_lossy(&buffer[..n]).to_string();
        let ok = request.starts_with("GET /items/1 ");
        let body = if ok { "item one" } else { "missing" };
        let status = if ok { "200 OK" } else { "404 Not Found" };
        let _ = stream.write_all(format!("HTTP/1.1 {status}\\r\\nContent-Type: text/plain\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n{:x}\\r\\n{body}\\r\\n0\\r\\n\\r\\n", body.len()).as_bytes());
    }
}

struct Router;
impl Router {
    fn route(self, _path: &str, _handler: fn()) -> Self { self }
}

fn main() {
    let _router = Router.route("/items/{id:[0-9]+}", || {});
    let listener = TcpListener::bind("0.0.0.0:0").unwrap();
    serve(listener);
}
`;


// A module that only defines an application with routes, served in the docs by a command (`flask run`): a WSGI one
// (a plain callable) and an ASGI one (an async callable), both written here with the standard library only.
const WSGI_APP = `class App:
    def __init__(self):
        self.routes = {}

    def route(self, path):
        def register(handler):
            self.routes[path] = handler
            return handler
        return register

    def __call__(self, environ, start_response):
        handler = self.routes.get(environ["PATH_INFO"])
        start_response("200 OK" if handler else "404 Not Found", [("Content-Type", "text/html")])
        return [handler().encode() if handler else b"no"]

app = App()

@app.route("/")
def hello_world():
    return "<p>Hello, World!</p>"
`;

const ASGI_APP = `class App:
    def __init__(self):
        self.routes = {}

    def get(self, path):
        def register(handler):
            self.routes[path] = handler
            return handler
        return register

    async def __call__(self, scope, receive, send):
        handler = self.routes.get(scope["path"].replace("/items/1", "/items/{item_id}"))
        await send({"type": "http.response.start", "status": 200 if handler else 404, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": handler().encode() if handler else b"no"})

app = App()

@app.get("/items/{item_id}")
def read_item():
    return '{"item_id": 1}'
`;

describe('serve-once: which programs serve, and what is asked', () => {
  it('reads the route and the named ports from the parse (express, Flask, axum, actix shapes)', async () => {
    assert.deepEqual(await servedRequest("const app = express();\napp.get('/', (req, res) => res.send('hi'));\napp.listen(3000);", 'javascript'), { path: '/', ports: [3000] });
    assert.deepEqual(await servedRequest('@app.route("/hello/<name>")\ndef hello(name):\n    return name\n\nif __name__ == "__main__":\n    app.run()', 'python'), { path: '/hello/example', ports: [] });
    assert.deepEqual(await servedRequest('import uvicorn\n@app.get("/items/{item_id}")\ndef read(item_id: int):\n    return {}\nuvicorn.run(app, host="0.0.0.0", port=8000)', 'python'), { path: '/items/1', ports: [8000] });
    assert.deepEqual(await servedRequest('#[tokio::main]\nasync fn main() {\n    let app = Router::new().route("/", get(|| async { "Hello" }));\n    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();\n    axum::serve(listener, app).await.unwrap();\n}', 'rust'), { path: '/', ports: [] });
    // actix: the server is started by an argument-less `.run()` on a bound HttpServer chain; the route is an attribute.
    assert.deepEqual(await servedRequest('#[get("/hello/{name}")]\nasync fn greet(name: web::Path<String>) -> String { name.to_string() }\n#[actix_web::main]\nasync fn main() -> std::io::Result<()> {\n    HttpServer::new(|| App::new().service(greet)).bind(("127.0.0.1", 8080))?.run().await\n}', 'rust'), { path: '/hello/example', ports: [8080] });
  });

  it('a program that starts no server is no served variant', async () => {
    assert.equal(await serves("const x = require('lodash');\nconsole.log(x.chunk([1, 2, 3], 2));", 'javascript'), false);
    assert.equal(await serves('import asyncio\nasyncio.run(main())', 'python'), false);
    assert.equal(await serves('fn main() {\n    let v = vec![1, 2];\n    println!("{v:?}");\n}', 'rust'), false);
    assert.equal(await servedOnceIn('print("hi")', 'python'), undefined);
    // Routes on a value no module-level call made (a parameter, an import) are no application to serve.
    assert.equal(await serves('from x import app\n\n@app.route("/")\ndef index():\n    return "hi"', 'python'), false);
  });
});

describe('serve-once: servers answer one request and the program exits', { skip: !isolated }, () => {
  it('Node: an ES module server started with listen answers the route it registers, then the program exits 0', async () => {
    const program = await servedOnceIn(NODE_SERVER, 'javascript');
    assert.ok(program);
    const run = runIsolated('main.mjs', program, `exec ${JSON.stringify(process.execPath)} main.mjs`);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /listening on 3000\nGET \/users\/1\nHTTP\/1\.1 200 OK\nContent-Type: application\/json\n\n\{"user":"example"\}/);
  });

  it('Node: a server that answers 404 on the route fails the program', async () => {
    const program = await servedOnceIn(NODE_SERVER.replace("'/users/1'", "'/elsewhere'"), 'javascript');
    const run = runIsolated('main.mjs', program!, `exec ${JSON.stringify(process.execPath)} main.mjs`);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /answered GET \/users\/1 with 404/);
  });

  it('Node: a program whose server never listens fails at the deadline instead of exiting quietly', async () => {
    const program = await servedOnceIn("const server = { listen() {} };\nserver.listen(3000);\nconsole.log('started?');\n", 'javascript');
    const run = runIsolated('main.cjs', program!, `exec ${JSON.stringify(process.execPath)} main.cjs`);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /did not answer GET \/ within 10 s/);
  });

  it('Python: serve_forever keeps serving in the main thread while the asking thread prints the answer and exits', { skip: !has('python3', ['--version']) }, async () => {
    const program = await servedOnceIn(PYTHON_SERVER, 'python');
    assert.ok(program);
    const run = runIsolated('main.py', program, 'exec python3 main.py');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^GET \/hello\nHTTP\/1\.0 200 OK\nContent-Type: text\/plain\n\nhello from \/hello$/m);
  });

  it('Node: a serving call the program prints stands alone (no server object dump), and the asking comes after the example', async () => {
    const program = await servedOnceIn(`${NODE_SERVER.replace("server.listen(3000, () => console.log('listening on 3000'));", 'console.log(server.listen(3000));')}`, 'javascript');
    assert.ok(program);
    assert.match(program.code, /^server\.listen\(3000\);$/m);
    assert.ok(program.code.indexOf('tooldexAsk') > program.code.indexOf('server.listen(3000)'));
    const run = runIsolated('main.mjs', program, `exec ${JSON.stringify(process.execPath)} main.mjs`);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'GET /users/1\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{"user":"example"}\n');
  });

  it('Python: the example gains one import line; the asker is a module beside it', async () => {
    const program = await servedOnceIn(PYTHON_SERVER, 'python');
    assert.ok(program);
    assert.equal(program.code.split('\n').length, PYTHON_SERVER.split('\n').length + 1);
    assert.match(program.code, /^import _tooldex_ask {2}# tooldex: asks the server below for \/hello once/);
    assert.deepEqual(program.files.map((f) => f.path), ['_tooldex_ask.py']);
  });

  it('Python: a module that begins with from __future__ imports keeps them first', async () => {
    const program = await servedOnceIn(`from __future__ import annotations\n${PYTHON_SERVER}`, 'python');
    assert.ok(program);
    assert.match(program.code, /^from __future__ import annotations\nimport _tooldex_ask/);
    const run = runIsolated('main.py', program, 'exec python3 main.py');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /hello from \/hello/);
  });

  it('Python: an application nothing serves (WSGI) is served with wsgiref on the loopback and asked once', async () => {
    const program = await servedOnceIn(WSGI_APP, 'python');
    assert.ok(program);
    assert.match(program.code, /\nimport _tooldex_ask; _tooldex_ask\.serve\(app\) {2}# tooldex: serves app and asks it for \/ once/);
    assert.match(program.note ?? '', /WSGI/);
    const run = runIsolated('main.py', program, 'exec python3 main.py');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'GET /\nHTTP/1.0 200 OK\nContent-Type: text/html\n\n<p>Hello, World!</p>\n');
  });

  it('Python: an ASGI application nothing serves gets one GET request in-process; a 404 fails it', async () => {
    const program = await servedOnceIn(ASGI_APP, 'python');
    assert.ok(program);
    const run = runIsolated('main.py', program, 'exec python3 main.py');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'GET /items/1\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{"item_id": 1}\n');
    const missing = runIsolated('main.py', (await servedOnceIn(ASGI_APP.replace('"/items/1", ', '"/elsewhere", '), 'python'))!, 'exec python3 main.py');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /answered GET \/items\/1 with 404/);
  });

  it('Rust: the std-only asker runs in a thread beside the blocking server, decodes a chunked answer and exits 0', { skip: !has('rustc', ['--version']) }, async () => {
    const program = await servedOnceIn(RUST_SERVER, 'rust');
    assert.ok(program);
    assert.match(program.code, /fn main\(\) \{\n {4}std::thread::spawn\(\|\| tooldex_ask\("\/items\/1", &\[\]\)\);/);
    const run = runIsolated('main.rs', program, 'rustc --edition 2021 -O -o main main.rs 2>&1 && exec ./main');
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(run.stdout, 'GET /items/1\nHTTP/1.1 200 OK\nContent-Type: text/plain\n\nitem one\n');
  });
});

// Go server examples run with one request (programs/go-serve.ts, issue 24 round 20): the serving statement goes to
// the background, the program asks a route it registers once, prints the request and the answer, and exits; a server
// that does not answer fails the program. The programs are built as verification builds them (goProgram with
// `serve`) and run with the host's Go in a new network namespace with loopback only, as the sandbox runs them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { goProgram } from '../../../src/quickstart/programs/go.ts';
import { concretePath, goServeCalls, servedOnce } from '../../../src/quickstart/programs/go-serve.ts';
import { parseCode } from '../../../src/quickstart/parse.ts';

const STD = new Map(['fmt', 'io', 'log', 'os', 'strconv', 'strings', 'time', 'net'].map((n) => [n, n] as [string, string]).concat([['http', 'net/http']]));

function canRun(): boolean {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    execFileSync('unshare', ['-rn', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs a std-only Go program in a fresh network namespace (loopback only, as the sandbox's run step). */
function runIsolated(program: string): { status: number | null; stdout: string; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-go-serve-'));
  try {
    fs.writeFileSync(path.join(dir, 'main.go'), program);
    const run = spawnSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up 2>/dev/null; exec go run main.go'], { cwd: dir, encoding: 'utf8', timeout: 90_000 });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const runnable = canRun();

describe('Go servers run with one request', () => {
  it('a README fragment that serves answers its own route once and exits', { skip: !runnable && 'needs go and unshare' }, async () => {
    const fragment = [
      'http.HandleFunc("/hello/{name}", func(w http.ResponseWriter, r *http.Request) {',
      '\tfmt.Fprintf(w, "Hello, %s!", r.PathValue("name"))',
      '})',
      'log.Fatal(http.ListenAndServe(":8080", nil))',
    ].join('\n');
    const program = await goProgram(fragment, 'readme', undefined, { modulePackages: {}, std: STD, serve: true });
    assert.match(program, /go func\(\) \{\n\t\tlog\.Fatal\(http\.ListenAndServe\(":8080", nil\)\)\n\t\}\(\)\n\tgo tooldexAsk\("\/hello\/example", 8080\)/);
    const run = runIsolated(program);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^GET \/hello\/example\nHTTP\/1\.1 200 OK\nContent-Type: text\/plain; charset=utf-8\n\nHello, example!\n$/);
  });

  it('a whole program on a port it does not name is found listening; what follows its serve call goes', { skip: !runnable && 'needs go and unshare' }, async () => {
    const whole = [
      'package main', '', 'import "net/http"', '',
      'func main() {',
      '\tmux := http.NewServeMux()',
      '\tmux.HandleFunc("GET /ping", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("pong")) })',
      '\terr := http.ListenAndServe("127.0.0.1:0", mux)',
      '\tif err != nil {', '\t\tpanic(err)', '\t}', '}',
    ].join('\n');
    const program = await goProgram(whole, 'readme', undefined, { modulePackages: {}, std: STD, serve: true });
    assert.doesNotMatch(program, /panic\(err\)/);
    const run = runIsolated(program);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^GET \/ping\nHTTP\/1\.1 200 OK\n[\s\S]*\npong\n$/);
  });

  it('routes registered after the serve call (a combined fragment) are served: the request runs beside them', { skip: !runnable && 'needs go and unshare' }, async () => {
    const fragment = [
      'mux := http.NewServeMux()',
      'go http.ListenAndServe("127.0.0.1:0", mux)',
      'srv := &http.Server{Addr: "127.0.0.1:8083", Handler: mux}',
      'srv.ListenAndServe()',
      'mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello world") })',
    ].join('\n');
    const program = await goProgram(fragment, 'readme', undefined, { modulePackages: {}, std: STD, serve: true });
    assert.match(program, /\tgo tooldexAsk\("\/hello"\)\n\tmux\.HandleFunc\([^\n]*\n\tselect \{\} \/\/ tooldexAsk ends the program\n\}/);
    const run = runIsolated(program);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^GET \/hello\nHTTP\/1\.1 200 OK\n[\s\S]*\nhello world\n$/);
  });

  it('a 404 answer (no route there) fails the program', { skip: !runnable && 'needs go and unshare' }, async () => {
    const fragment = 'http.ListenAndServe(":8084", http.NotFoundHandler())';
    const run = runIsolated(await goProgram(fragment, 'readme', undefined, { modulePackages: {}, std: STD, serve: true }));
    assert.equal(run.status, 1);
    assert.match(run.stderr, /answered GET \/ with 404 Not Found: it serves no route there/);
  });

  it('a server that never answers fails the program', { skip: !runnable && 'needs go and unshare' }, async () => {
    const fragment = [
      'http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { time.Sleep(time.Hour) })',
      'http.ListenAndServe(":8081", nil)',
    ].join('\n');
    const run = runIsolated(await goProgram(fragment, 'readme', undefined, { modulePackages: {}, std: STD, serve: true }));
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /the server did not answer GET \/ within 10 s/);
  });

  it('a value routes are registered on and then run serves (h.Spin(), m.Run()); a route group prefixes its routes', async () => {
    const hertz = 'package main\nfunc main() {\n\th := server.Default()\n\tv1 := h.Group("/v1")\n\tv1.GET("/ping/:id", func(c context.Context, ctx *app.RequestContext) { ctx.JSON(200, "pong") })\n\th.Use(mw)\n\th.Spin()\n}';
    const calls = goServeCalls(await parseCode('go', hertz));
    assert.deepEqual(calls.map((c) => c.text), ['h.Spin()']);
    const served = await servedOnce(hertz);
    assert.match(served ?? '', /go func\(\) \{\n\t\th\.Spin\(\)\n\t\}\(\)\n\tgo tooldexAsk\("\/v1\/ping\/1"\)/);
    // Routes alone, with nothing run after them, serve nothing: left as they are.
    assert.equal(await servedOnce('package main\nfunc main() {\n\tr := mux.NewRouter()\n\tr.HandleFunc("/", home)\n\tfmt.Println(r)\n}'), undefined);
    assert.deepEqual(goServeCalls(await parseCode('go', 'package main\nfunc main() {\n\tt.Run("case", f)\n\tfmt.Println(strings.Split("a/b", "/"))\n}')), []);
  });

  it("the request helper's imports are its own: a module's packages named http or resp are not taken for them", async () => {
    const fragment = 'r := gin.Default()\nr.GET("/ping", func(c *gin.Context) { c.String(200, "pong") })\nr.Run(":8080")';
    const program = await goProgram(fragment, 'readme', undefined, {
      modulePackages: { gin: 'github.com/gin-gonic/gin', http: 'github.com/example/kit/transport/http', resp: 'github.com/example/kit/protocol/resp', client: 'github.com/example/kit/client' },
      std: STD, serve: true,
    });
    assert.match(program, /\tnethttp "net\/http"\n/);
    assert.doesNotMatch(program, /transport\/http|protocol\/resp|kit\/client/);
    assert.match(program, /go func\(\) \{\n\t\tr\.Run\(":8080"\)\n\t\}\(\)\n\tgo tooldexAsk\("\/ping", 8080\)/);
  });

  it('route patterns become paths a client asks for', () => {
    assert.equal(concretePath('/user/:name/*action'), '/user/example/');
    assert.equal(concretePath('GET /items/{id}'), '/items/1');
    assert.equal(concretePath('/items/{item_id}'), '/items/1');
    assert.equal(concretePath('/post/<int:post_id>'), '/post/1');
    assert.equal(concretePath('/user/<username>'), '/user/example');
    assert.equal(concretePath('/users/:userId/books/:bookId'), '/users/1/books/1');
    assert.equal(concretePath('/articles/{id:[0-9]+}'), '/articles/1');
    assert.equal(concretePath('/files/{path...}'), '/files/');
    assert.equal(concretePath('/hello/(?P<name>[a-zA-Z]+)'), '/hello/example');
    assert.equal(concretePath('/posts/(?P<id>\\d+)'), '/posts/1');
  });
});

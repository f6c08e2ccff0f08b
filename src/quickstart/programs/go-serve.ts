// Go servers shown answering one request (issue 24, round 20). A web framework's or middleware's main use is a server
// answering a request, and its README shows one (`r := gin.Default(); r.GET("/ping", …); r.Run()`): a program that
// listens never exits, so such examples used to be skipped (exits.ts) and the verified quickstart was a side helper.
// Here the program is rewritten from its parse so that the statement that serves runs in the background and the
// program, once anything listens, makes one GET request to a route it registers, prints the request and the answer,
// and exits. The listening port is read from /proc/net/tcp{,6} of the sandbox's own network namespace (loopback only;
// nothing else listens there), so no framework's default port is assumed; a literal address the example gives is
// tried too. A server that answers nothing within the deadline makes the program fail: it is not verified.
import { descendants, namedChildren, parseCode, type SyntaxNode } from '../parse.ts';
import { serveCallsIn } from '../exits.ts';

/** How a program's request is shown in the quickstart's note. */
export const SERVED_NOTE = 'The example starts a server, which never exits by itself: tooldex ran it with the server in the background and one GET request to a route it registers, made from inside the same sandbox (its own loopback), and the program prints that request and the answer, then exits.';

/** Route registrations: a method named for GET (or any method), given a path literal first. */
const GET_ROUTES = /^(GET|Get|get|Any|HandleFunc|Handle|Handler|HandlerFunc|Route|Path|Match|Static|StaticFS|Page)$/;
const OTHER_ROUTES = /^(POST|Post|PUT|Put|PATCH|Patch|DELETE|Delete|HEAD|Head|OPTIONS|Options)$/;
/** Route groups: a prefix the routes registered on the group are under (`v1 := r.Group("/v1")`). */
const GROUPS = /^(Group|Party|Route|PathPrefix|Mount)$/;
const ASK = 'tooldexAsk';
/**
 * Imports the request helper needs under a name of its own: a module may have a package of the same name (go-kit's
 * `transport/http`), which the program's imports would otherwise take for the helper's `http`.
 */
export const SERVE_IMPORTS: Record<string, string> = { nethttp: 'net/http' };
/** How long a served program waits for its server's answer before it fails (every ecosystem's asker: serve-once.ts too). */
export const DEADLINE_SECONDS = 10;

function calleeOf(call: SyntaxNode): { name: string; receiver?: SyntaxNode } {
  const fn = call.childForFieldName('function');
  if (fn?.type === 'selector_expression') return { name: fn.childForFieldName('field')?.text ?? '', receiver: fn.childForFieldName('operand') ?? undefined };
  return { name: fn?.text ?? '' };
}

function firstArgument(call: SyntaxNode): SyntaxNode | undefined {
  const args = call.childForFieldName('arguments');
  return args ? namedChildren(args).find((n) => n.type !== 'comment') : undefined;
}

function stringValue(node: SyntaxNode | undefined): string | undefined {
  if (!node || !/^(interpreted_string_literal|raw_string_literal)$/.test(node.type)) return undefined;
  return node.text.slice(1, -1);
}

/** A route pattern as a path a client can ask for: parameters get a sample, wildcards nothing. */
export function concretePath(pattern: string): string {
  // A parameter whose class or name says a number (`{id:[0-9]+}`, `{item_id}`, `:page`) gets 1: a typed route (FastAPI's
  // `item_id: int`) refuses a word there.
  const sample = (shape: string, name = '') => (/\\d|\[0-9\]|int|uint|number|digit/.test(shape) || /(^|_)(id|num|number|no|count|page|year|index|idx)$|[a-z]Id$/.test(name) ? '1' : 'example');
  let path = pattern
    // Go 1.22's `GET /items/{id}` patterns name a method and a host first.
    .replace(/^[A-Z]+\s+/, '')
    // A regular expression's named group (martini's `/hello/(?P<name>[a-zA-Z]+)`): a sample its class matches.
    .replace(/\(\?P?<\w+>([^()]*)\)/g, (_, shape: string) => sample(shape))
    .replace(/\{(\w+)(?::([^}]*))?\}/g, (_, name: string, shape?: string) => sample(shape ?? '', name))
    .replace(/\{[^}]*\.\.\.\}/g, '')
    // Flask's `<int:post_id>`, `<name>`: the converter or the name says a number.
    .replace(/<(?:(\w+):)?(\w+)>/g, (_, converter: string | undefined, name: string) => sample(converter ?? '', name))
    .replace(/:(\w+)/g, (_, name: string) => sample('', name))
    .replace(/\*\w*/g, '');
  if (!path.startsWith('/')) path = `/${path.replace(/^[^/]*/, '')}`;
  return path.replace(/\/{2,}/g, '/');
}

/**
 * The path to ask: the first route registered for GET (or for any method), under its group's prefix; else the first
 * route of another method; else `/`.
 */
function routeToAsk(root: SyntaxNode): string {
  const prefixes = new Map<string, string>();
  for (const declaration of descendants(root, ['short_var_declaration', 'assignment_statement'])) {
    const left = declaration.childForFieldName('left')?.namedChildren[0];
    const right = declaration.childForFieldName('right')?.namedChildren[0];
    if (left?.type !== 'identifier' || right?.type !== 'call_expression') continue;
    const { name, receiver } = calleeOf(right);
    const prefix = stringValue(firstArgument(right));
    if (GROUPS.test(name) && prefix !== undefined && prefix.startsWith('/')) prefixes.set(left.text, `${receiver ? prefixes.get(receiver.text) ?? '' : ''}${prefix}`);
  }
  let other: string | undefined;
  for (const call of descendants(root, 'call_expression')) {
    const { name, receiver } = calleeOf(call);
    const pattern = stringValue(firstArgument(call));
    if (pattern === undefined || !/^(\/|[A-Z]+ \/)/.test(pattern)) continue;
    const path = concretePath(`${receiver ? prefixes.get(receiver.text) ?? '' : ''}${pattern}`);
    if (GET_ROUTES.test(name) && !/^(POST|PUT|PATCH|DELETE) /.test(pattern)) return path;
    if (OTHER_ROUTES.test(name)) other ??= path;
  }
  return other ?? '/';
}

/** Ports a serving call names (`":8080"`, `"localhost:3000"`, `8080`). */
function portsNamed(call: SyntaxNode): number[] {
  const first = firstArgument(call);
  const text = stringValue(first) ?? first?.text ?? '';
  const port = /(?:^|:)(\d{2,5})$/.exec(text)?.[1];
  return port && Number(port) < 65536 ? [Number(port)] : [];
}

/**
 * Calls that serve in a Go program: those exits.ts reads as serving, and a method called as a whole statement on a
 * value routes are registered on (`h.GET("/ping", …)` then `h.Spin()`; martini's `m.Run()`), the last such call.
 */
export function goServeCalls(root: SyntaxNode): SyntaxNode[] {
  const found = serveCallsIn(root);
  // A group's routes (`v1 := h.Group("/v1")`) are served by the value the group was made from.
  const groupOf = new Map<string, string>();
  for (const declaration of descendants(root, 'short_var_declaration')) {
    const left = declaration.childForFieldName('left')?.namedChildren[0];
    const right = declaration.childForFieldName('right')?.namedChildren[0];
    const made = right?.type === 'call_expression' ? calleeOf(right) : undefined;
    if (left?.type === 'identifier' && made?.receiver?.type === 'identifier' && GROUPS.test(made.name)) groupOf.set(left.text, made.receiver.text);
  }
  const owner = (name: string) => { let at = name; for (let i = 0; i < 8 && groupOf.has(at); i++) at = groupOf.get(at)!; return at; };
  const routed = new Set<string>();
  for (const call of descendants(root, 'call_expression')) {
    const { name, receiver } = calleeOf(call);
    if (receiver?.type === 'identifier' && (GET_ROUTES.test(name) || OTHER_ROUTES.test(name)) && /^"\/|^`\/|^"[A-Z]+ \//.test(firstArgument(call)?.text ?? '')) routed.add(owner(receiver.text));
  }
  for (const name of routed) {
    const last = descendants(root, 'expression_statement').map((s) => s.namedChildren[0]).filter((c): c is SyntaxNode => c?.type === 'call_expression')
      .filter((c) => { const { name: method, receiver } = calleeOf(c); return receiver?.text === name && !GET_ROUTES.test(method) && !OTHER_ROUTES.test(method) && !GROUPS.test(method) && !/^(Use|Add|Set\w*|Register\w*|With\w*|Name|Close|Shutdown|Stop)$/.test(method) && !firstArgument(c); })
      .pop();
    if (last && !found.some((f) => f.equals(last))) found.push(last);
  }
  return found;
}

/** The statement of a block that holds the node. */
function statementOf(node: SyntaxNode): SyntaxNode | undefined {
  let at: SyntaxNode | null = node;
  while (at?.parent && !/^(statement_list|block)$/.test(at.parent.type)) at = at.parent;
  return at?.parent ? at : undefined;
}

const indent = (text: string) => text.split('\n').map((l) => (l.trim() ? `\t${l}` : l)).join('\n');

/**
 * The program with its serving statement run in the background and one request made to it, or undefined when the
 * program serves nothing this can rewrite.
 */
export async function servedOnce(program: string): Promise<string | undefined> {
  const root = await parseCode('go', program);
  const calls = goServeCalls(root);
  // The call that blocks: one already started with `go` (`go srv.ListenAndServe()`) blocks nothing, unless all are.
  const call = calls.find((c) => statementOf(c)?.type !== 'go_statement') ?? calls[0];
  const statement = call ? statementOf(call) : undefined;
  if (!call || !statement) return undefined;
  const path = routeToAsk(root);
  const ports = [...new Set(calls.flatMap(portsNamed))];
  const ask = `go ${ASK}(${JSON.stringify(path)}${ports.map((p) => `, ${p}`).join('')})`;
  // The request runs beside the rest of the block (routes a combined fragment registers after `m.Run()`, a graceful
  // shutdown's `<-quit`), and the block ends waiting for it: the request ends the program, whatever comes first.
  const wait = `select {} // ${ASK} ends the program`;
  const list = statement.parent!;
  const block = list.type === 'block' ? list : list.parent?.type === 'block' ? list.parent : undefined;
  if (!block) return undefined;
  let replacement: string;
  let end = statement.endIndex;
  let tail = '';
  if (statement.type === 'return_statement') {
    // `return srv.ListenAndServe()`: served in the background; the function still ends in a terminating statement.
    const value = statement.namedChildren[0]?.text ?? '';
    replacement = `go func() {\n\t_ = ${value}\n}()\n${ask}\n${wait}`;
  } else if (statement.type === 'short_var_declaration' || statement.type === 'var_declaration') {
    // `err := e.Start(":1323")`: what follows reads names bound here (it handles the server's error, reached only when
    // serving stops), so it goes with the statement.
    const names = statement.type === 'short_var_declaration' ? descendants(statement.childForFieldName('left')!, 'identifier').map((n) => n.text).filter((n) => n !== '_') : [];
    replacement = `go func() {\n${indent(statement.text)}\n${names.map((n) => `\t_ = ${n}`).join('\n')}\n}()\n${ask}\n${wait}`;
    end = block.endIndex - 1;
  } else {
    replacement = `go func() {\n${indent(statement.text)}\n}()\n${ask}`;
    tail = wait;
  }
  const column = statement.startPosition.column;
  const lead = program.slice(program.lastIndexOf('\n', statement.startIndex - 1) + 1, statement.startIndex);
  const pad = /^\s*$/.test(lead) ? lead : ' '.repeat(column);
  const aligned = replacement.split('\n').map((l, i) => (i === 0 || !l ? l : `${pad}${l}`)).join('\n');
  const close = block.endIndex - 1;
  const rest = end < close ? program.slice(end, close).replace(/\s+$/, '') : '';
  const rewritten = `${program.slice(0, statement.startIndex)}${aligned}${rest}${tail ? `\n${pad}${tail}` : ''}\n${program.slice(program.lastIndexOf('\n', close - 1) + 1)}`;
  return `${rewritten.replace(/\s+$/, '')}\n\n${ASK_FUNC}\n`;
}

const ASK_FUNC = `// ${ASK} waits for the server the example starts (${DEADLINE_SECONDS} s at most), asks it for one path from
// inside this sandbox, prints the request and the answer, and ends the program. A server that does not answer fails it.
func ${ASK}(path string, named ...int) {
\tasker := &nethttp.Client{Timeout: 5 * time.Second}
\tdeadline := time.Now().Add(${DEADLINE_SECONDS} * time.Second)
\tfor time.Now().Before(deadline) {
\t\tports := append([]int{}, named...)
\t\tfor _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
\t\t\tdata, _ := os.ReadFile(table)
\t\t\tfor _, line := range strings.Split(string(data), "\\n")[1:] {
\t\t\t\tfields := strings.Fields(line)
\t\t\t\tif len(fields) < 4 || fields[3] != "0A" {
\t\t\t\t\tcontinue
\t\t\t\t}
\t\t\t\tif i := strings.LastIndex(fields[1], ":"); i >= 0 {
\t\t\t\t\tif port, err := strconv.ParseUint(fields[1][i+1:], 16, 16); err == nil {
\t\t\t\t\t\tports = append(ports, int(port))
\t\t\t\t\t}
\t\t\t\t}
\t\t\t}
\t\t}
\t\tfor _, port := range ports {
\t\t\tanswer, err := asker.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
\t\t\tif err != nil {
\t\t\t\tcontinue
\t\t\t}
\t\t\tbody, _ := io.ReadAll(io.LimitReader(answer.Body, 2000))
\t\t\tanswer.Body.Close()
\t\t\tif answer.StatusCode == nethttp.StatusNotFound {
\t\t\t\tfmt.Fprintf(os.Stderr, "tooldex: the server answered GET %s with %s: it serves no route there\\n", path, answer.Status)
\t\t\t\tos.Exit(1)
\t\t\t}
\t\t\tfmt.Printf("GET %s\\n%s %s\\n", path, answer.Proto, answer.Status)
\t\t\tif kind := answer.Header.Get("Content-Type"); kind != "" {
\t\t\t\tfmt.Printf("Content-Type: %s\\n", kind)
\t\t\t}
\t\t\tfmt.Printf("\\n%s\\n", strings.TrimRight(string(body), "\\n"))
\t\t\tos.Exit(0)
\t\t}
\t\ttime.Sleep(100 * time.Millisecond)
\t}
\tfmt.Fprintf(os.Stderr, "tooldex: the server did not answer GET %s within ${DEADLINE_SECONDS} s\\n", path)
\tos.Exit(1)
}`;

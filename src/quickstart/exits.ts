// Programs that cannot exit on their own: servers (`app.listen(3000)`, `http.ListenAndServe`, `uvicorn.run`), endless
// loops (`while True:` with no way out, Go's `for {}`, Rust's `loop {}`), a `setInterval` nothing clears, Go's
// `select {}`. Run, they end only at the sandbox's deadline, and an agent that copies one waits forever. Read from
// real parses (calls, loops and their exits), so a `listen` in a comment or a string does not count.
import { descendants, namedChildren, parseCode, type Grammar, type SyntaxNode } from './parse.ts';

/** Methods or functions that block serving requests until the process is killed. */
const SERVE_CALLS = new Set(['listen', 'serve', 'serve_forever', 'run_forever', 'ListenAndServe', 'ListenAndServeTLS', 'Serve', 'ServeTLS',
  'run_app', 'run_until_disconnected', 'start_polling', 'run_polling', 'idle']);
/** Generic names (`app.run(…)`, `e.Start(":1323")`) that serve only when given an address or called on a web app. */
const SERVE_IF_ADDRESSED = new Set(['run', 'Run', 'Start', 'Listen', 'start']);
const APP_RECEIVER = /^(app|application|server|srv|uvicorn|hypercorn|waitress|web|bot|router|r|e|engine)$/;
const ADDRESS = /^["'`](:\d+|[\w.-]*:\d+|0\.0\.0\.0|localhost|127\.0\.0\.1)["'`]$|^\d{2,5}$/;

const LOOPS: Record<string, string[]> = {
  javascript: ['while_statement', 'for_statement', 'do_statement'], typescript: ['while_statement', 'for_statement', 'do_statement'],
  tsx: ['while_statement', 'for_statement', 'do_statement'], python: ['while_statement'], go: ['for_statement'],
  rust: ['loop_expression', 'while_expression'],
};
const ALL_LOOPS = ['while_statement', 'for_statement', 'do_statement', 'for_in_statement', 'loop_expression', 'while_expression', 'for_expression'];
/** Ways out of a loop besides `break`: returning, raising, exiting the process. */
const EXIT_NODES = ['return_statement', 'return_expression', 'throw_statement', 'raise_statement', 'try_expression'];
const EXIT_CALLS = /^(process\.exit|sys\.exit|exit|quit|os\.Exit|panic|log\.Fatal\w*|std::process::exit|process::exit|panic!|unreachable!|os\._exit)$/;

/** The name a call calls (`app.listen` → listen) and its receiver (`app`). */
function callee(call: SyntaxNode): { name: string; receiver: string; full: string } {
  const fn = call.childForFieldName('function') ?? call.childForFieldName('macro') ?? call.namedChildren[0];
  const full = fn?.text ?? '';
  const name = fn?.childForFieldName('property')?.text ?? fn?.childForFieldName('attribute')?.text ?? fn?.childForFieldName('field')?.text
    ?? fn?.childForFieldName('name')?.text ?? full.split(/[.:]+/).pop() ?? '';
  const object = fn?.childForFieldName('object') ?? fn?.childForFieldName('operand') ?? fn?.childForFieldName('value') ?? fn?.childForFieldName('path');
  return { name, receiver: object?.text.split(/[.:]+/).pop() ?? '', full };
}

function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  return args ? namedChildren(args).filter((n) => n.type !== 'comment') : [];
}

function servesRequests(call: SyntaxNode): string | undefined {
  const { name, receiver, full } = callee(call);
  if (SERVE_CALLS.has(name)) {
    // `server.listen(…)` is a server; `emitter.listen` or a Python `socket.listen(5)` without a loop is rarer than the
    // README servers this catches, and both keep the process alive in the examples that show them.
    return `${full}(…) serves until it is stopped`;
  }
  if (!SERVE_IF_ADDRESSED.has(name)) return undefined;
  const args = argumentsOf(call);
  const first = args[0];
  const addressed = Boolean(first && ADDRESS.test(first.text)) || args.some((a) => /^(port|host)\b/.test(a.text) && a.type.includes('keyword'));
  if (addressed || (APP_RECEIVER.test(receiver) && /^(run|Run)$/.test(name) && !/^(asyncio|trio|anyio|subprocess|cmd|exec)$/.test(receiver))) {
    return `${full}(${first?.text ?? ''}) serves until it is stopped`;
  }
  return undefined;
}

/** Whether the loop is endless by its condition: `while True`, `while (true)`, `for (;;)`, Go's bare `for {}`, Rust's `loop`. */
function endlessCondition(loop: SyntaxNode, grammar: Grammar): boolean {
  if (loop.type === 'loop_expression') return true;
  if (grammar === 'go') return !namedChildren(loop).some((c) => /clause|expression|identifier|call|binary|unary|true|false/.test(c.type) && c.type !== 'block');
  if (loop.type === 'for_statement') {
    const condition = loop.childForFieldName('condition');
    return !condition || /^(;|)$/.test(condition.text.trim()) || /^(true|1)\s*;?$/.test(condition.text.trim());
  }
  const condition = loop.childForFieldName('condition');
  return /^\(?\s*(true|True|1|!0)\s*\)?$/.test(condition?.text ?? '');
}

/** Whether something inside the loop leaves it: a `break` that belongs to it (or names a label), a return, an exit. */
function hasWayOut(loop: SyntaxNode): boolean {
  const body = loop.childForFieldName('body') ?? loop;
  for (const brk of descendants(body, ['break_statement', 'break_expression'])) {
    if (namedChildren(brk).some((c) => /label/.test(c.type))) return true;
    let owner = brk.parent;
    while (owner && !ALL_LOOPS.includes(owner.type) && !/function|closure|lambda|method/.test(owner.type)) owner = owner.parent;
    if (owner?.equals(loop) || owner?.equals(body)) return true;
  }
  if (descendants(body, EXIT_NODES).length) return true;
  // Go's `select` on a context or a channel that closes is how a loop ends there: a `case` with a return/break is counted above.
  return descendants(body, ['call_expression', 'call', 'macro_invocation']).some((call) => EXIT_CALLS.test(callee(call).full));
}

/** The calls that serve requests until the process is killed (`r.Run(":8080")`, `http.ListenAndServe(…)`), in order. */
export function serveCallsIn(root: SyntaxNode): SyntaxNode[] {
  return descendants(root, ['call_expression', 'call', 'macro_invocation']).filter((call) => servesRequests(call));
}

/**
 * Why the program would not exit by itself, or undefined when nothing says so. `servers: false` reads loops and
 * timers only (a server program rewritten to answer one request and exit: programs/go-serve.ts).
 */
export function neverExitsIn(root: SyntaxNode, grammar: Grammar, servers = true): string | undefined {
  for (const call of servers ? descendants(root, ['call_expression', 'call', 'macro_invocation']) : []) {
    const why = servesRequests(call);
    if (why) return `runs a server: ${why.slice(0, 120)}`;
  }
  for (const loop of descendants(root, LOOPS[grammar] ?? [])) {
    if (endlessCondition(loop, grammar) && !hasWayOut(loop)) return `loops forever: ${loop.text.split('\n')[0]!.slice(0, 80)}`;
  }
  if (grammar === 'javascript' || grammar === 'typescript' || grammar === 'tsx') {
    const calls = descendants(root, 'call_expression').map((c) => callee(c).full);
    // An interval nothing clears, and not `.unref()`'d, keeps Node's event loop alive for good.
    if (calls.includes('setInterval') && !calls.includes('clearInterval') && !/setInterval\([\s\S]*\)\s*\.unref\(\)/.test(root.text)) {
      return 'repeats forever: setInterval(…) is never cleared';
    }
  }
  if (grammar === 'go' && descendants(root, 'select_statement').some((s) => !namedChildren(s).some((c) => /communication_case|default_case/.test(c.type)))) {
    return 'blocks forever: select {}';
  }
  return undefined;
}

export async function neverExits(code: string, grammar: Grammar, servers = true): Promise<string | undefined> {
  return neverExitsIn(await parseCode(grammar, code), grammar, servers);
}

// Reads a sandbox result as a verification outcome: did the program print something meaningful (non-empty stdout
// that is not just an error or an empty value), and if not, the one line of its output that says why.
import type { TestResult } from '../sandbox/schema.ts';

// An empty text or byte string printed as a value (`b''`: hyperframe's empty frame body, a placeholder file read back
// by smart-open) is no result either.
const EMPTY_VALUE = /^(undefined|null|None|nil|<nil>|\(\)|NaN|\[object Object\]|Promise \{ <pending> \}|Ok\(\(\)\)|\[\]|\{\}|set\(\)|b''|b""|''|""|bytearray\(b''\))$/;
/** A definition printed instead of a result: a function, class or module object, or an address-only repr. */
const DEFINITION = /^(\[(Function|class|AsyncFunction)\b.*\]|<(function|class|module|bound method|built-in function|method|coroutine|generator|async_generator)\b.*>|<[\w. ]+ at 0x[0-9a-f]+>)$/;
/**
 * A memory address as runtimes print one: any hex number where the text says so (`object at 0x…`, `ptr: 0x…`,
 * `vtable: 0x…`), or a pointer-sized one, 9 to 12 significant hex digits (64-bit user space lies below 2^48: heap and
 * binaries at 0x55…, mappings and stacks at 0x7f…, Go's heap at 0xc000…). A computed value (`0xff`, a CRC's 8 digits,
 * a hash's 16 or 64) is neither.
 */
const ADDRESS = /(?<=\b(?:at|ptr|pointer|vtable|addr|address)\W{0,3})0x[0-9a-f]+\b|\b0x0*[1-9a-f][0-9a-f]{8,11}\b/gi;
/** What still says something once addresses are gone: a number, a non-empty string, a boolean (not names or punctuation). */
const INFORMATIVE = /(?<![\w$.])[-+]?\.?\d|"[^"\n]+"|'[^'\n]+'|\b(true|false|True|False)\b/;
/** A Rust panic's first line, with or without the thread id newer toolchains print (`thread 'main' (12345) panicked at …`). */
const PANIC_LINE = /^thread '[^']*'( \(\d+\))? panicked at /;
/** Node's inspection of a class or function (possibly multi-line): the first line gives it away. */
const INSPECTED_DEFINITION = /^(<ref \*\d+> )?\[(class|Function|AsyncFunction)\b/;
const ERROR_START = /^(Traceback \(most recent call last\)|panic:|Uncaught|\w*(Error|Exception)(:|\b.*:))/;
/**
 * A line of a stack or traceback, as the runtimes print them under an error: V8's `at fn (file:1:2)`, Python's `File
 * "…", line N` (the source line and carets under it), Go's `goroutine 1 [running]:` and `/path/x.go:12 +0x1d`, Rust's
 * backtrace (`stack backtrace:`, `0: module::fn`, `at src/main.rs:3:5`, the RUST_BACKTRACE note), Java-style `... 3
 * more` and `Caused by:`. Set aside wherever they stand: a result does not look like these.
 */
const FRAME_LINE = /^(at\s+\S.*|File ".*", line \d+.*|\^+~*|~*\^+|goroutine \d+ \[.*\]:?|\S+\.go:\d+( \+0x[0-9a-f]+)?|exit status \d+|stack backtrace:|\d+: \S+|note: run with `RUST_BACKTRACE=.*|\.\.\. \d+ more|Caused by:.*)$/;
/**
 * The fields of an error object (V8's `{ errno: -2, code: 'ENOENT', … }` tail), a bracket, a bare number: part of an
 * error only directly after its line (or its stack) or inside the `{ … }` block opened there. Elsewhere they are the
 * program's result (`name: John`, `status: 200`, `42`).
 */
const ERROR_DETAIL = /^(\[?\d+\]?|[{}\]],?|(code|errno|syscall|path|address|port|hostname|cause|status|name):\s.*)$/;
/**
 * A lead-in the program wrote around an error it caught (`Failed with error: …`, `An error occurred: …`, `Request
 * failed: …`, `error parsing config: …`): a clause of a few words that names an error or failure (not `no errors:` or
 * `0 errors:`), then a colon and the message.
 */
const FAILURE_LEAD = /^(?:[\w'"()[\].,-]+ ){0,5}?(?:[\w'"()[\].,-]*\b)?(?<!\b(?:no|0|zero|without) )(error|errors|exception|failed|failure|fatal|panicked|could not|cannot|unable to)\b[^:\n]{0,60}:\s*\S/i;
/** The value after such a lead-in that says there is none, or names a setting (`Errors found: 0`, `error handling: enabled`). */
const NO_FAILURE_VALUE = /^(0|none|false|no|nil|<nil>|null|off|on|enabled|disabled|\[\])\s*([,;.]|$)/i;

/** A lead-in whose value says there was no error: Go's `err: <nil>`, Python's `Error: None`, `errors: 0`. */
function noFailureReported(line: string): boolean {
  const lead = FAILURE_LEAD.exec(line);
  return !!lead && NO_FAILURE_VALUE.test(line.slice(lead.index + lead[0].length - 1));
}
/** An OS-level error's signature: Rust's `(os error 2)`, `connection refused`, `no such file or directory`, … */
const OS_FAILURE = /\(os error \d+\)|\b(connection refused|no such file or directory|permission denied|timed out)\b/i;
/** An OS error code as Node and libuv print them (`ENOENT:`, `connect ECONNREFUSED 127.0.0.1:6379`); case matters. */
const ERRNO_CODE = /\bE[A-Z]{3,}\b(:|\s+\S+:\d+)/;
/**
 * The package's verdict about the program's input, which for a validator is the result it exists to give (`Validation
 * failed: email must be a valid email`, `ValidationError: "age" is required`): the error names validation, or its
 * message states a constraint on a value. Not told apart from a setup error by anything surer, so the doubt goes to
 * accepting (a program refused wrongly loses a quickstart that teaches). An OS or errno signature is never a verdict.
 */
const VERDICT = /\b(validation|validator|validating)\b|\b(must|should)( not)? (be|have|match|contain)\b|\b(is|are) (required|not allowed)\b/i;

function verdict(line: string): boolean {
  return VERDICT.test(line) && !OS_FAILURE.test(line) && !ERRNO_CODE.test(line);
}

/** A line that states a failure of the run (a runtime error line, a caught error's lead-in, an OS error), not a verdict. */
function failing(line: string): boolean {
  if (PANIC_LINE.test(line) || OS_FAILURE.test(line) || ERRNO_CODE.test(line)) return true;
  if (verdict(line) || noFailureReported(line)) return false;
  if (ERROR_START.test(line)) return true;
  return FAILURE_LEAD.test(line); // a lead-in whose value says there was none returned false above
}

/**
 * Whether a result follows a definition printed first: the inspection's own lines (`<ref *1> [Function: ok] {` … `}`)
 * are set aside, and a line after them that is neither an empty value nor a definition is a result. READMEs written as
 * checks often compare the export with the builtin it stands for first (es-object-atoms: `assert.equal($Object,
 * Object)`, printed as `console.log($Object)`, `[Function: Object]`) and then call its functions (`isObject({})`: true).
 */
function resultAfterInspection(lines: string[]): boolean {
  let depth = 0;
  let rest = lines.length;
  for (const [i, line] of lines.entries()) {
    depth += (/[{[]$/.test(line) ? 1 : 0) - (/^[}\]]/.test(line) ? 1 : 0);
    if (depth <= 0) { rest = i + 1; break; }
  }
  return lines.slice(rest).some((l) => !EMPTY_VALUE.test(l) && !DEFINITION.test(l) && !INSPECTED_DEFINITION.test(l));
}

export function meaningfulStdout(stdout: string): { ok: boolean; why?: string } {
  const lines = stdout.split('\n').map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return { ok: false, why: 'ran but printed nothing' };
  if (lines.every((l) => EMPTY_VALUE.test(l))) return { ok: false, why: `printed only ${lines[0]}` };
  if (lines.every((l) => EMPTY_VALUE.test(l) || DEFINITION.test(l)) || (INSPECTED_DEFINITION.test(lines[0]!) && !resultAfterInspection(lines))) {
    return { ok: false, why: `printed a definition, not a result: ${lines[0]!.slice(0, 80)}` };
  }
  if (onlyAddresses(stdout)) return { ok: false, why: `printed only memory addresses, not a result: ${lines[0]!.slice(0, 80)}` };
  // A module or object of functions printed whole (`{ parse: [Function: parse], valid: [Function: valid], … }`).
  const members = lines.filter((l) => /^[\w$'"]+:\s/.test(l));
  if (/^\{$|^[\w$]+ \{$/.test(lines[0]!) && members.length >= 3 && members.filter((l) => /\[(Function|class|AsyncFunction)\b/.test(l)).length / members.length >= 0.6) {
    return { ok: false, why: `printed a module of functions, not a result: ${lines.slice(0, 2).join(' ').slice(0, 80)}` };
  }
  if ((ERROR_START.test(lines[0]!) && !verdict(lines[0]!) && !noFailureReported(lines[0]!) || PANIC_LINE.test(lines[0]!)) && lines.length <= 4) return { ok: false, why: `printed an error: ${lines[0]!.slice(0, 160)}` };
  const caught = caughtErrorOnly(lines);
  if (caught) return { ok: false, why: `printed only an error it caught, not a result: ${caught.slice(0, 160)}` };
  return { ok: true };
}

/**
 * The failure line when the output is nothing but an error the program caught and printed (`console.log(err)` with its
 * stack, `print(f"Failed with error: {e}")`, `println!("error: {e}")`): once the stack's lines are set aside, every line
 * left states a failure, and at most four are left. The program ran to its end, but what it shows is that the
 * package's call failed, not what the package does. A result printed beside an error (`parsed 3 rows` then a warning)
 * still counts. An error's fields and bare numbers are set aside only under an error line (`name: John` alone is a
 * result), and a validator's verdict about the program's input is a result, not a failure (see VERDICT).
 */
export function caughtErrorOnly(lines: string[]): string | undefined {
  const told: string[] = [];
  let afterError = false; // the line before was an error's line, its stack, or its fields
  let depth = 0; // inside the `{ … }` (or `[ … ]`) block an error's line or stack opened
  lines.forEach((line, i) => {
    if (depth > 0) {
      depth += (/[{[]$/.test(line) ? 1 : 0) - (/^[}\]]/.test(line) ? 1 : 0);
      return;
    }
    // Python prints the source line under each `File "…", line N` of a traceback: part of the stack too.
    const sourceLine = i > 0 && /^File ".*", line \d+/.test(lines[i - 1]!);
    if (FRAME_LINE.test(line) || sourceLine || afterError && ERROR_DETAIL.test(line)) {
      if (afterError && /[{[]$/.test(line)) depth = 1;
      return;
    }
    told.push(line);
    afterError = failing(line);
    // A runtime's error line that opens its fields (`Error: boom {`); not a lead-in's list (`errors: [` of a validator).
    if (afterError && ERROR_START.test(line) && /\{$/.test(line)) depth = 1;
  });
  if (!told.length || told.length > 4) return undefined;
  return told.every(failing) ? told[0] : undefined;
}

/**
 * Output whose only values are memory addresses (`Waker { data: 0x0, vtable: 0x55d1… }`, `<Client object at 0x7f…>`):
 * the names around them are the program's own, and an address differs on every run, so it proves nothing ran right.
 * A null pointer (`0x0`) counts as an address once the output holds another one.
 */
export function onlyAddresses(stdout: string): boolean {
  if (!stdout.match(ADDRESS)) return false;
  const rest = stdout.replace(ADDRESS, '').replace(/\b0x0+\b/gi, '');
  return !INFORMATIVE.test(rest);
}

/**
 * Output that only repeats what the program was given (`parseAsync("hello")` printing `hello`): it ran, but it shows
 * little of what the package does. Every printed line is a string literal of the program, and the output is short.
 */
export function echoesInput(code: string, stdout: string): boolean {
  const lines = stdout.split('\n').map((l) => l.trim().replace(/^(['"`])(.*)\1$/, '$2')).filter(Boolean);
  if (!lines.length || lines.join('').length > 60) return false;
  // The expected value of an assertion (`assert_eq!(printed, "128")`) is the docs' shown result, not an input.
  const inputs = code.split('\n').filter((line) => !/\bassert|\bexpect\(|\/\/\s*(=>|→)|#\s*=>/.test(line)).join('\n');
  const literals = new Set([...inputs.matchAll(/(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)].map((m) => m[2]!.trim()).filter(Boolean));
  return lines.every((line) => literals.has(line));
}

/** The most telling line of a failed run's stderr (the error itself, not the stack around it). */
export function summariseFailure(result: TestResult): string {
  const lines = `${result.stderr}\n${result.stdout}`.split('\n').map((l) => l.trim()).filter(Boolean);
  // A compiler's first error says what is wrong; its closing "could not compile … due to N previous errors" does not.
  const compileError = lines.find((l) => /^error(\[E\d+\])?: /.test(l) && !/^error: (could not compile|aborting due to)/.test(l));
  if (compileError) return `${result.status}: ${compileError.slice(0, 300)}`;
  // A Rust panic says where on one line and what on the next; the backtrace hint after it says nothing.
  const panicAt = lines.findIndex((l) => PANIC_LINE.test(l));
  if (panicAt >= 0) return `${result.status}: ${lines[panicAt]!.replace(/:$/, '')}: ${(lines[panicAt + 1] ?? '').slice(0, 240)}`;
  const telling = [...lines].reverse().find((l) => /^(error(\[E\d+\])?:|\w*(Error|Exception)\b|panic:|ERROR:|fatal:|\[sandbox\]|.*: (undefined|cannot|could not|no (module|required module|matching))|.*not found)/i.test(l)
    && !/^(at |File "|\^)/.test(l));
  const line = telling ?? lines[lines.length - 1] ?? result.status;
  return `${result.status}: ${line.slice(0, 300)}`;
}

/** Reasons that no candidate will fix: the package or the runtime itself, not the example. */
export function hopeless(result: TestResult, ecosystem: string): { status: 'failed' | 'unverifiable'; reason: string } | undefined {
  if (result.status === 'unavailable') return { status: 'unverifiable', reason: `runtime unavailable here: ${result.error?.message ?? result.stderr}` };
  if (result.status === 'blocked') return { status: 'unverifiable', reason: `refused by this server's sandbox policy: ${result.error?.message ?? result.stderr}` };
  if (result.status === 'failed_install' && ecosystem === 'rubygems' && /Errno::|SocketError|Could not find a valid gem|Unable to download data|unable to resolve|Network is unreachable|getaddrinfo/i.test(result.stderr)) {
    return { status: 'unverifiable', reason: 'needs network: the gem source is not reachable from this host\'s sandboxes (RubyGems is unreachable here)' };
  }
  return undefined;
}

/** A step the sandbox itself could not set up (bubblewrap or its namespaces), as opposed to the program failing. */
export function sandboxFault(result: TestResult): boolean {
  return result.status !== 'ran' && /^bwrap: /m.test(result.stderr) && !/\b(error|Error)\b.*\n.*bwrap/.test(result.stderr);
}

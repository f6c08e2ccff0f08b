// A program that catches an exception and prints it ran, but its output shows that the package's call failed, not what
// the package does: not a meaningful result. Results printed beside a warning, and results that mention errors, still are.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { meaningfulStdout } from '../../../src/quickstart/outcome.ts';

describe('an error the program caught and printed', () => {
  it('is not a result, with or without its stack, in every runtime\'s form', () => {
    for (const stdout of [
      'Failed with error: Invalid URL\n',
      'An error occurred: connect ECONNREFUSED 127.0.0.1:6379\n',
      'Request failed: getaddrinfo ENOTFOUND api.example.com\n',
      'error parsing config: unexpected token at line 1\n',
      'Could not open the database: SQLITE_CANTOPEN\n',
      // console.log(err) in Node: the message, then the stack and the error's fields.
      "Error: ENOENT: no such file or directory, open 'data.csv'\n    at Object.openSync (node:fs:573:18)\n    at Object.readFileSync (node:fs:452:35)\n    at file:///workspace/index.mjs:3:16\n    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)\n    at async ModuleLoader.import (node:internal/modules/esm/loader:473:24) {\n  errno: -2,\n  code: 'ENOENT',\n  syscall: 'open',\n  path: 'data.csv'\n}\n",
      "TypeError: Cannot read properties of undefined (reading 'map')\n    at main (file:///workspace/index.mjs:5:20)\n    at file:///workspace/index.mjs:9:1\n    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)\n    at async onImport.tracePromise.__proto__ (node:internal/modules/esm/loader:473:24)\n    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:123:5)\n",
      // Python's traceback.print_exc() to stdout, and a long one.
      'Traceback (most recent call last):\n  File "/workspace/main.py", line 4, in <module>\n    client.get("/")\n  File "/deps/venv/lib/python3.11/site-packages/x/client.py", line 88, in get\n    raise ConnectionError(url)\n  File "/deps/venv/lib/python3.11/site-packages/x/client.py", line 12, in send\n    sock.connect(addr)\nConnectionError: [Errno 111] Connection refused\n',
      'Caught exception: KeyError(\'name\')\n',
      // Rust: `println!("{e}")` of an io::Error, and of a custom error.
      'No such file or directory (os error 2)\n',
      'error: failed to parse input: expected value at line 1 column 1\n',
      // Go: fmt.Println(err).
      'open config.yaml: no such file or directory\n',
      'dial tcp 127.0.0.1:5432: connect: connection refused\n',
    ]) {
      const outcome = meaningfulStdout(stdout);
      assert.equal(outcome.ok, false, stdout);
      assert.match(outcome.why ?? '', /error/, stdout);
    }
  });

  it('keeps results, results beside an error, and results that count or mention errors', () => {
    for (const stdout of [
      'parsed 3 rows\nwarning: column "x" is empty\n',
      'Validation passed: no errors: true\n',
      '0 errors: all 12 files are valid\n',
      '{ valid: false, errors: [ { path: "name", message: "Required" } ] }\n',
      'error rate: 0.25\nmean latency: 12ms\n',
      'info: server started\nerror: boom\n',
      '1: apple\n2: banana\n',
      'at least 3 values\n',
      '{\n  source: \'apache\',\n  charset: \'UTF-8\'\n}\n',
      // Fields and numbers are a result unless they stand under an error line; counts and settings are not failures.
      'name: John\nErrors found: 0\n',
      'status: 200\nerror handling: enabled\n',
      '42\nFailed tests: 0\n',
      'Errors: none\n',
      'errors: 0, warnings: 2\n',
      // Go prints a nil error as <nil>, Python None as None: the example reports that its call succeeded.
      'Error: <nil>\n',
      'copied: 3 files\nerr: <nil>\n',
      'Error: None\n',
      // A validator's verdict about the program's input is what the package is for.
      'Validation failed: email must be a valid email\n',
      'ValidationError: "age" is required\n',
      'Error: name must be at least 3 characters\n',
      "errors: [\n  'row 2: price is not a number'\n]\n",
    ]) {
      assert.equal(meaningfulStdout(stdout).ok, true, stdout);
    }
  });

  it('sets an error\'s fields and numbers aside only under its line or inside its block', () => {
    for (const stdout of [
      // Fields right after the error line, and the block the stack's last frame opens.
      "Error: connect ECONNREFUSED 127.0.0.1:80\n  code: 'ECONNREFUSED'\n  port: 80\n",
      'Request failed: socket hang up\n404\n',
      "Failed with error: bad gateway\n    at main (file:///workspace/index.mjs:5:20) {\n  status: 502,\n  name: 'HTTPError'\n}\n",
      // A failure lead-in whose value is not a count or setting, and an OS error even when it mentions validation.
      'error: 3 files could not be read\n',
      'Validation failed: open schema.json: no such file or directory\n',
    ]) {
      assert.equal(meaningfulStdout(stdout).ok, false, stdout);
    }
  });
});

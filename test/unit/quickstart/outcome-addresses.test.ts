// Output whose only values are memory addresses proves nothing; hex that a program computed still counts. Rust panics
// are recognised with and without the thread id newer toolchains print.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { meaningfulStdout, onlyAddresses, summariseFailure } from '../../../src/quickstart/outcome.ts';

describe('output of memory addresses only', () => {
  it('refuses pointers, object reprs and structs whose fields are all addresses', () => {
    for (const stdout of [
      'futures_task::noop_waker() = Waker { data: 0x0, vtable: 0x5615e3a4b2c0 }\n',
      'Waker {\n    data: 0x0,\n    vtable: 0x5615e3a4b2c0,\n}\n',
      '<__main__.Client object at 0x7f3a2b1c4d50>\n',
      'client = <httpx.Client object at 0x7f3a2b1c4d50>\npool = <urllib3.PoolManager object at 0x7f3a2b1c4e10>\n',
      '0xc000012080\n',
      '&{0xc000012080 0xc0000140a0}\n',
      'std::ptr::null::<u8>() = 0x0\nbuf.as_ptr() = 0x55d1c3a4b2c0\n',
      'Handle { ptr: 0x1f40 }\n',
    ]) {
      assert.equal(onlyAddresses(stdout), true, stdout);
      const outcome = meaningfulStdout(stdout);
      assert.equal(outcome.ok, false, stdout);
      assert.match(outcome.why ?? '', /memory addresses|definition/, stdout);
    }
  });

  it('keeps computed hex values and values printed beside an address', () => {
    for (const stdout of [
      '0xff\n',
      'crc32("hello") = 0x3610a686\n',
      'hash = 0x9e3779b97f4a7c15\n',
      '0x5d41402abc4b2a76b9719d911017c592\n',
      'keccak256 = 0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470\n',
      'Node { value: 42, next: 0x55d1c3a4b2c0 }\n',
      '<Response [200]> at 0x7f3a2b1c4d50\n',
      'Entry { name: "Ada", ptr: 0x7f3a2b1c4d50 }\n',
      'u8::MAX = 255\nflags = 0x0\n',
    ]) {
      assert.equal(meaningfulStdout(stdout).ok, true, stdout);
    }
  });
});

describe('Rust panics, old and new first line', () => {
  const old = "thread 'main' panicked at src/main.rs:4:14:\ncalled `Option::unwrap()` on a `None` value\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
  const withId = "thread 'main' (12345) panicked at src/main.rs:4:14:\ncalled `Option::unwrap()` on a `None` value\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";

  it('is an error, not a result, when printed to stdout', () => {
    for (const stdout of [old, withId]) {
      const outcome = meaningfulStdout(stdout);
      assert.equal(outcome.ok, false, stdout);
      assert.match(outcome.why ?? '', /^printed an error: thread 'main'/);
    }
  });

  it('is the failure summary, with the message from the next line', () => {
    for (const stderr of [old, withId]) {
      const summary = summariseFailure({ status: 'failed_run', stdout: '', stderr } as never);
      assert.match(summary, /^failed_run: thread 'main'( \(12345\))? panicked at src\/main\.rs:4:14: called `Option::unwrap\(\)` on a `None` value$/);
    }
  });
});

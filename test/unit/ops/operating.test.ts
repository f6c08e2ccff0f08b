// Pure logic of operating: plain validation messages, failure backoff, and the in-flight registry's drain.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { z } from 'zod';
import { ToolDexError } from '../../../src/errors.ts';
import { FailureMemory } from '../../../src/docs/ingest-scheduler.ts';
import { drain } from '../../../src/lifecycle/drain.ts';
import { InflightWork } from '../../../src/lifecycle/inflight.ts';
import { describeIssue, type ZodIssueLike } from '../../../src/http/validation-messages.ts';

describe('describeIssue', () => {
  const limit = z.coerce.number().int().min(1).max(50).default(10);
  const cases: Array<[string, ZodIssueLike, unknown, unknown, string]> = [
    ['missing, with the field description', { code: 'invalid_type', expected: 'string', path: ['q'], message: 'Invalid input: expected string, received undefined' }, undefined, z.string().describe('What the tool should do.'), 'is required: what the tool should do'],
    ['not a number, with its bounds', { code: 'invalid_type', expected: 'number', path: ['limit'], message: 'Invalid input: expected number, received NaN' }, 'abc', limit, 'must be a whole number from 1 to 50, got "abc"'],
    ['too small string', { code: 'too_small', origin: 'string', minimum: 1, path: ['q'], message: 'Too small: expected string to have >=1 characters' }, '', undefined, 'must not be empty'],
    ['too big array', { code: 'too_big', origin: 'array', maximum: 20, path: ['files'], message: 'Too big' }, [], undefined, 'must be at most 20 items'],
    ['enum', { code: 'invalid_value', values: ['json', 'toon'], path: ['format'], message: 'Invalid option' }, 'xml', undefined, 'must be one of json, toon, got "xml"'],
    ['schema message kept, own name dropped', { code: 'too_small', origin: 'string', minimum: 1, path: ['q'], message: 'q is required: a question' }, '', undefined, 'is required: a question'],
    ['custom refine', { code: 'custom', path: ['files'], message: 'files needs 1 to 20 items unless sessionId and entry are both given' }, [], undefined, 'needs 1 to 20 items unless sessionId and entry are both given'],
  ];
  for (const [name, issue, sent, schema, expected] of cases) {
    it(name, () => assert.equal(describeIssue(issue, sent, schema), expected));
  }
});

describe('FailureMemory', () => {
  it('backs off after the threshold, doubling, and forgets on success', () => {
    let now = 1_000_000;
    const memory = new FailureMemory(2, () => now);
    const down = new ToolDexError('upstream_unavailable', 503, 'registry.example is unavailable (HTTP 500).');
    assert.equal(memory.fail('npm', down), 0, 'one failure is not an outage');
    memory.check('npm', 'npm');
    assert.equal(memory.fail('npm', down), 5000);
    assert.throws(() => memory.check('npm', 'The npm registry'), (error: ToolDexError) =>
      error.code === 'upstream_unavailable' && error.status === 503 && error.details?.retryAfterSeconds === 5
      && /failed 2 times recently .*not trying again for 5 s/.test(error.message));
    now += 5001;
    memory.check('npm', 'npm');
    assert.equal(memory.fail('npm', down), 10_000, 'the next pause doubles');
    memory.succeed('npm');
    memory.check('npm', 'npm');
    for (let i = 0; i < 20; i++) memory.fail('pypi', down);
    assert.equal(memory.fail('pypi', down), 300_000, 'capped at five minutes');
  });
});

describe('drain', () => {
  const sink = () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
    return { lines, logger: pino({ level: 'info' }, stream) };
  };

  it('waits for registered work and reports it drained', async () => {
    const work = new InflightWork();
    const { lines, logger } = sink();
    work.track('docs-ingestion', 'npm-zod@3.23.8', new Promise((resolve) => setTimeout(resolve, 50)));
    const handle = work.begin('request', 'POST /tools/test');
    setTimeout(handle.end, 80);
    const report = await drain(work, 5000, logger);
    assert.equal(report.drained, 2);
    assert.deepEqual(report.cut, []);
    assert.ok(work.draining && work.stopping.aborted && !work.cut.aborted);
    assert.deepEqual(lines.at(-1)?.drainedByKind, { 'docs-ingestion': 1, request: 1 });
  });

  it('cuts what is still running at the deadline and says what it was', async () => {
    const work = new InflightWork();
    const { lines, logger } = sink();
    work.track('sandbox-run', 'node for ip:127.0.0.1', new Promise(() => undefined));
    work.track('request', 'GET /healthz', Promise.resolve());
    await new Promise((resolve) => setImmediate(resolve));
    const report = await drain(work, 50, logger);
    assert.equal(report.cut.length, 1);
    assert.equal(report.cut[0]?.kind, 'sandbox-run');
    assert.ok(work.cut.aborted);
    assert.ok(lines.some((line) => line.msg === 'drain deadline reached: cutting work still running'));
  });
});

// Shapes what a run returns: redacted, capped outputs, a plain-words note on why a run ended when the sandbox
// ended it (timeout, memory, processes, output, disk), and the results of policy refusals.
import type { IsolatedResult } from './isolate.ts';
import type { RunLimits } from './limits.ts';
import { OUTPUT_CAP_BYTES, cutUtf8 } from './output.ts';
import type { TestResult, TestStatus } from './schema.ts';

const MIB = 1024 * 1024;

/** Why the sandbox ended a step, for stderr; undefined when the program simply exited. */
export function describeEnd(result: IsolatedResult, phase: 'install' | 'build' | 'run', limits: RunLimits, timeoutMs?: number): string | undefined {
  const prefix = `[sandbox] ${phase}`;
  if (result.timedOut) return `${prefix} killed after ${timeoutMs ?? 'the'}${timeoutMs ? ' ms' : ''} wall-clock limit; every process it started was stopped.`;
  switch (result.limit) {
    case 'memory': return `${prefix} killed: memory limit of ${Math.round(limits.memoryBytes / MIB)} MiB reached.`;
    case 'pids': return `${prefix} hit the process limit of ${limits.pids} (fork refused).`;
    case 'output': return `${prefix} killed: more than 1 MiB of output.`;
    case 'disk': return `${prefix} killed: the session's disk quota was exceeded.`;
    default: break;
  }
  if (result.exitCode === null && result.signal) return `${prefix} ended by signal ${result.signal}.`;
  if (result.exitCode !== null && result.exitCode > 128) return `${prefix} ended by signal ${result.exitCode - 128} (exit ${result.exitCode}).`;
  return undefined;
}

export function finishOutputs(result: IsolatedResult, redact: (text: string) => string, note: string | undefined, merge: boolean) {
  let stdout = result.stdout.finish(redact);
  let stderr = result.stderr.finish(redact);
  if (merge) {
    const both = [stderr, stdout].filter(Boolean).join('\n');
    stderr = Buffer.byteLength(both) > OUTPUT_CAP_BYTES ? `${cutUtf8(Buffer.from(both), OUTPUT_CAP_BYTES)}\n…[output truncated]` : both;
    stdout = '';
  }
  if (note) stderr = stderr ? `${stderr}${stderr.endsWith('\n') ? '' : '\n'}${note}` : note;
  return { stdout, stderr };
}

/** A refusal before anything ran (runtime off, package denied, toolchain missing). */
export function policyResult(status: Extract<TestStatus, 'blocked' | 'unavailable'>, sessionId: string | undefined, code: string, message: string): TestResult {
  return {
    ok: false, status, phases: { provisionMs: 0, installMs: 0, runMs: 0 }, stdout: '', stderr: message, exitCode: null,
    sessionId: sessionId ?? '', sessionExpiresAt: null, sessionReused: false, error: { code, message },
  };
}

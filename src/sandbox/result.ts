// Shapes what a run returns: redacted, capped outputs, which limit ended a step (with the numbers) and a plain-words
// note saying so, and the results of policy refusals.
import type { IsolatedResult } from './isolate.ts';
import type { RunLimits } from './limits.ts';
import type { Redactor } from './redact.ts';
import { OUTPUT_CAP_BYTES, cutUtf8 } from './output.ts';
import type { EndedBy, TestPhases, TestResult, TestStatus } from './schema.ts';
import { KILL_OUTPUT_BYTES } from './steps.ts';
import type { VolumeUsage } from './volume.ts';

const MIB = 1024 * 1024;
const mib = (bytes: number) => `${Number.isInteger(bytes / MIB) ? bytes / MIB : (bytes / MIB).toFixed(bytes < 10 * MIB ? 1 : 0)} MiB`;

/**
 * A volume counts as full when less than 2 MiB (or 0.5 %) of its blocks are left to an unprivileged write, or none of
 * its inodes. What is left is statfs's bavail, not bfree: ext4 holds back a reserve (2 % of the blocks, at most 4096)
 * that only its own metadata may use, so a 1 GiB volume answers ENOSPC with about 16 MiB still "free".
 */
function volumeLimit(usage: VolumeUsage | undefined): Pick<EndedBy, 'limit' | 'max' | 'used' | 'unit'> | undefined {
  if (!usage) return undefined;
  if (usage.usedInodes >= usage.limitInodes) return { limit: 'inodes', max: usage.limitInodes, used: usage.usedInodes, unit: 'files' };
  if (usage.availableBytes < Math.max(2 * MIB, usage.limitBytes * 0.005)) {
    return { limit: 'disk', max: usage.limitBytes, used: usage.usedBytes, unit: 'bytes' };
  }
  return undefined;
}

/** Which limit, if any, ended a step that did not succeed; undefined when the program simply failed on its own. */
export function endedBy(result: IsolatedResult, phase: EndedBy['phase'], limits: RunLimits, timeoutMs: number,
  usage: VolumeUsage | undefined): EndedBy | undefined {
  if (result.timedOut) return { limit: 'timeout', phase, max: timeoutMs, unit: 'ms' };
  switch (result.limit) {
    case 'memory': return { limit: 'memory', phase, max: limits.memoryBytes, unit: 'bytes' };
    case 'pids': return { limit: 'processes', phase, max: limits.pids, unit: 'processes' };
    case 'output': return { limit: 'output', phase, max: KILL_OUTPUT_BYTES, unit: 'bytes' };
    default: break;
  }
  const full = volumeLimit(usage);
  return full ? { ...full, phase } : undefined;
}

/** Which setting (or request field) set a step's memory and wall-clock limits: install and build steps have their own. */
export interface LimitSettings { memory: string; timeout: string }

/** The `[sandbox] …` line saying why a step ended, with the numbers and the setting behind the limit. */
export function describeEnd(result: IsolatedResult, phase: EndedBy['phase'], ended: EndedBy | undefined, settings?: LimitSettings): string | undefined {
  const prefix = `[sandbox] ${phase}`;
  const from = (setting: string | undefined) => (setting ? ` (${setting})` : '');
  if (ended) {
    switch (ended.limit) {
      case 'timeout': return `${prefix} stopped by the ${ended.max} ms wall-clock limit${from(settings?.timeout)}; every process it started was stopped.`;
      case 'memory': return `${prefix} killed: memory limit of ${mib(ended.max)} reached${from(settings?.memory)}.`;
      case 'processes': return `${prefix} hit the process limit of ${ended.max} (fork refused).`;
      case 'output': return `${prefix} killed: more than ${mib(ended.max)} of output.`;
      case 'disk': return `${prefix} ran out of session disk: ${mib(ended.used ?? 0)} used of the ${mib(ended.max)} quota (blocks, as the disk counts them).`;
      case 'inodes': return `${prefix} ran out of session files: ${ended.used ?? 0} used of the ${ended.max} files (inodes) quota.`;
    }
  }
  if (result.exitCode === null && result.signal) return `${prefix} ended by signal ${result.signal}.`;
  if (result.exitCode !== null && result.exitCode > 128) return `${prefix} ended by signal ${result.exitCode - 128} (exit ${result.exitCode}).`;
  return undefined;
}

export function finishOutputs(result: IsolatedResult, redact: Redactor, notes: Array<string | undefined>, merge: boolean) {
  let stdout = result.stdout.finish(redact);
  let stderr = result.stderr.finish(redact);
  if (merge) {
    const both = [stderr, stdout].filter(Boolean).join('\n');
    stderr = Buffer.byteLength(both) > OUTPUT_CAP_BYTES ? `${cutUtf8(Buffer.from(both), OUTPUT_CAP_BYTES)}\n…[output truncated]` : both;
    stdout = '';
  }
  for (const note of notes) {
    if (note) stderr = stderr ? `${stderr}${stderr.endsWith('\n') ? '' : '\n'}${note}` : note;
  }
  return { stdout, stderr };
}

/** A refusal before anything ran (runtime off, package denied, toolchain missing). */
export function policyResult(status: Extract<TestStatus, 'blocked' | 'unavailable'>, sessionId: string | undefined, code: string, message: string,
  phases: TestPhases): TestResult {
  return {
    ok: false, status, phases, stdout: '', stderr: message, exitCode: null,
    sessionId: sessionId ?? '', sessionExpiresAt: null, sessionReused: false, error: { code, message },
  };
}

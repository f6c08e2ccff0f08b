// Drains a process for a deploy: refuse new work, let registered work finish up to a deadline, then report in the
// log what finished and what had to be cut. The caller closes the listener and the store afterwards and exits 0.
import type { Logger } from '../log.ts';
import type { InflightWork, WorkEntry } from './inflight.ts';

export interface DrainReport {
  drained: number;
  cut: WorkEntry[];
  ms: number;
}

const summarize = (entries: WorkEntry[]) => {
  const byKind: Record<string, number> = {};
  for (const entry of entries) byKind[entry.kind] = (byKind[entry.kind] ?? 0) + 1;
  return byKind;
};

export async function drain(inflight: InflightWork, timeoutMs: number, logger: Logger): Promise<DrainReport> {
  const started = Date.now();
  const before = inflight.list();
  inflight.startDraining();
  logger.info({ inflight: summarize(before), deadlineMs: timeoutMs }, 'draining: refusing new work, letting in-flight work finish');
  const idle = await inflight.idle(timeoutMs);
  const cut = idle ? [] : inflight.list();
  if (cut.length) {
    inflight.cutNow();
    logger.warn({
      cut: cut.map((entry) => ({ kind: entry.kind, label: entry.label, runningMs: Date.now() - entry.startedAt })),
      deadlineMs: timeoutMs,
    }, 'drain deadline reached: cutting work still running');
  }
  const cutIds = new Set(cut.map((entry) => entry.id));
  const finished = before.filter((entry) => !cutIds.has(entry.id));
  const report = { drained: finished.length, cut, ms: Date.now() - started };
  logger.info({ drained: finished.length, drainedByKind: summarize(finished), cut: cut.length, ms: report.ms },
    cut.length ? 'drain finished with work cut' : 'drain finished: all in-flight work completed');
  return report;
}

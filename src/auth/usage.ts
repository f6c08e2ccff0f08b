// Per-key usage (requests and test runs per day, last use): counted in memory, written in one batch every few
// seconds, so authenticating a request costs one read and no write. Figures lag by at most one flush.
import type { Logger } from '../log.ts';
import type { Queryable, Store } from '../store/index.ts';
import type { UsageDay } from './types.ts';

interface Pending {
  requests: number;
  testRuns: number;
  lastUsed: Date;
}

export class UsageRecorder {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;

  constructor(private readonly store: Store, private readonly logger: Logger, flushMs = 2000) {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  record(keyId: string, kind: 'request' | 'test'): void {
    const day = new Date().toISOString().slice(0, 10);
    const slot = `${keyId}|${day}`;
    const entry = this.pending.get(slot) ?? { requests: 0, testRuns: 0, lastUsed: new Date() };
    entry.requests += 1;
    if (kind === 'test') entry.testRuns += 1;
    entry.lastUsed = new Date();
    this.pending.set(slot, entry);
  }

  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.store.transaction(async (tx) => {
      for (const [slot, entry] of batch) {
        const [keyId, day] = slot.split('|') as [string, string];
        await tx.query(`insert into api_key_usage (key_id, day, requests, test_runs) values ($1, $2, $3, $4)
          on conflict (key_id, day) do update set requests = api_key_usage.requests + excluded.requests,
            test_runs = api_key_usage.test_runs + excluded.test_runs`, [keyId, day, entry.requests, entry.testRuns]);
        await tx.query('update api_keys set last_used_at = greatest(coalesce(last_used_at, $2), $2) where id = $1',
          [keyId, entry.lastUsed]);
      }
    }).catch((err) => this.logger.warn({ err }, 'writing API key usage failed'))
      .finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }
}

/** The last `days` days (UTC), oldest first, with zeros where the key was not used. */
export async function usagePerDay(db: Queryable, keyId: string, days: number): Promise<UsageDay[]> {
  const rows = await db.query<{ day: unknown; requests: string | number; test_runs: string | number }>(
    `select day, requests, test_runs from api_key_usage where key_id = $1 and day > current_date - $2::int`, [keyId, days]);
  const byDay = new Map(rows.map((row) => [dayString(row.day), row]));
  const out: UsageDay[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(Date.now() - i * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(day);
    out.push({ day, requests: Number(row?.requests ?? 0), testRuns: Number(row?.test_runs ?? 0) });
  }
  return out;
}

const dayString = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

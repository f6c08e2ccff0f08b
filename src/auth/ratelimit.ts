// Fixed-window counters kept in the store, so every instance over one database shares them.
// One atomic upsert per hit; expired rows are swept now and then.
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';

export interface RateLimitHit {
  count: number;
  ttlMs: number;
}

export class RateLimitCounters {
  private sweeper: NodeJS.Timeout;

  constructor(private readonly store: Store, logger: Logger, sweepMs = 60_000) {
    this.sweeper = setInterval(() => {
      store.query("delete from rate_limit_counters where reset_at < now() - interval '1 minute'")
        .catch((err) => logger.warn({ err }, 'sweeping rate-limit counters failed'));
    }, sweepMs);
    this.sweeper.unref();
  }

  async hit(bucket: string, windowMs: number): Promise<RateLimitHit> {
    const [row] = await this.store.query<{ hits: number; ttl_ms: number }>(
      `insert into rate_limit_counters as c (bucket, hits, reset_at)
         values ($1, 1, clock_timestamp() + make_interval(secs => $2::float8 / 1000))
       on conflict (bucket) do update set
         hits = case when c.reset_at <= clock_timestamp() then 1 else c.hits + 1 end,
         reset_at = case when c.reset_at <= clock_timestamp() then excluded.reset_at else c.reset_at end
       returning hits, greatest(0, extract(epoch from (reset_at - clock_timestamp())) * 1000)::float8 as ttl_ms`,
      [bucket, windowMs]);
    return { count: Number(row?.hits ?? 1), ttlMs: Math.ceil(Number(row?.ttl_ms ?? windowMs)) };
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

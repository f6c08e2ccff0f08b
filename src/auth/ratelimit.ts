// Fixed-window rate-limit counters. In Redis when REDIS_URL is set; else on PostgreSQL in the database (one atomic
// upsert per hit), so every instance shares them; the embedded store admits one process, so there in its memory.
import { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';

export interface RateLimitHit {
  count: number;
  ttlMs: number;
}

export interface RateLimitCounters {
  hit(bucket: string, windowMs: number): Promise<RateLimitHit>;
  close(): void | Promise<void>;
}

/** Measured (bench/auth.ts): a counter write per request on PGlite cut search throughput about sixfold, for no gain. */
export function createRateLimitCounters(
  store: Store, logger: Logger, options: { inDatabase?: boolean; redisUrl?: string } = {},
): RateLimitCounters {
  if (options.redisUrl) return new RedisCounters(options.redisUrl, logger);
  return (options.inDatabase ?? store.kind === 'postgres') ? new DatabaseCounters(store, logger) : new MemoryCounters();
}

export class MemoryCounters implements RateLimitCounters {
  private counters = new Map<string, { hits: number; resetAt: number }>();
  private sweeper = setInterval(() => {
    const now = Date.now();
    for (const [bucket, entry] of this.counters) if (entry.resetAt <= now) this.counters.delete(bucket);
  }, 60_000).unref();

  async hit(bucket: string, windowMs: number): Promise<RateLimitHit> {
    const now = Date.now();
    const entry = this.counters.get(bucket);
    const next = !entry || entry.resetAt <= now ? { hits: 1, resetAt: now + windowMs } : { hits: entry.hits + 1, resetAt: entry.resetAt };
    this.counters.set(bucket, next);
    return { count: next.hits, ttlMs: next.resetAt - now };
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

export class DatabaseCounters implements RateLimitCounters {
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

// INCR, and start the window on the first hit of it: one round trip, atomic on the Redis server.
const HIT_SCRIPT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {c, redis.call('PTTL', KEYS[1])}`;

export class RedisCounters implements RateLimitCounters {
  private readonly redis: Redis;

  constructor(url: string, logger: Logger) {
    // Fail a hit fast instead of queueing requests behind a dead connection; the limiter answers 500 meanwhile.
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 5000 });
    this.redis.on('error', (err) => logger.warn({ err: { message: err.message } }, 'redis (rate-limit counters) error'));
  }

  async hit(bucket: string, windowMs: number): Promise<RateLimitHit> {
    const [count, ttl] = await this.redis.eval(HIT_SCRIPT, 1, `tooldex:rl:${bucket}`, String(windowMs)) as [number, number];
    return { count, ttlMs: ttl > 0 ? ttl : windowMs };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

// Fixed-window rate-limit counters. In Redis when REDIS_URL is set (per instance in memory while Redis is away); else
// on PostgreSQL in the database (one atomic upsert per hit); the embedded store admits one process, so there in memory.
import { Redis } from 'ioredis';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';

export interface RateLimitHit {
  count: number;
  ttlMs: number;
}

export interface RateLimitCounters {
  hit(bucket: string, windowMs: number): Promise<RateLimitHit>;
  /** Resolves when the counters are shared (Redis connected) or after `timeoutMs`, whichever comes first. */
  connected?(timeoutMs: number): Promise<void>;
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

/**
 * Counters in Redis, shared by every instance. While Redis is away (down, restarting, unreachable) each instance
 * counts in its own memory instead: limits still hold per instance, nothing fails or waits on a dead connection.
 * The outage is logged once when it starts and once when Redis is back.
 */
export class RedisCounters implements RateLimitCounters {
  private readonly redis: Redis;
  private readonly local = new MemoryCounters();
  private away: { since: number } | undefined;

  constructor(url: string, private readonly logger: Logger) {
    this.redis = new Redis(url, {
      // Never queue a request behind a dead connection: a command while disconnected fails at once (→ local counts).
      enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(250 * 2 ** attempt, 5000), // reconnect forever, at most every 5 s
    });
    // ioredis emits 'error' for every failed reconnect: handled here (an unhandled one would crash the process).
    this.redis.on('error', (err: Error) => this.wentAway(err));
    this.redis.on('close', () => this.wentAway(new Error('connection closed')));
    this.redis.on('ready', () => this.cameBack());
  }

  /**
   * Start-up waits for the first connection (bounded), so an instance counts in Redis from its first request instead
   * of starting on per-instance counts while the connection is still being made.
   */
  async connected(timeoutMs: number): Promise<void> {
    if (this.isConnected()) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.redis.on('ready', done);
    });
    if (!this.isConnected()) this.wentAway(new Error(`not connected after ${timeoutMs} ms`));
  }

  async hit(bucket: string, windowMs: number): Promise<RateLimitHit> {
    if (this.redis.status !== 'ready') return this.local.hit(bucket, windowMs);
    try {
      const [count, ttl] = await this.redis.eval(HIT_SCRIPT, 1, `tooldex:rl:${bucket}`, String(windowMs)) as [number, number];
      return { count, ttlMs: ttl > 0 ? ttl : windowMs };
    } catch (error) {
      this.wentAway(error as Error);
      return this.local.hit(bucket, windowMs);
    }
  }

  async close(): Promise<void> {
    this.local.close();
    this.redis.removeAllListeners('close');
    this.redis.on('error', () => undefined);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private isConnected(): boolean {
    return this.redis.status === 'ready';
  }

  private wentAway(error: Error): void {
    if (this.away || this.redis.status === 'end') return;
    this.away = { since: Date.now() };
    this.logger.warn({ reason: error.message }, 'redis unavailable: rate limits are counted per instance until it is back');
  }

  private cameBack(): void {
    if (!this.away) return;
    this.logger.info({ downMs: Date.now() - this.away.since }, 'redis available again: rate limits are shared again');
    this.away = undefined;
  }
}

// Sign-in throttling: failures are counted per email and per client address in the store (shared by instances);
// a bucket over budget refuses further attempts, right or wrong, until its window ends.
import { ToolDexError } from '../errors.ts';
import type { Queryable } from '../store/index.ts';

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;

const buckets = (email: string, address: string) => [
  { bucket: `email:${email}`, max: MAX_FAILURES_PER_EMAIL },
  { bucket: `ip:${address}`, max: MAX_FAILURES_PER_ADDRESS },
];

export async function assertLoginAllowed(db: Queryable, email: string, address: string): Promise<void> {
  for (const { bucket, max } of buckets(email, address)) {
    const [row] = await db.query<{ failures: number; ttl_s: number }>(
      `select failures, extract(epoch from (reset_at - now()))::float8 as ttl_s from login_failures
        where bucket = $1 and reset_at > now()`, [bucket]);
    if (row && row.failures >= max) {
      throw new ToolDexError('too_many_attempts', 429,
        `Too many failed sign-ins; try again in ${Math.ceil(row.ttl_s / 60)} min.`,
        { retryAfterSeconds: Math.ceil(row.ttl_s) });
    }
  }
}

export async function recordLoginFailure(db: Queryable, email: string, address: string): Promise<void> {
  for (const { bucket } of buckets(email, address)) {
    await db.query(`insert into login_failures as f (bucket, failures, reset_at)
        values ($1, 1, now() + make_interval(secs => $2::float8 / 1000))
      on conflict (bucket) do update set
        failures = case when f.reset_at <= now() then 1 else f.failures + 1 end,
        reset_at = case when f.reset_at <= now() then excluded.reset_at else f.reset_at end`, [bucket, LOGIN_WINDOW_MS]);
  }
}

export async function clearLoginFailures(db: Queryable, email: string): Promise<void> {
  await db.query('delete from login_failures where bucket = $1', [`email:${email}`]);
}

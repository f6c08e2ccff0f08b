// This process as a member of the fleet: a row in `instances` refreshed every few seconds (its heartbeat), removed
// on a clean stop. Other modules ask which instances are alive, e.g. to release work a dead process held.
import crypto from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../log.ts';
import type { Store } from './types.ts';

export const HEARTBEAT_MS = 10_000;
/** An instance not seen for this long is dead (three missed heartbeats). */
export const DEAD_AFTER_SECONDS = 30;

export interface Instance {
  id: string;
  close(): Promise<void>;
}

export async function startInstance(store: Store, logger: Logger, heartbeatMs = HEARTBEAT_MS): Promise<Instance> {
  const id = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  const beat = () => store.query(
    `insert into instances (id, host, pid) values ($1, $2, $3)
     on conflict (id) do update set seen_at = now()`, [id, os.hostname(), process.pid]);
  await beat();
  const timer = setInterval(() => {
    beat().catch((err) => logger.warn({ err }, 'instance heartbeat failed'));
  }, heartbeatMs);
  timer.unref();
  return {
    id,
    async close() {
      clearInterval(timer);
      await store.query('delete from instances where id = $1', [id]).catch(() => undefined);
    },
  };
}

/** SQL condition true for ids of live instances (use as `owner in (${LIVE_INSTANCES})`). */
export const LIVE_INSTANCES = `select id from instances where seen_at > now() - make_interval(secs => ${DEAD_AFTER_SECONDS})`;

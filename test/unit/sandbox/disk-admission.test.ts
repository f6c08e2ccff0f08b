// Running compiles' volumes are charged to TOOLDEX_SANDBOX_DISK_MB: a compile step of a Go or Rust layer writes into a
// volume of its own, and admission and eviction count it beside the sessions' images (a real embedded store; the
// volumes' host bytes are given, nothing is mounted).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, type Store } from '../../../src/store/index.ts';
import { SessionStore, type SessionBudget } from '../../../src/sandbox/sessions.ts';
import type { SessionVolumes } from '../../../src/sandbox/volume.ts';

const MIB = 1024 * 1024;
const removed: string[] = [];
/** Volumes that exist only as rows here: removal is recorded. */
const volumes = { remove: async (id: string) => { removed.push(id); }, create: async () => undefined, hostBytes: () => 0, dir: (id: string, sub: string) => `/nowhere/${id}/${sub}` } as unknown as SessionVolumes;

describe('compile volumes count against the instance disk budget', () => {
  let store: Store;
  let home: string;
  let sessions: SessionStore;
  before(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-admission-'));
    store = await openStore({ DATABASE_URL: undefined, TOOLDEX_HOME: home });
    sessions = new SessionStore(store, volumes, 'i-test');
  });
  after(async () => {
    await store?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const row = (id: string, owner: string, bytes: number, idleMinutes: number) => store.query(
    `insert into sandbox_sessions (id, owner, runtime, instance, network, disk_bytes, last_used_at) values ($1, $2, 'node', 'i-test', 'on', $3, now() - ($4 || ' minutes')::interval)`,
    [id, owner, bytes, String(idleMinutes)]);

  it('a new owner is refused while live sessions and a running compile fill the disk; admitted without the compile', async () => {
    await row('sbx_a1', 'owner-a', 60 * MIB, 1);
    const budget: SessionBudget = { instanceBytes: 100 * MIB, ownerBytes: 100 * MIB, ownerSessions: 16, idleMs: 60 * 60_000 };
    assert.deepEqual(await sessions.admit('owner-b', budget, new Set()), [], 'sessions alone are within the budget');
    let compiling = 50 * MIB;
    const charged = { ...budget, otherBytes: () => compiling };
    await assert.rejects(sessions.admit('owner-b', charged, new Set()), (error: Error & { status?: number; code?: string }) => {
      assert.equal(error.status, 507);
      assert.match(error.message, /compiles/);
      return true;
    });
    assert.deepEqual(removed, [], 'another owner\'s live session is never taken');
    compiling = 0; // the compile ended: its volume is gone
    assert.deepEqual(await sessions.admit('owner-b', charged, new Set()), []);
  });

  it('after a call, a running compile\'s volume counts toward the instance total: idle sessions go to make room', async () => {
    await row('sbx_c1', 'owner-c', 30 * MIB, 120);
    const budget: SessionBudget = { instanceBytes: 100 * MIB, ownerBytes: 100 * MIB, ownerSessions: 16, idleMs: 60 * 60_000 };
    assert.deepEqual(await sessions.evict(budget, new Set()), [], '90 MiB of sessions: within');
    assert.deepEqual(await sessions.evict({ ...budget, otherBytes: () => 20 * MIB }, new Set()), ['sbx_c1'], 'the idle session goes; the live one stays');
    assert.deepEqual(removed, ['sbx_c1']);
  });
});

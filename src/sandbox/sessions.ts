// Durable sandbox sessions: a folder per session under TOOLDEX_HOME/sandbox/sessions/<id> (workspace + deps)
// and a row in the store (owner, runtime, packages, last use). Survive restarts; least recently used are evicted.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ToolDexError } from '../errors.ts';
import type { Store } from '../store/index.ts';
import type { Runtime } from './schema.ts';

export interface Session {
  id: string;
  owner: string;
  runtime: Runtime;
  /** Package specs installed so far, in order. */
  packages: string[];
  workDir: string;
  depsDir: string;
  reused: boolean;
  /** Resolves once the session's row is stored (a new session's insert overlaps its first run). */
  stored: Promise<void>;
}

interface SessionRow {
  id: string;
  owner: string;
  runtime: Runtime;
  packages: string[] | string;
  disk_bytes: string | number;
}

const SESSION_ID = /^sbx_[A-Za-z0-9_-]{16,40}$/;

export const sessionNotFound = (id: string) =>
  new ToolDexError('session_not_found', 404,
    `Session "${id.slice(0, 60)}" does not exist, belongs to someone else, or was evicted to free disk; call again without sessionId to start a new one.`);

export class SessionStore {
  constructor(
    private readonly store: Store,
    private readonly root: string,
    private readonly owner: { uid: number; gid: number },
  ) {
    fs.mkdirSync(root, { recursive: true, mode: 0o711 });
  }

  private dirs(id: string) {
    const dir = path.join(this.root, id);
    return { dir, workDir: path.join(dir, 'work'), depsDir: path.join(dir, 'deps') };
  }

  create(ownerId: string, runtime: Runtime): Session {
    const id = `sbx_${crypto.randomBytes(15).toString('base64url')}`;
    const { dir, workDir, depsDir } = this.dirs(id);
    fs.mkdirSync(dir, { mode: 0o711 });
    for (const sub of [workDir, depsDir]) {
      fs.mkdirSync(sub, { mode: 0o755 });
      fs.chownSync(sub, this.owner.uid, this.owner.gid);
    }
    const stored = this.store.query('insert into sandbox_sessions (id, owner, runtime) values ($1, $2, $3)', [id, ownerId, runtime])
      .then(() => undefined);
    stored.catch(() => undefined); // awaited by recordUse; this keeps a failure from surfacing twice
    return { id, owner: ownerId, runtime, packages: [], workDir, depsDir, reused: false, stored };
  }

  /** The caller's session; anyone else's, an unknown or an evicted one is the same 404 (existence is not disclosed). */
  async get(id: string, ownerId: string): Promise<Session> {
    if (!SESSION_ID.test(id)) throw sessionNotFound(id);
    const rows = await this.store.query<SessionRow>('select id, owner, runtime, packages, disk_bytes from sandbox_sessions where id = $1', [id]);
    const row = rows[0];
    const { workDir, depsDir } = this.dirs(id);
    if (!row || row.owner !== ownerId || !fs.existsSync(workDir)) throw sessionNotFound(id);
    const packages = typeof row.packages === 'string' ? JSON.parse(row.packages) as string[] : row.packages;
    return { id, owner: row.owner, runtime: row.runtime, packages, workDir, depsDir, reused: true, stored: Promise.resolve() };
  }

  async recordUse(session: Session, packages: string[]): Promise<void> {
    await session.stored;
    await this.store.query('update sandbox_sessions set packages = $2::jsonb, last_used_at = now(), runs = runs + 1 where id = $1',
      [session.id, JSON.stringify(packages)]);
  }

  /** Measures the session's folder (du) for the disk budget; slow on big dependency trees, so callers run it after replying. */
  async measure(id: string): Promise<void> {
    const bytes = await folderBytes(this.dirs(id).dir);
    await this.store.query('update sandbox_sessions set disk_bytes = $2 where id = $1', [id, bytes]);
  }

  /** Removes least recently used sessions (never a busy one) until the total is within budgetBytes; returns evicted ids. */
  async evict(budgetBytes: number, busy: Set<string>): Promise<string[]> {
    const rows = await this.store.query<{ id: string; disk_bytes: string | number }>(
      'select id, disk_bytes from sandbox_sessions order by last_used_at desc');
    let total = rows.reduce((sum, row) => sum + Number(row.disk_bytes), 0);
    const evicted: string[] = [];
    for (const row of [...rows].reverse()) {
      if (total <= budgetBytes) break;
      if (busy.has(row.id)) continue;
      await this.remove(row.id);
      total -= Number(row.disk_bytes);
      evicted.push(row.id);
    }
    return evicted;
  }

  async remove(id: string): Promise<void> {
    await this.store.query('delete from sandbox_sessions where id = $1', [id]);
    // rm does not follow symlinks a run may have planted: it unlinks them.
    await fs.promises.rm(this.dirs(id).dir, { recursive: true, force: true });
  }
}

export function folderBytes(dir: string): Promise<number> {
  return new Promise((resolve) => {
    execFile('du', ['-sb', dir], { timeout: 30_000 }, (_error, stdout) => resolve(Number(/^(\d+)/.exec(stdout)?.[1] ?? 0)));
  });
}

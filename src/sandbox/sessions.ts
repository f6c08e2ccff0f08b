// Durable sandbox sessions: a volume per session on this instance's disk (see volume.ts) and a row in the store (owner,
// runtime, current pins, keyed secret marks, owning instance). Survive restarts; evicted per owner budget (see evict).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ToolDexError } from '../errors.ts';
import type { Store } from '../store/index.ts';
import type { SecretMark } from './redact.ts';
import type { NetworkMode, Runtime } from './schema.ts';
import type { SessionFolders } from './steps.ts';
import { isMountPoint, type SessionVolumes } from './volume.ts';

export interface Session {
  id: string;
  owner: string;
  runtime: Runtime;
  /** The session's package pins (specs) installed on its volume, in the order first installed. */
  packages: string[];
  /** Pins the session had on an instance that is gone, not installed here yet (the session was taken over). */
  movedPins?: string[];
  /** Keyed marks of every secret the session was ever given. */
  secretMarks: SecretMark[];
  /** The run step's network, kept until a later call changes it. */
  network: NetworkMode;
  folders: SessionFolders;
  reused: boolean;
  /** Resolves once the session's row is stored (a new session's insert overlaps its volume's creation). */
  stored: Promise<void>;
}

/** The limits eviction and admission work to (settings of config.ts, in bytes and ms). */
export interface SessionBudget {
  /** TOOLDEX_SANDBOX_DISK_MB: every session of this instance. */
  instanceBytes: number;
  /** TOOLDEX_SANDBOX_OWNER_DISK_MB (resolved): one owner's sessions on this instance. */
  ownerBytes: number;
  /** TOOLDEX_SANDBOX_OWNER_SESSIONS. */
  ownerSessions: number;
  /** TOOLDEX_SANDBOX_EVICT_IDLE_MINUTES: how long a session must be idle before a full disk may take it from its owner. */
  idleMs: number;
  /**
   * Bytes of this instance's disk that count against instanceBytes beside the sessions: the volumes of compiles running
   * now (a compile step of a Go or Rust layer writes into a volume of its own, as large as a session's). Read at each
   * admission and eviction, so a running compile's volume is charged like a session's image (allocated blocks).
   */
  otherBytes?: () => number;
}

interface HeldSession { id: string; owner: string; bytes: number; idleMs: number }

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

interface SessionRow {
  id: string;
  owner: string;
  runtime: Runtime;
  packages: string[] | string;
  secret_marks: SecretMark[] | string;
  instance: string | null;
  network: NetworkMode;
}

const SESSION_ID = /^sbx_[A-Za-z0-9_-]{16,40}$/;
const newSessionId = () => `sbx_${crypto.randomBytes(15).toString('base64url')}`;
const json = <T>(value: T | string): T => (typeof value === 'string' ? JSON.parse(value) as T : value);

export const sessionNotFound = (id: string) =>
  new ToolDexError('session_not_found', 404,
    `Session "${id.slice(0, 60)}" does not exist, belongs to someone else, or was evicted to free disk; call again without sessionId to start a new one.`);

/** Volumes formatted and mounted ahead of need, so a new session does not wait for mkfs and mount. */
const POOL_SIZE = 2;

export class SessionStore {
  /** When each session of this instance was last used (idle volumes are unmounted). */
  private readonly lastUse = new Map<string, number>();
  /** Ids of ready volumes with no session yet (no row: a restart's reconciliation removes them). */
  private readonly pool: string[] = [];
  private refilling: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly volumes: SessionVolumes,
    /** This instance's id: its rows are the ones whose volumes are on this disk. */
    readonly instance: string,
  ) {}

  folders(id: string): SessionFolders {
    return { work: this.volumes.dir(id, 'work'), deps: this.volumes.dir(id, 'deps'), build: this.volumes.dir(id, 'build'), overlay: this.volumes.dir(id, 'overlay') };
  }

  async create(ownerId: string, runtime: Runtime, network: NetworkMode = 'on'): Promise<Session> {
    const ready = this.pool.shift();
    const id = ready ?? newSessionId();
    const stored = this.store.query('insert into sandbox_sessions (id, owner, runtime, instance, network) values ($1, $2, $3, $4, $5)', [id, ownerId, runtime, this.instance, network])
      .then(() => undefined);
    stored.catch(() => undefined); // awaited by recordUse; this keeps a failure from surfacing twice
    if (!ready) await this.volumes.create(id);
    this.lastUse.set(id, Date.now());
    this.refill();
    return { id, owner: ownerId, runtime, packages: [], secretMarks: [], network, folders: this.folders(id), reused: false, stored };
  }

  /** Tops the pool of ready volumes up in the background, one volume at a time. */
  refill(): void {
    if (this.refilling || this.closed) return;
    this.refilling = (async () => {
      while (this.pool.length < POOL_SIZE && !this.closed) {
        const id = newSessionId();
        await this.volumes.create(id);
        if (this.closed) await this.volumes.remove(id);
        else this.pool.push(id);
      }
    })().catch(() => undefined).finally(() => { this.refilling = undefined; });
  }

  /** The caller's session; anyone else's, an unknown or an evicted one is the same 404 (existence is not disclosed). */
  async get(id: string, ownerId: string): Promise<Session> {
    const found = await this.find(id, ownerId);
    if ('elsewhere' in found) throw sessionNotFound(id);
    return found.local;
  }

  /** The caller's session if its volume is here, else the instance that holds it; 404 when there is none of the caller's. */
  async find(id: string, ownerId: string): Promise<{ local: Session } | { elsewhere: string }> {
    if (!SESSION_ID.test(id)) throw sessionNotFound(id);
    const rows = await this.store.query<SessionRow>(
      'select id, owner, runtime, packages, secret_marks, instance, network from sandbox_sessions where id = $1', [id]);
    const row = rows[0];
    if (!row || row.owner !== ownerId) throw sessionNotFound(id);
    if (row.instance && row.instance !== this.instance) return { elsewhere: row.instance };
    if (!this.volumes.exists(id)) throw sessionNotFound(id);
    await this.volumes.ensureMounted(id);
    this.lastUse.set(id, Date.now());
    const pins = json(row.packages);
    const moved = fs.existsSync(this.movedMarker(id));
    return {
      local: {
        id, owner: row.owner, runtime: row.runtime, packages: moved ? [] : pins, ...(moved ? { movedPins: pins } : {}),
        secretMarks: json(row.secret_marks), network: row.network === 'off' ? 'off' : 'on', folders: this.folders(id), reused: true, stored: Promise.resolve(),
      },
    };
  }

  /**
   * Takes over a session whose instance is gone: the row becomes this instance's (only if it still names `from`, so two
   * instances cannot both take it) with a fresh volume; its files stayed on the gone instance's disk. The volume is
   * marked as moved until its pins are installed here again (see find).
   */
  async takeOver(id: string, ownerId: string, from: string): Promise<boolean> {
    const rows = await this.store.query<{ id: string }>(
      'update sandbox_sessions set instance = $3 where id = $1 and owner = $2 and instance = $4 returning id', [id, ownerId, this.instance, from]);
    if (!rows[0]) return false;
    await this.volumes.create(id);
    fs.writeFileSync(this.movedMarker(id), from);
    this.lastUse.set(id, Date.now());
    return true;
  }

  /** A root-owned file at the top of the volume (no sandbox sees that folder): "pins not installed here yet". */
  private movedMarker(id: string): string {
    return path.join(this.volumes.mountPoint(id), 'moved-from');
  }

  /** The session's pins are installed on this instance's volume now. */
  settleMove(id: string): void {
    fs.rmSync(this.movedMarker(id), { force: true });
  }

  async recordUse(session: Session, packages: string[], secretMarks: SecretMark[], network: NetworkMode): Promise<void> {
    await session.stored;
    await this.store.query('update sandbox_sessions set packages = $2::jsonb, secret_marks = $3::jsonb, network = $4, last_used_at = now(), runs = runs + 1 where id = $1',
      [session.id, JSON.stringify(packages), JSON.stringify(secretMarks), network]);
  }

  /**
   * Records what the session costs the host's disk: its image's allocated blocks, or what its filesystem counts as used
   * when that is more (data not yet written back has no blocks in the image yet). A stat and a statfs, no tree walk.
   */
  async measure(id: string): Promise<void> {
    const bytes = Math.max(this.volumes.hostBytes(id), this.volumes.usage(id)?.usedBytes ?? 0);
    await this.store.query('update sandbox_sessions set disk_bytes = $2 where id = $1', [id, bytes]);
  }

  /** This instance's sessions, least recently used first, with what each costs the disk and how long it has been idle. */
  private async held(): Promise<HeldSession[]> {
    const rows = await this.store.query<{ id: string; owner: string; disk_bytes: string | number; idle_ms: string | number }>(
      `select id, owner, disk_bytes, extract(epoch from (now() - last_used_at)) * 1000 as idle_ms
       from sandbox_sessions where instance = $1 order by last_used_at asc, id asc`, [this.instance]);
    return rows.map((row) => ({ id: row.id, owner: row.owner, bytes: Number(row.disk_bytes), idleMs: Number(row.idle_ms) }));
  }

  /**
   * Makes room for a new session of `owner` before it is created, or refuses it. In order: the owner's own least
   * recently used idle sessions go while it is at its session count or over its disk budget, and (trading its own space)
   * while this instance is over its disk budget; then other owners' sessions idle past `idleMs`. Never a live session of
   * another owner within its budget: 429 `session_limit` / 507 `sandbox_disk_full` go to the owner that asked instead.
   */
  async admit(owner: string, budget: SessionBudget, busy: Set<string>): Promise<string[]> {
    const sessions = await this.held();
    const evicted: string[] = [];
    const drop = (session: HeldSession) => this.evictFrom(sessions, session, evicted);
    const own = () => sessions.filter((session) => session.owner === owner);
    const spare = () => own().find((session) => !busy.has(session.id));
    const sum = (list: HeldSession[]) => list.reduce((total, session) => total + session.bytes, 0);
    const instance = () => sum(sessions) + (budget.otherBytes?.() ?? 0);
    while (own().length >= budget.ownerSessions) {
      const victim = spare();
      if (!victim) {
        throw new ToolDexError('session_limit', 429,
          `This owner holds ${own().length} sandbox sessions, all in use, and may hold ${budget.ownerSessions} (TOOLDEX_SANDBOX_OWNER_SESSIONS); retry when one of them has finished.`,
          { retryAfterSeconds: 5 });
      }
      await drop(victim);
    }
    while (sum(own()) >= budget.ownerBytes || instance() >= budget.instanceBytes) {
      const victim = spare() ?? sessions.find((session) => session.owner !== owner && !busy.has(session.id) && session.idleMs >= budget.idleMs);
      if (!victim) {
        const ownerFull = sum(own()) >= budget.ownerBytes;
        throw new ToolDexError('sandbox_disk_full', 507, ownerFull
          ? `This owner's sandbox sessions use ${mib(sum(own()))} of its ${mib(budget.ownerBytes)} disk budget (TOOLDEX_SANDBOX_OWNER_DISK_MB) and are all in use; retry when one has finished.`
          : `This instance's sandbox disk is full (${mib(instance())} of ${mib(budget.instanceBytes)}, TOOLDEX_SANDBOX_DISK_MB; running compiles' volumes count too) with other owners' live sessions; no new session can be placed here now. Retry later, or continue a session of your own.`,
        { retryAfterSeconds: 60 });
      }
      await drop(victim);
    }
    return evicted;
  }

  /**
   * After a call: every owner over its session count or disk budget loses its own least recently used idle sessions
   * until it is within (its most recently used session always stays); then, while this instance is over its disk budget, sessions idle past `idleMs` go (least recently
   * used first, whoever owns them). A session of an owner within its budget, used within `idleMs`, is never evicted.
   */
  async evict(budget: SessionBudget, busy: Set<string>): Promise<string[]> {
    const sessions = await this.held();
    const evicted: string[] = [];
    const drop = (session: HeldSession) => this.evictFrom(sessions, session, evicted);
    for (const owner of new Set(sessions.map((session) => session.owner))) {
      for (;;) {
        const own = sessions.filter((session) => session.owner === owner);
        const bytes = own.reduce((total, session) => total + session.bytes, 0);
        if (own.length <= budget.ownerSessions && bytes <= budget.ownerBytes) break;
        // The owner's most recently used session stays, even when it alone is over a small budget: it was just used.
        const victim = own.slice(0, -1).find((session) => !busy.has(session.id));
        if (!victim) break;
        await drop(victim);
      }
    }
    let total = sessions.reduce((sum, session) => sum + session.bytes, 0) + (budget.otherBytes?.() ?? 0);
    for (const session of [...sessions]) {
      if (total <= budget.instanceBytes) break;
      if (busy.has(session.id) || session.idleMs < budget.idleMs) continue;
      await drop(session);
      total -= session.bytes;
    }
    return evicted;
  }

  /** Removes one session and takes it out of the list admit() or evict() is working through, recording its id. */
  private async evictFrom(sessions: HeldSession[], session: HeldSession, evicted: string[]): Promise<void> {
    await this.remove(session.id);
    sessions.splice(sessions.indexOf(session), 1);
    evicted.push(session.id);
  }

  async remove(id: string): Promise<void> {
    await this.store.query('delete from sandbox_sessions where id = $1', [id]);
    this.lastUse.delete(id);
    await this.volumes.remove(id);
  }

  /** Unmounts volumes idle for longer than idleMs (a later call mounts them again in a few ms). */
  async unmountIdle(idleMs: number, busy: Set<string>): Promise<void> {
    const now = Date.now();
    for (const [id, used] of this.lastUse) {
      if (now - used < idleMs || busy.has(id)) continue;
      this.lastUse.delete(id);
      await this.volumes.unmount(id).catch(() => undefined);
    }
  }

  /** Server shutdown: unmounts every volume this process mounted (the sessions stay on disk) and drops the pool's. */
  async unmountAll(): Promise<void> {
    this.closed = true;
    await this.refilling;
    for (const id of this.pool.splice(0)) await this.volumes.remove(id).catch(() => undefined);
    for (const id of [...this.lastUse.keys()]) await this.volumes.unmount(id).catch(() => undefined);
    this.lastUse.clear();
  }

  /**
   * Start-up: volumes without a row are removed, this instance's rows without a volume are deleted, and folders of the
   * earlier layout (a plain folder per session, no quota) are discarded with their rows. Returns what was removed.
   */
  async reconcile(): Promise<{ orphanVolumes: string[]; orphanRows: string[]; oldLayout: string[] }> {
    const rows = await this.store.query<{ id: string; instance: string | null }>('select id, instance from sandbox_sessions');
    const known = new Map(rows.map((row) => [row.id, row.instance]));
    const orphanVolumes: string[] = [];
    for (const id of this.volumes.list()) {
      const instance = known.get(id);
      if (instance === this.instance) continue;
      if (instance === undefined) {
        await this.volumes.remove(id);
        orphanVolumes.push(id);
      }
    }
    const oldLayout: string[] = [];
    for (const entry of fs.readdirSync(this.volumes.root, { withFileTypes: true })) {
      if (!entry.isDirectory() || !SESSION_ID.test(entry.name) || this.volumes.exists(entry.name)) continue;
      if (!isMountPoint(path.join(this.volumes.root, entry.name)) && fs.existsSync(path.join(this.volumes.root, entry.name, 'work'))) {
        await this.store.query('delete from sandbox_sessions where id = $1', [entry.name]);
        fs.rmSync(path.join(this.volumes.root, entry.name), { recursive: true, force: true });
        oldLayout.push(entry.name);
      }
    }
    const orphanRows = rows.filter((row) => row.instance === this.instance && !this.volumes.exists(row.id)).map((row) => row.id);
    for (const id of orphanRows) await this.store.query('delete from sandbox_sessions where id = $1', [id]);
    return { orphanVolumes, orphanRows, oldLayout };
  }
}

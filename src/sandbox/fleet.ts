// Sandbox sessions across a fleet of instances on one database: each instance that holds session volumes advertises
// the URL its peers reach it at (a heartbeat row); a call for a session held elsewhere is forwarded there, sealed,
// signed and single-use.
import crypto from 'node:crypto';
import { ToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';
import type { SessionOwner, TestRequest, TestResult } from './schema.ts';

export const HEARTBEAT_MS = 10_000;
/** An instance not heard from for this long is gone: its sessions may be taken over by another instance. */
export const GONE_AFTER_MS = 60_000;
/** How far a forwarded call's signature time may be from the receiver's clock. */
const SIGNATURE_WINDOW_MS = 60_000;

export const FORWARD_PATH = '/internal/sandbox/test';

export interface ForwardedCall {
  request: TestRequest;
  owner: SessionOwner;
  /** Signature time (ms since the epoch). */
  at: number;
}

/**
 * What travels between instances: the call sealed with AES-256-GCM under a key derived from the shared secret key (so
 * its files and `env[].secret` values are never in plain text on the wire, TLS or not), the time and a nonce in the
 * clear (bound to the ciphertext as associated data), signed as a whole with the fleet's HMAC key.
 */
interface WireCall {
  sealed: string;
  at: number;
  nonce: string;
}
export interface Peer {
  /** The instance has announced an address (TOOLDEX_SANDBOX_INSTANCE_URL) at some point. */
  known: boolean;
  url: string | null;
  /** Heard from within GONE_AFTER_MS. */
  alive: boolean;
}

export class SandboxFleet {
  private timer: NodeJS.Timeout | undefined;
  private readonly key: Buffer;

  private readonly sealKey: Buffer;

  constructor(private readonly store: Store, readonly instance: string, secretKey: Buffer, private readonly logger: Logger) {
    // Its own keys, derived from the redaction key every instance of a fleet already shares: one signs, one seals.
    this.key = crypto.createHmac('sha256', secretKey).update('tooldex-sandbox-fleet').digest();
    this.sealKey = crypto.createHmac('sha256', secretKey).update('tooldex-sandbox-fleet-seal').digest();
  }

  /** Starts announcing `url` as this instance's address (every HEARTBEAT_MS). */
  async advertise(url: string): Promise<void> {
    const beat = () => this.store.query(
      `insert into sandbox_instances (id, url, seen_at) values ($1, $2, now())
       on conflict (id) do update set url = excluded.url, seen_at = now()`, [this.instance, url.replace(/\/+$/, '')]);
    await beat();
    clearInterval(this.timer);
    this.timer = setInterval(() => { beat().catch((err: unknown) => this.logger.warn({ err }, 'sandbox heartbeat failed')); }, HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Stops the heartbeat; the row stays, so a restart on the same home keeps its sessions instead of handing them over. */
  close(): void {
    clearInterval(this.timer);
  }

  async locate(instance: string): Promise<Peer> {
    const rows = await this.store.query<{ url: string; age_ms: string | number }>(
      'select url, extract(epoch from (now() - seen_at)) * 1000 as age_ms from sandbox_instances where id = $1', [instance]);
    const row = rows[0];
    if (!row) return { known: false, url: null, alive: false };
    return { known: true, url: row.url, alive: Number(row.age_ms) < GONE_AFTER_MS };
  }

  sign(body: string): string {
    return crypto.createHmac('sha256', this.key).update(body).digest('hex');
  }

  /**
   * Checks a forwarded call: signature, age, that its nonce was never accepted before (recorded in the store, so a replay
   * fails on every instance and after a restart), and opens the sealed call. Undefined when it is not one of the
   * fleet's, or a replay.
   */
  async verify(body: string, signature: string | undefined): Promise<ForwardedCall | undefined> {
    if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return undefined;
    const expected = Buffer.from(this.sign(body), 'hex');
    if (!crypto.timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return undefined;
    const wire = JSON.parse(body) as Partial<WireCall>;
    if (typeof wire.sealed !== 'string' || typeof wire.at !== 'number' || typeof wire.nonce !== 'string' || !/^[0-9a-f]{32}$/.test(wire.nonce)) return undefined;
    if (Math.abs(Date.now() - wire.at) > SIGNATURE_WINDOW_MS) return undefined;
    const opened = this.open(wire as WireCall);
    if (!opened) return undefined;
    await this.store.query(`delete from sandbox_forward_nonces where seen_at < now() - interval '${(3 * SIGNATURE_WINDOW_MS) / 1000} seconds'`);
    const fresh = await this.store.query<{ nonce: string }>(
      'insert into sandbox_forward_nonces (nonce) values ($1) on conflict (nonce) do nothing returning nonce', [wire.nonce]);
    if (!fresh[0]) {
      this.logger.warn({ at: wire.at }, 'sandbox: a forwarded call was replayed; refused');
      return undefined;
    }
    return { ...opened, at: wire.at };
  }

  /** The body of a forwarded call: sealed, timed, with a fresh nonce. */
  seal(request: TestRequest, owner: SessionOwner): string {
    const at = Date.now();
    const nonce = crypto.randomBytes(16).toString('hex');
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.sealKey, iv).setAAD(Buffer.from(`${at}.${nonce}`));
    const sealed = Buffer.concat([cipher.update(JSON.stringify({ request, owner }), 'utf8'), cipher.final()]);
    return JSON.stringify({ sealed: Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64'), at, nonce } satisfies WireCall);
  }

  private open(wire: WireCall): Omit<ForwardedCall, 'at'> | undefined {
    try {
      const bytes = Buffer.from(wire.sealed, 'base64');
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.sealKey, bytes.subarray(0, 12)).setAAD(Buffer.from(`${wire.at}.${wire.nonce}`));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      return JSON.parse(plain) as Omit<ForwardedCall, 'at'>;
    } catch {
      return undefined;
    }
  }

  /**
   * Sends the call to the instance holding the session and returns its answer; the peer's errors come back as the same
   * ToolDexError. Rejects with `unreachable` when the peer did not answer (the caller decides: wait, or take over).
   */
  async forward(url: string, request: TestRequest, owner: SessionOwner, timeoutMs: number): Promise<TestResult> {
    const body = this.seal(request, owner);
    let response: Response;
    try {
      response = await fetch(`${url}${FORWARD_PATH}`, {
        method: 'POST', body, signal: AbortSignal.timeout(timeoutMs),
        headers: { 'content-type': 'application/json', 'x-tooldex-fleet-signature': this.sign(body) },
      });
    } catch (error) {
      throw new PeerUnreachable(url, (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
    }
    const answer = await response.json().catch(() => undefined) as (TestResult & { error?: { status: number; code: string; message: string } }) | undefined;
    if (response.ok && answer) return answer;
    if (answer?.error) throw new ToolDexError(answer.error.code, response.status, answer.error.message);
    throw new PeerUnreachable(url, `HTTP ${response.status}`);
  }
}

export class PeerUnreachable extends Error {
  constructor(readonly url: string, readonly reason: string) {
    super(`the instance at ${url} did not answer (${reason})`);
  }
}

// Sandbox sessions across a fleet of instances on one database: each instance that holds session volumes advertises
// the URL its peers reach it at (a heartbeat row); a call for a session held elsewhere is forwarded there, signed.
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

  constructor(private readonly store: Store, readonly instance: string, secretKey: Buffer, private readonly logger: Logger) {
    // Its own key, derived from the redaction key every instance of a fleet already shares.
    this.key = crypto.createHmac('sha256', secretKey).update('tooldex-sandbox-fleet').digest();
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

  /** Checks a forwarded call's signature and age; undefined when it is not one of the fleet's. */
  verify(body: string, signature: string | undefined): ForwardedCall | undefined {
    if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return undefined;
    const expected = Buffer.from(this.sign(body), 'hex');
    if (!crypto.timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return undefined;
    const call = JSON.parse(body) as ForwardedCall;
    return Math.abs(Date.now() - call.at) <= SIGNATURE_WINDOW_MS ? call : undefined;
  }

  /**
   * Sends the call to the instance holding the session and returns its answer; the peer's errors come back as the same
   * ToolDexError. Rejects with `unreachable` when the peer did not answer (the caller decides: wait, or take over).
   */
  async forward(url: string, request: TestRequest, owner: SessionOwner, timeoutMs: number): Promise<TestResult> {
    const body = JSON.stringify({ request, owner, at: Date.now() } satisfies ForwardedCall);
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

// Finds or becomes the process that serves MCP on this machine's embedded store. The holder of the store lock
// offers TOOLDEX_HOME/mcp.sock (a `tooldex serve`, or the first `tooldex mcp`); others connect to it, and when
// nobody holds the store, the process that wins the claim (election.ts) opens it and becomes the holder.
import fs from 'node:fs';
import net from 'node:net';
import type { Config } from '../config.ts';
import { ToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { readLock } from '../store/lock.ts';
import { claimStore } from './election.ts';
import { mcpSocketPath, type McpSocket } from './socket.ts';

/** How long a process waits for a live holder of the store to offer MCP (a first start on a new home builds
 * the store and its index; a holder that is not a server, such as an ingest, never offers it). */
export const HOLDER_WAIT_MS = 120_000;
const POLL_MS = 150;

export interface Hub {
  /** The MCP socket this process serves (it holds the store). */
  socket: McpSocket;
  close(): Promise<void>;
}

export interface HubFinder {
  /** A connection to the current holder's MCP socket, becoming the holder first when there is none. */
  connect(): Promise<net.Socket>;
  /** The hub this process runs, if it became one. */
  own(): Hub | undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function dial(socketPath: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', () => resolve(undefined)); // absent or refused: nobody serves it (yet)
  });
}

/** Opens the store and everything a holder offers: the app, the admin socket (`tooldex keys`), the MCP socket. */
async function becomeHub(config: Config, logger: Logger): Promise<Hub> {
  const [{ createApp }, { openAdminChannel }, { keyOperations }, { openMcpSocket }, { isEmbedded }] = await Promise.all([
    import('../app.ts'), import('../admin/channel.ts'), import('../admin/operations.ts'), import('./socket.ts'), import('../store/index.ts'),
  ]);
  const app = await createApp(config, logger);
  try {
    const admin = await openAdminChannel(config.TOOLDEX_HOME, keyOperations(app.auth), logger);
    if (isEmbedded(app.store)) app.store.advertiseAdminSocket(admin.path);
    const socket = await openMcpSocket(config.TOOLDEX_HOME, app, logger);
    logger.info({ store: app.store.kind, tools: app.catalog.size(), socket: socket.path }, 'MCP: this process holds the store; other tooldex mcp processes connect here');
    return {
      socket,
      async close() {
        const closing = Date.now();
        await socket.close();
        await admin.close();
        await app.close();
        logger.info({ ms: Date.now() - closing }, 'MCP: store closed and released');
      },
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}

export function hubFinder(config: Config, logger: Logger): HubFinder {
  const home = config.TOOLDEX_HOME;
  let hub: Hub | undefined;

  async function connect(): Promise<net.Socket> {
    const started = Date.now();
    let waitingFor: number | undefined;
    for (;;) {
      const holder = readLock(home);
      if (holder) {
        const socket = fs.existsSync(mcpSocketPath(home)) ? await dial(mcpSocketPath(home)) : undefined;
        if (socket) return socket;
        if (holder.pid === process.pid) throw new Error('this process holds the store but its MCP socket does not answer');
        if (waitingFor !== holder.pid) {
          waitingFor = holder.pid;
          logger.info({ pid: holder.pid }, 'MCP: waiting for the process that holds the store to offer MCP');
        }
        if (Date.now() - started > HOLDER_WAIT_MS) {
          throw new ToolDexError('store_locked', 409,
            `the embedded store in ${home} is held by process ${holder.pid}, which offers no MCP socket ` +
            `(not a tooldex server or tooldex mcp); wait for it to finish, pass --url to use a server, or set DATABASE_URL.`,
            { pid: holder.pid });
        }
      } else {
        const ballot = await claimStore(home);
        if (ballot) {
          try {
            // Re-read under the claim: a `tooldex serve` or an ingest may have taken the store meanwhile.
            if (!readLock(home)) {
              hub = await becomeHub(config, logger);
              const own = await dial(hub.socket.path);
              if (!own) throw new Error('the MCP socket this process just opened does not answer');
              return own;
            }
          } catch (error) {
            // Lost the store to a process that is not an MCP contender (its lock came first): go back to waiting.
            if (!(error instanceof ToolDexError && error.code === 'store_locked')) throw error;
          } finally {
            // The claim only guards opening the store; the store lock says who holds it from here on.
            await ballot.release();
          }
        }
      }
      await pause(POLL_MS);
    }
  }

  return { connect, own: () => hub };
}

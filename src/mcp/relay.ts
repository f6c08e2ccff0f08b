// Relays an MCP client's stdio to the local MCP socket, line by line (stdio framing on both sides), and
// survives a hand-over: when the holder goes away it reconnects to the next one, replays the client's
// `initialize` there, and resends every request that was not answered yet, so the client sees no gap.
import readline from 'node:readline';
import type net from 'node:net';
import type { Logger } from '../log.ts';

type Id = string | number;
interface Message { id?: Id; method?: string; result?: unknown; error?: unknown }

const REPLAY_PREFIX = 'tooldex-relay-';

export interface RelayOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** A connection to the current holder (becoming it if need be); called again after each hand-over. */
  connect(): Promise<net.Socket>;
  logger: Logger;
}

function parse(line: string): Message | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Message) : undefined;
  } catch {
    return undefined; // not ours to judge: the server answers a parse error
  }
}

/** Runs until the client closes its side (stdin ends); resolves then. */
export async function relayStdio(options: RelayOptions): Promise<void> {
  const { logger } = options;
  const pending = new Map<Id, string>(); // requests not answered yet, in the order the client sent them
  const backlog: string[] = []; // notifications that arrived while no holder was connected
  let initialize: string | undefined;
  let initialized: string | undefined;
  let socket: net.Socket | undefined;
  let connecting: Promise<void> | undefined;
  let replays = 0;
  let ended = false;

  const send = (line: string) => socket?.write(`${line}\n`);

  const fromServer = (line: string) => {
    const message = parse(line);
    if (message && message.id !== undefined && message.method === undefined) {
      if (typeof message.id === 'string' && message.id.startsWith(REPLAY_PREFIX)) return; // our replayed initialize
      pending.delete(message.id);
    }
    options.output.write(`${line}\n`);
  };

  async function reconnect(): Promise<void> {
    const next = await options.connect();
    if (ended) {
      next.destroy();
      return;
    }
    next.setNoDelay?.(true);
    // A holder that exits resets the connection: readline re-emits the socket's error, and 'close' follows.
    const lines = readline.createInterface({ input: next, crlfDelay: Infinity });
    lines.on('line', fromServer);
    lines.on('error', (err) => logger.debug({ err }, 'MCP relay socket error'));
    next.on('error', (err) => logger.debug({ err }, 'MCP relay socket error'));
    next.once('close', () => {
      if (socket !== next || ended) return;
      socket = undefined;
      logger.info({ unanswered: pending.size }, 'MCP: the process holding the store went away; handing over');
      connecting ??= reconnect().catch(fail).finally(() => (connecting = undefined));
    });
    socket = next;
    // A new holder has not seen this client: introduce it (answer dropped) unless the original is still unanswered.
    const firstId = initialize ? parse(initialize)?.id : undefined;
    if (initialize && firstId !== undefined && !pending.has(firstId)) {
      const replay = { ...parse(initialize), id: `${REPLAY_PREFIX}${++replays}` };
      send(JSON.stringify(replay));
      if (initialized) send(initialized);
    }
    for (const line of pending.values()) send(line);
    for (const line of backlog.splice(0)) send(line);
  }

  let rejectRun: (error: unknown) => void = () => undefined;
  const fail = (error: unknown) => rejectRun(error);

  const fromClient = (line: string) => {
    if (!line.trim()) return;
    const message = parse(line);
    if (message?.method !== undefined && message.id !== undefined) {
      pending.set(message.id, line);
      if (message.method === 'initialize') initialize = line;
    } else if (message?.method === 'notifications/initialized') {
      initialized = line;
    }
    if (socket) send(line);
    else if (!(message?.method !== undefined && message.id !== undefined)) backlog.push(line); // requests wait in `pending`
  };

  await new Promise<void>((resolve, reject) => {
    rejectRun = reject;
    const input = readline.createInterface({ input: options.input, crlfDelay: Infinity });
    input.on('line', fromClient);
    input.on('error', (err) => logger.warn({ err }, 'MCP stdin error'));
    input.once('close', () => {
      ended = true;
      socket?.end();
      resolve();
    });
    connecting = reconnect().catch(fail).finally(() => (connecting = undefined));
  });
}

// `tooldex mcp` on the embedded store: any number of them share one TOOLDEX_HOME. Each relays its stdio to the
// MCP socket of whichever process holds the store (the first one becomes that holder); when the holder exits,
// the others hand over to a new one. This process exits when its own client closes stdin or signals it.
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { hubFinder } from './hub.ts';
import { relayStdio } from './relay.ts';

export async function serveLocalMcp(config: Config, logger: Logger): Promise<void> {
  const finder = hubFinder(config, logger);
  const stop = new Promise<void>((resolve) => {
    // Clients stop servers with a signal too; closing lets a held store shut down cleanly.
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => resolve());
  });
  try {
    await Promise.race([
      relayStdio({ input: process.stdin, output: process.stdout, connect: finder.connect, logger }),
      stop,
    ]);
  } finally {
    // MCP clients give a server about 2 s after closing stdin before they signal it: close promptly.
    await finder.own()?.close();
  }
}

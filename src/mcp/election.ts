// Which `tooldex mcp` process on this machine may open the embedded store when nobody holds it: the one that
// binds an abstract Unix socket named after TOOLDEX_HOME. The kernel makes the bind atomic and frees the name
// when the process dies, so contenders never both win and a crash never leaves a stale claim behind.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';

export interface Ballot {
  release(): Promise<void>;
}

/** The claim's name: one per home (resolved, so two spellings of one folder are one claim). */
function claimName(home: string): string {
  let resolved = home;
  try {
    resolved = fs.realpathSync(home);
  } catch { /* not created yet: the spelling given is all there is */ }
  return `\0tooldex-mcp-${crypto.createHash('sha256').update(resolved).digest('hex').slice(0, 32)}`;
}

/** Claims the right to open the store, or returns undefined when another process holds the claim. */
export async function claimStore(home: string): Promise<Ballot | undefined> {
  // Abstract sockets are Linux only; elsewhere the store lock file alone decides (its rare take-over race remains).
  if (process.platform !== 'linux') return { release: async () => undefined };
  const server = net.createServer((socket) => socket.destroy());
  const won = await new Promise<boolean>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    server.listen({ path: claimName(home) }, () => resolve(true));
  });
  if (!won) return undefined;
  server.unref(); // the claim must not keep the process alive on its own
  return { release: () => new Promise((resolve) => server.close(() => resolve())) };
}

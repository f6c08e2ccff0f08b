// Unix sockets in TOOLDEX_HOME that only the owner may open (the admin channel, the MCP hub).
import fs from 'node:fs';
import type net from 'node:net';

/**
 * Listens on `socketPath` with the file 0600 from its first instant: the socket file is created inside listen(), so a
 * tight umask around that call covers it even when TOOLDEX_HOME was made by hand with looser permissions (no other
 * JavaScript runs between the two calls).
 */
export async function listenOwnerOnly(server: net.Server, socketPath: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const previous = process.umask(0o177);
    try {
      server.listen(socketPath, () => resolve());
    } finally {
      process.umask(previous);
    }
  });
  fs.chmodSync(socketPath, 0o600);
}

// The local MCP socket: a Unix socket (mode 0600) in TOOLDEX_HOME that the process holding the embedded store
// opens, so every `tooldex mcp` on the machine shares that one store. Each connection is one MCP session,
// framed as on stdio (one JSON-RPC message per line); the tools run here with the local owner, as in-process.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Logger } from '../log.ts';
import { listenOwnerOnly } from '../private-socket.ts';
import { createMcpServer } from './server.ts';
import type { Capabilities } from './tools.ts';

export const mcpSocketPath = (home: string) => path.join(home, 'mcp.sock');

/** Sessions of local MCP clients: the same owner whichever process serves them, so a sandbox session made
 * through one editor's `tooldex mcp` is reusable through another's, and after a hand-over. */
export const LOCAL_OWNER = 'local';

export interface McpSocket {
  path: string;
  /** Local MCP sessions connected now. */
  connections(): number;
  close(): Promise<void>;
}

export async function openMcpSocket(home: string, caps: Capabilities, logger: Logger): Promise<McpSocket> {
  const socketPath = mcpSocketPath(home);
  // The caller holds the store lock, so a socket file left here belongs to a holder that died.
  fs.rmSync(socketPath, { force: true });
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    open.add(socket);
    socket.on('error', () => undefined); // a relay that vanished: its session simply ends
    const mcp = createMcpServer(caps, { owner: LOCAL_OWNER }, {
      onUnexpectedError: (err, tool) => logger.error({ err, tool }, 'MCP tool failed'),
    });
    socket.once('close', () => {
      open.delete(socket);
      void mcp.close();
    });
    void mcp.connect(new StdioServerTransport(socket, socket));
  });
  await listenOwnerOnly(server, socketPath);
  return {
    path: socketPath,
    connections: () => open.size,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      // Relays resend what was unanswered to the next holder, so open sessions end now rather than drain.
      for (const socket of open) socket.destroy();
      fs.rmSync(socketPath, { force: true });
    }),
  };
}

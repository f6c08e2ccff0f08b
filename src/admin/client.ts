// Client of the local admin channel: sends one operation to the server that holds the embedded store.
import net from 'node:net';
import { ToolDexError } from '../errors.ts';
import type { OperationName } from './operations.ts';

export function callAdmin(socketPath: string, op: OperationName, input: unknown, timeoutMs = 30_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new ToolDexError('admin_timeout', 504, `The server did not answer on ${socketPath} within ${timeoutMs / 1000} s.`));
    });
    socket.on('connect', () => socket.write(`${JSON.stringify({ op, input })}\n`));
    socket.on('data', (chunk: string) => (buffer += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => reject(new ToolDexError('admin_unreachable', 503,
      `The server holding the store does not answer on ${socketPath} (${error.code ?? error.message}); is it still running?`)));
    socket.on('end', () => {
      try {
        const reply = JSON.parse(buffer) as { result?: unknown; error?: { status: number; code: string; message: string } };
        if (reply.error) reject(new ToolDexError(reply.error.code, reply.error.status, reply.error.message));
        else resolve(reply.result);
      } catch {
        reject(new ToolDexError('admin_unreachable', 503, `The server sent an unreadable answer on ${socketPath}.`));
      }
    });
  });
}

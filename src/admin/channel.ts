// The local admin channel: a Unix socket (mode 0600) in TOOLDEX_HOME that a server holding the embedded store
// opens, so operator commands act through it instead of opening the database files. One JSON line in, one out.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { toToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { listenOwnerOnly } from '../private-socket.ts';
import type { KeyOperations } from './operations.ts';

export const adminSocketPath = (home: string) => path.join(home, 'admin.sock');
const MAX_REQUEST_BYTES = 64 * 1024;

export interface AdminChannel {
  path: string;
  close(): Promise<void>;
}

export async function openAdminChannel(home: string, operations: KeyOperations, logger: Logger): Promise<AdminChannel> {
  const socketPath = adminSocketPath(home);
  // We hold the store lock, so a socket file left here belongs to a server that died.
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(30_000, () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) return socket.destroy();
      const end = buffer.indexOf('\n');
      if (end < 0) return;
      void answer(buffer.slice(0, end)).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
    socket.on('error', () => undefined);
  });

  async function answer(line: string): Promise<unknown> {
    try {
      const request = JSON.parse(line) as { op?: string; input?: unknown };
      const op = operations[request.op as keyof KeyOperations];
      if (!op) return { error: { status: 400, code: 'unknown_operation', message: `Unknown admin operation ${String(request.op)}.` } };
      const parsed = op.input.safeParse(request.input ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return { error: { status: 422, code: 'invalid_request', message: `Invalid ${issue?.path.join('.') || 'input'}: ${issue?.message}.` } };
      }
      logger.info({ op: request.op }, 'admin operation');
      return { result: await (op.run as (input: unknown) => Promise<unknown>)(parsed.data) };
    } catch (error) {
      const mapped = toToolDexError(error);
      if (mapped.status >= 500) logger.error({ err: error }, 'admin operation failed');
      return mapped.toBody();
    }
  }

  await listenOwnerOnly(server, socketPath);
  return {
    path: socketPath,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socketPath, { force: true });
    }),
  };
}

// Sends a capability result in the format the client asked for (json default, toon on request).
import type { FastifyReply } from 'fastify';
import { encodeResult, type WireFormat } from '../format.ts';

export function sendResult(reply: FastifyReply, result: unknown, format: WireFormat | undefined, status = 200) {
  const encoded = encodeResult(result, format ?? 'json');
  return reply.status(status).type(encoded.contentType).send(encoded.body);
}

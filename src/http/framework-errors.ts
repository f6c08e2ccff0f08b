// Errors raised before a route runs — by Node's HTTP parser (431 oversized headers, malformed requests), by the
// router (bad percent-encoding, oversized path parameters) — answered in the one error body like every other error.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ToolDexError } from '../errors.ts';
import { replyWithError } from './errors.ts';

/** Longest path parameter the router accepts; schemas set tighter limits (slugs: 300) and answer 422 past them. */
export const MAX_PARAM_LENGTH = 2000;

/** Node's parser gives up before Fastify sees a request: write the JSON error on the socket ourselves. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] = error.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'headers_too_large', 'The request line and headers are larger than 16 KiB; shorten the URL (q takes at most 1,000 characters) or the headers.']
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request_timeout', 'The request was not received in time.']
      : [400, 'bad_request', `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`];
  const body = JSON.stringify({ error: { status, code, message } });
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** The router's own errors (Fastify's `frameworkErrors` option). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const path = (request.raw.url ?? '').split('?')[0]!.slice(0, 120);
  const mapped = error.code === 'FST_ERR_BAD_URL'
    ? new ToolDexError('invalid_url', 400, `The path ${JSON.stringify(path)} is not valid percent-encoding (UTF-8 bytes as %XX).`)
    : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ToolDexError('uri_too_long', 414, `A path segment is longer than ${MAX_PARAM_LENGTH} characters.`)
      : error;
  replyWithError(mapped, request, reply);
}

/**
 * Broken percent-encoding in the query string (`?q=%E0%A4%A`). The router's query parser keeps such a value as its raw
 * text, so a search would run on "%E0%A4%A" and answer 200; the path form already answers 400 `invalid_url`, and the
 * query string now does the same (an `onRequest` hook, before auth and rate limits spend anything on it).
 */
export function rejectMalformedQuery(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  if (at < 0 || url.indexOf('%', at) < 0) return done();
  for (const part of url.slice(at + 1).split('&')) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      const name = part.split('=')[0]!.slice(0, 40);
      replyWithError(new ToolDexError('invalid_url', 400,
        `The query parameter ${JSON.stringify(name)} is not valid percent-encoding (UTF-8 bytes as %XX).`), request, reply);
      return;
    }
  }
  done();
}

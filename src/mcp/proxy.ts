// `tooldex mcp` as a thin client: relays MCP messages between stdio and a tooldex server's /mcp endpoint,
// so the tools run where the store is (a remote server, or the local server that holds the embedded store).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode, isJSONRPCRequest, isJSONRPCResultResponse, LATEST_PROTOCOL_VERSION, type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolDexError } from '../errors.ts';
import { toolError } from './server.ts';

export interface ProxyOptions {
  /** Base URL of the tooldex server; messages go to <url>/mcp. */
  url: string;
  apiKey?: string;
  /** Told about relay failures (stderr in the CLI); stdout belongs to the protocol. */
  onError?: (error: Error) => void;
}

export async function proxyStdioToServer(options: ProxyOptions): Promise<{ closed: Promise<void> }> {
  const endpoint = new URL('/mcp', options.url);
  const local = new StdioServerTransport();
  const remote = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {} },
  });
  const pendingInitialize = new Set<string | number>();

  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === 'initialize') pendingInitialize.add(message.id);
    remote.send(message).catch((error: unknown) => {
      options.onError?.(error as Error);
      if (isJSONRPCRequest(message)) void local.send(failureReply(message, error, endpoint));
    });
  };
  remote.onmessage = (message: JSONRPCMessage) => {
    // The SDK's Client tells its transport the negotiated version; a relay has to do it itself.
    if (isJSONRPCResultResponse(message) && pendingInitialize.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      remote.setProtocolVersion(typeof version === 'string' ? version : LATEST_PROTOCOL_VERSION);
    }
    void local.send(message);
  };
  remote.onerror = (error) => options.onError?.(error);

  const closed = new Promise<void>((resolve) => {
    local.onclose = () => void remote.close().finally(resolve);
    process.stdin.once('end', () => void local.close());
  });
  await remote.start();
  await local.start();
  return { closed };
}

/** A request the server never answered: a tool call gets a tool error (code + message), anything else a JSON-RPC error. */
function failureReply(request: { id: string | number; method: string }, error: unknown, endpoint: URL): JSONRPCMessage {
  const mapped = toRelayError(error, endpoint);
  if (request.method === 'tools/call') return { jsonrpc: '2.0', id: request.id, result: toolError(mapped) };
  return { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InternalError, message: `${mapped.code}: ${mapped.message}` } };
}

function toRelayError(error: unknown, endpoint: URL): ToolDexError {
  if (error instanceof StreamableHTTPError) {
    // The server's REST-style error body ({error:{status,code,message}}) follows the SDK's prefix.
    const body = /\{.*\}\s*$/s.exec(error.message)?.[0];
    try {
      const parsed = JSON.parse(body ?? '') as { error?: { status?: number; code?: string; message?: string } };
      if (parsed.error?.code) {
        return new ToolDexError(parsed.error.code, parsed.error.status ?? error.code ?? 502, parsed.error.message ?? error.message);
      }
    } catch { /* not a tooldex body: fall through */ }
    return new ToolDexError('upstream_error', 502, `${endpoint} answered ${error.code ?? '?'}: ${error.message}`);
  }
  const err = error as Error & { cause?: { code?: string; message?: string } };
  return new ToolDexError('server_unreachable', 503,
    `Cannot reach the tooldex server at ${endpoint} (${err.cause?.code ?? err.cause?.message ?? err.message}); start it (tooldex serve) or fix --url/TOOLDEX_URL.`);
}

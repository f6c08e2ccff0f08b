// createMcpServer(caps, context): an MCP server exposing the tools of tools.ts over any transport (stdio, Streamable HTTP).
// It validates arguments with the tools' zod schemas, calls the capability, encodes via src/format.ts; nothing more.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError,
  type CallToolResult, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ToolDexError, toToolDexError } from '../errors.ts';
import { encodeResult } from '../format.ts';
import { findTool, TOOLS, type CallContext, type Capabilities, type ToolDefinition } from './tools.ts';

export const SERVER_INFO = { name: 'tooldex', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'tooldex finds developer tools and proves they work. Workflow: search_tools (find a slug) → get_tool_context ' +
  '(install + quickstart) → search_docs (specific questions) → test_tool (run a snippet; reuse its sessionId). ' +
  'Slugs take a version ("npm-zod@3.23.8", "npm-zod@3"). In get_tool_context, quickstart.verified says whether tooldex ' +
  'ran that quickstart itself on that exact version in its sandbox: "ran" (it printed the stdout shown; testRequest is ' +
  'the exact body that ran: safe to start from), "pending" (ask again shortly), "failed" or "unverifiable" (with a ' +
  'reason: the snippet is unproven, test it yourself). Answers are compact TOON by default (the fields an agent acts ' +
  'on, lists as tables); pass format "json" for JSON and detail "full" for every field.';

// Argument names whose errors carry their own stable code, as on the REST surface.
const FIELD_CODES: Record<string, string> = {
  query: 'invalid_query', format: 'invalid_format', limit: 'invalid_limit', maxTokens: 'invalid_max_tokens', symbol: 'invalid_symbol',
};

export interface McpServerOptions {
  /** Logs unexpected (non-ToolDexError) failures; their details never reach the client. */
  onUnexpectedError?: (error: unknown, tool: string) => void;
}

// Built once per process: the HTTP surface makes a server per request, and a fresh Ajv instance and
// tool list per request measured about 1-2 ms of the call.
const jsonSchemaValidator = new AjvJsonSchemaValidator();
let toolList: Tool[] | undefined;

export function createMcpServer(caps: Capabilities, context: CallContext, options: McpServerOptions = {}): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator,
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (toolList ??= TOOLS.map(describeTool)) }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = findTool(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}"; tools: ${TOOLS.map((t) => t.name).join(', ')}.`);
    }
    try {
      await context.admit?.(tool.name);
      const args = parseArguments(tool, request.params.arguments ?? {});
      const result = await tool.run(caps, args as never, context);
      return { content: [{ type: 'text', text: encodeResult(result, args.format).body }] };
    } catch (error) {
      if (!(error instanceof ToolDexError)) options.onUnexpectedError?.(error, tool.name);
      return toolError(toToolDexError(error));
    }
  });
  return server;
}

function describeTool(tool: ToolDefinition): Tool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchema as Tool['inputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: false,
      idempotentHint: tool.readOnly,
      openWorldHint: tool.openWorld,
    },
  };
}

function parseArguments(tool: ToolDefinition, args: unknown): { format: 'json' | 'toon' } {
  const parsed = tool.input.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // Unknown arguments are refused, as unknown query parameters are on REST: a misspelt `limt` must not pass silently.
  if (issue?.code === 'unrecognized_keys' && issue.path.length === 0) {
    const field = issue.keys[0] ?? 'arguments';
    throw new ToolDexError('invalid_request', 422,
      `Argument "${field}" is not accepted; ${tool.name} takes ${argumentNames(tool).join(', ')}.`, { field });
  }
  const field = issue?.path.map(String).join('.') || 'arguments';
  const code = FIELD_CODES[String(issue?.path[0] ?? '')] ?? 'invalid_request';
  throw new ToolDexError(code, 422, `Invalid ${tool.name} argument "${field}": ${issue?.message ?? 'invalid value'}.`, { field });
}

function argumentNames(tool: ToolDefinition): string[] {
  const schema = z.toJSONSchema(tool.input, { io: 'input' }) as { properties?: Record<string, unknown> };
  return Object.keys(schema.properties ?? {});
}

/** A ToolDexError as an MCP tool error: the REST error body (with retryAfterSeconds, hints), as text and structured content. */
export function toolError(error: ToolDexError): CallToolResult {
  const body = error.toBody();
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

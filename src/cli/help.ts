// The top-level `tooldex --help` epilogue: the workflow in examples, the output rule and the exit codes.
export const PROGRAM_HELP = `
Examples:
  $ tooldex search validate typescript object schemas at runtime
  $ tooldex context npm-zod
  $ tooldex docs npm-zod how do I make a field optional
  $ tooldex test index.ts --package zod
  $ tooldex mcp                      # MCP server on stdio for Claude, Cursor, VS Code

Client commands talk to --url / TOOLDEX_URL (default http://localhost:8080) with --api-key / TOOLDEX_API_KEY.
Output: human on a terminal, json when piped; --format human|json|toon wins over --json, which wins over the default.

Exit status: 0 ok, 1 the snippet did not run (tooldex test), 2 usage error, 3 server or network error.
`;

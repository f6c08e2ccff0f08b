// `tooldex mcp`: the MCP server on stdio. On the embedded store, every `tooldex mcp` on one TOOLDEX_HOME shares
// the process that holds it (src/mcp/local.ts); with --url/TOOLDEX_URL it relays to that server's /mcp, and on
// DATABASE_URL (which admits many processes) it serves in-process.
import type { Command } from 'commander';
import { configSchema, loadConfig } from '../../config.ts';
import { createLogger } from '../../log.ts';
import { examples } from '../options.ts';

const DEFAULT_URL = configSchema.shape.TOOLDEX_URL.parse(undefined);

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('Serve the tooldex MCP tools on stdio (for Claude, Cursor, VS Code and other MCP clients)')
    .option('--url <url>', 'relay to this tooldex server instead of the local store (default: TOOLDEX_URL when set)')
    .option('--api-key <key>', 'API key for --url (default: TOOLDEX_API_KEY)')
    .addHelpText('after', `${examples(
      'tooldex mcp                                   # local store in TOOLDEX_HOME (or DATABASE_URL)',
      'tooldex mcp --url https://tooldex.example.com --api-key $KEY',
    )}\nAny number of editors may run \`tooldex mcp\` on one TOOLDEX_HOME: the first (or a running \`tooldex serve\`)
holds the store and the others connect to it through TOOLDEX_HOME/mcp.sock; when it exits, another takes over.\n`)
    .action(async (flags: { url?: string; apiKey?: string }) => {
      const config = loadConfig({ TOOLDEX_URL: flags.url, TOOLDEX_API_KEY: flags.apiKey });
      const logger = createLogger(config.LOG_LEVEL);
      const remote = flags.url ?? (config.TOOLDEX_URL !== DEFAULT_URL ? config.TOOLDEX_URL : undefined);
      // Loaded here, not at the top: every other command would otherwise pay for the whole app on start-up.
      if (remote) {
        const { proxyStdioToServer } = await import('../../mcp/proxy.ts');
        logger.info({ url: remote }, 'MCP on stdio, relaying to a tooldex server');
        const relay = await proxyStdioToServer({
          url: remote, apiKey: config.TOOLDEX_API_KEY, onError: (err) => logger.warn({ err }, 'MCP relay error'),
        });
        await relay.closed;
        return;
      }
      if (!config.DATABASE_URL) {
        const { serveLocalMcp } = await import('../../mcp/local.ts');
        await serveLocalMcp(config, logger);
        process.exit(); // a signal listener or a lingering handle must not keep a finished server alive
      }
      const [{ createApp }, { createMcpServer }, { StdioServerTransport }, { LOCAL_OWNER }] = await Promise.all([
        import('../../app.ts'), import('../../mcp/server.ts'), import('@modelcontextprotocol/sdk/server/stdio.js'), import('../../mcp/socket.ts'),
      ]);
      const app = await createApp(config, logger);
      const server = createMcpServer(app, { owner: LOCAL_OWNER }, {
        onUnexpectedError: (err, tool) => logger.error({ err, tool }, 'MCP tool failed'),
      });
      const closed = new Promise<void>((resolve) => {
        server.onclose = resolve;
        process.stdin.once('end', () => void server.close());
        // Clients stop servers with a signal too; closing lets the store shut down cleanly.
        for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void server.close());
      });
      await server.connect(new StdioServerTransport());
      logger.info({ store: app.store.kind, tools: app.catalog.size() }, 'MCP on stdio, PostgreSQL store');
      await closed;
      await app.close();
    });
}

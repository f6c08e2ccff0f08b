// `tooldex mcp`: the MCP server on stdio. On the local store by default; relays to a server's /mcp when
// --url/TOOLDEX_URL is given, or when a running server holds the embedded store (it admits one process).
import type { Command } from 'commander';
import { configSchema, loadConfig, type Config } from '../../config.ts';
import { ToolDexError } from '../../errors.ts';
import { createLogger } from '../../log.ts';
import { readLock } from '../../store/lock.ts';
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
    )}\nWhen a tooldex server already holds the embedded store in TOOLDEX_HOME, \`tooldex mcp\` relays to it.\n`)
    .action(async (flags: { url?: string; apiKey?: string }) => {
      const config = loadConfig({ TOOLDEX_URL: flags.url, TOOLDEX_API_KEY: flags.apiKey });
      const logger = createLogger(config.LOG_LEVEL);
      const remote = flags.url ?? (config.TOOLDEX_URL !== DEFAULT_URL ? config.TOOLDEX_URL : undefined) ?? localServerUrl(config);
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
      const [{ createApp }, { createMcpServer }, { StdioServerTransport }] = await Promise.all([
        import('../../app.ts'), import('../../mcp/server.ts'), import('@modelcontextprotocol/sdk/server/stdio.js'),
      ]);
      const app = await createApp(config, logger);
      const server = createMcpServer(app, { owner: 'local' }, {
        onUnexpectedError: (err, tool) => logger.error({ err, tool }, 'MCP tool failed'),
      });
      const closed = new Promise<void>((resolve) => {
        server.onclose = resolve;
        process.stdin.once('end', () => void server.close());
        // Clients stop servers with a signal too; closing lets the embedded store shut down cleanly.
        for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void server.close());
      });
      await server.connect(new StdioServerTransport());
      logger.info({ store: app.store.kind, tools: app.catalog.size() }, 'MCP on stdio, local store');
      await closed;
      await app.close();
    });
}

/** The URL of the server holding the embedded store, if one does; a holder that is not a server is an error. */
function localServerUrl(config: Config): string | undefined {
  if (config.DATABASE_URL) return undefined; // PostgreSQL admits many processes
  const holder = readLock(config.TOOLDEX_HOME);
  if (!holder) return undefined;
  if (holder.url) return holder.url;
  throw new ToolDexError('store_locked', 409,
    `the embedded store in ${config.TOOLDEX_HOME} is held by process ${holder.pid}, which is not a tooldex server; ` +
    'wait for it to finish, pass --url to use a server, or set DATABASE_URL.');
}

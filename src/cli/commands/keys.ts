// `tooldex keys create|list|revoke`: operator commands on API keys. Through the running server's admin socket
// when a server holds the embedded store; otherwise they open the configured store (PGlite or PostgreSQL) directly.
import { Option, type Command } from 'commander';
import type { KeyOperations, OperationName } from '../../admin/operations.ts';
import type { ApiKeyInfo, CreatedApiKey } from '../../auth/index.ts';
import { loadConfig } from '../../config.ts';
import { ToolDexError } from '../../errors.ts';
import { createLogger } from '../../log.ts';
import { readLock } from '../../store/lock.ts';
import { examples, OUTPUT_FORMATS, outputFormat, type ClientFlags } from '../options.ts';
import { writeResult, type Style } from '../output.ts';

type Flags = Pick<ClientFlags, 'format' | 'json'>;

/**
 * Runs one key operation where the store is: via the holder's socket, or on a store opened here.
 * The store and auth modules load only here, so `tooldex --help` and the client commands start fast.
 */
async function runKeyOperation(op: OperationName, input: unknown): Promise<unknown> {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    const holder = readLock(config.TOOLDEX_HOME);
    if (holder?.adminSocket) return (await import('../../admin/client.ts')).callAdmin(holder.adminSocket, op, input);
    // Held by a process without an admin socket (e.g. an ingest): openStore refuses with store_locked.
  }
  const [{ openStore }, { createAuth }, { keyOperations }] = await Promise.all([
    import('../../store/index.ts'), import('../../auth/index.ts'), import('../../admin/operations.ts'),
  ]);
  const store = await openStore(config);
  // Key operations never touch rate-limit counters: no Redis connection for them.
  const auth = createAuth(store, { ...config, REDIS_URL: undefined }, createLogger('silent'));
  try {
    const operation = keyOperations(auth)[op] as KeyOperations[OperationName];
    const parsed = operation.input.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ToolDexError('invalid_request', 422, `Invalid ${issue?.path.join('.') || 'input'}: ${issue?.message}.`);
    }
    return await (operation.run as (value: unknown) => Promise<unknown>)(parsed.data);
  } finally {
    await auth.close();
    await store.close();
  }
}

const formatOptions = (command: Command) => command
  .addOption(new Option('--format <format>', 'output: human, json or toon (default: human on a terminal, json when piped)').choices(OUTPUT_FORMATS))
  .option('--json', 'shorthand for --format json');

const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : 'never');

function renderCreated(key: Pick<CreatedApiKey, 'id' | 'key' | 'org' | 'name'>, style: Style): string {
  return [
    `${style.green('Created')} API key ${style.bold(key.name)} (${key.id}) for organisation ${style.bold(key.org)}:`,
    '',
    `  ${key.key}`,
    '',
    style.dim('This is the only time the key is shown; store it now. Send it as `Authorization: Bearer <key>`.'),
  ].join('\n');
}

function renderList(result: { keys: ApiKeyInfo[] }, style: Style): string {
  if (result.keys.length === 0) return style.dim('No API keys.');
  const rows = result.keys.map((k) => [k.id, k.org, k.name, `${k.prefix}…`, when(k.createdAt), when(k.lastUsedAt), k.revokedAt ? style.red('revoked') : style.green('active')]);
  const header = ['ID', 'ORG', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'STATUS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').replace(/\x1b\[\d+m/g, '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c + ' '.repeat(Math.max(0, (widths[i] ?? 0) - c.replace(/\x1b\[\d+m/g, '').length))).join('  ').trimEnd();
  return [style.bold(line(header)), ...rows.map(line)].join('\n');
}

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('Create, list and revoke API keys (operators; acts on TOOLDEX_HOME or DATABASE_URL)');

  formatOptions(keys.command('create')
    .description('Create an API key for an organisation (created if needed); the key is printed once')
    .requiredOption('--org <name>', 'organisation name, or id (org_…) when several share the name')
    .option('--name <label>', 'label of the key', 'default')
    .addHelpText('after', examples('tooldex keys create --org acme --name ci', 'tooldex keys create --org acme --json | jq -r .key')))
    .action(async (flags: Flags & { org: string; name: string }) => {
      const created = await runKeyOperation('keys.create', { org: flags.org, name: flags.name }) as CreatedApiKey;
      const { id, key, org, name, createdAt } = created;
      writeResult({ id, key, org, name, createdAt }, outputFormat(flags), renderCreated);
    });

  formatOptions(keys.command('list')
    .description('List API keys (never the keys themselves): id, organisation, name, prefix, created, last used, status')
    .option('--org <name>', 'only this organisation (name, or id org_…)')
    .addHelpText('after', examples('tooldex keys list', 'tooldex keys list --org acme --json')))
    .action(async (flags: Flags & { org?: string }) => {
      const list = await runKeyOperation('keys.list', flags.org === undefined ? {} : { org: flags.org }) as ApiKeyInfo[];
      writeResult({ keys: list }, outputFormat(flags), renderList);
    });

  formatOptions(keys.command('revoke')
    .description('Revoke an API key by id; every server rejects it from the next request on')
    .argument('<id>', 'key id (key_…), as `tooldex keys list` shows')
    .addHelpText('after', examples('tooldex keys revoke key_AbCdEf123456')))
    .action(async (id: string, flags: Flags) => {
      const revoked = await runKeyOperation('keys.revoke', { id }) as ApiKeyInfo;
      writeResult(revoked, outputFormat(flags), (k, style) => `${style.red('Revoked')} ${k.name} (${k.id}) of ${k.org} at ${when(k.revokedAt)}.`);
    });
}

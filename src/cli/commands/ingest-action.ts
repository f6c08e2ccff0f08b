// The work of `tooldex ingest`: opens the configured store itself (it runs while no server holds the embedded
// store, or on PostgreSQL), ingests with a progress bar on a terminal, and optionally writes the snapshot.
import cliProgress from 'cli-progress';
import { ingestCatalog, type IngestProgress } from '../../catalog/ingest.ts';
import { allTools } from '../../catalog/repository.ts';
import { writeSnapshot } from '../../catalog/snapshot.ts';
import { ECOSYSTEMS, type Ecosystem } from '../../catalog/types.ts';
import { loadConfig } from '../../config.ts';
import { preindexTopDocs } from '../../docs/top.ts';
import { ToolDexError } from '../../errors.ts';
import { createLogger } from '../../log.ts';
import { openStore } from '../../store/index.ts';

export interface IngestFlags {
  ecosystem?: string;
  top?: string;
  concurrency: string;
  resumeHours: string;
  snapshot?: string;
  docs?: boolean;
  offline?: boolean;
  names?: string;
  discoverCrates?: string;
  measure?: boolean;
  verify?: boolean;
}

export async function runIngest(flags: IngestFlags): Promise<void> {
  const named = flags.names?.split(',').map((entry) => entry.trim()).filter(Boolean).map((entry) => {
    const colon = entry.indexOf(':');
    return { ecosystem: entry.slice(0, colon) as Ecosystem, name: entry.slice(colon + 1) };
  });
  const ecosystems = (flags.ecosystem?.split(',').map((e) => e.trim()) ?? (named ? [...new Set(named.map((n) => n.ecosystem))] : undefined)) as Ecosystem[] | undefined;
  const unknown = ecosystems?.filter((e) => !(ECOSYSTEMS as readonly string[]).includes(e)) ?? [];
  if (unknown.length) throw new ToolDexError('invalid_request', 400, `Unknown ecosystem ${unknown.join(', ')}; use ${ECOSYSTEMS.join(', ')}.`);
  const config = loadConfig();
  const logger = createLogger(process.stderr.isTTY ? 'warn' : config.LOG_LEVEL);
  const store = await openStore(config);
  if (flags.verify && !flags.docs) {
    await store.close();
    throw new ToolDexError('invalid_request', 400, '--verify goes with --docs: tooldex ingest --docs --top N --verify.');
  }
  if (flags.docs && flags.verify) {
    const { verifyTopQuickstarts } = await import('../../quickstart/top.ts');
    const n = flags.top ? Number(flags.top) : 100;
    const bar = process.stderr.isTTY
      ? new cliProgress.SingleBar({ format: 'verify [{bar}] {value}/{total} {slug}', stream: process.stderr }, cliProgress.Presets.shades_classic)
      : undefined;
    bar?.start(n, 0, { slug: '' });
    try {
      const result = await verifyTopQuickstarts(store, config, logger, n, (p) => {
        if (bar) bar.update(p.done, { slug: `${p.slug} ${p.status ?? 'error'}` });
        else process.stderr.write(`verify ${p.done}/${p.total} ${p.slug}${p.version ? `@${p.version} ${p.status}` : ` failed: ${p.error}`}${p.status && p.status !== 'ran' && p.reason ? `: ${p.reason.slice(0, 160)}` : ''}\n`);
      });
      bar?.stop();
      process.stdout.write(`${JSON.stringify({ quickstarts: result })}\n`);
    } finally {
      bar?.stop();
      await store.close();
    }
    return;
  }
  if (flags.docs) {
    try {
      const result = await preindexTopDocs(store, config, logger, flags.top ? Number(flags.top) : 100, (p) =>
        process.stderr.write(`docs ${p.done}/${p.total} ${p.slug}${p.version ? `@${p.version} ${p.passages} passages` : ` failed: ${p.error}`}\n`));
      process.stdout.write(`${JSON.stringify({ docs: result })}\n`);
    } finally {
      await store.close();
    }
    return;
  }
  const progress = progressReporter();
  try {
    const summaries = await ingestCatalog(store, config, logger, {
      ecosystems, top: flags.top ? Number(flags.top) : undefined, concurrency: Number(flags.concurrency),
      skipFreshHours: Number(flags.resumeHours), onProgress: progress.update, offline: flags.offline,
      measurePopularity: flags.measure !== false, discoverCrates: flags.discoverCrates ? Number(flags.discoverCrates) : undefined,
      names: named && Object.fromEntries([...new Set(named.map((n) => n.ecosystem))]
        .map((ecosystem) => [ecosystem, named.filter((n) => n.ecosystem === ecosystem).map((n) => n.name)])),
    });
    progress.stop();
    for (const s of summaries) {
      process.stderr.write(`${s.ecosystem.padEnd(9)} fetched ${s.fetched}, from seed list ${s.fromSeed}, skipped ${s.skipped} (fresh), not found ${s.missing}, failed ${s.failed} in ${(s.ms / 1000).toFixed(1)} s\n`);
    }
    if (flags.snapshot) {
      const count = await writeSnapshot(flags.snapshot, (await allTools(store)).sort((a, b) => a.slug.localeCompare(b.slug)));
      process.stderr.write(`snapshot: ${count} tools written to ${flags.snapshot}\n`);
    }
    process.stdout.write(`${JSON.stringify({ ingested: summaries })}\n`);
  } finally {
    progress.stop();
    await store.close();
  }
}

/** A progress bar per ecosystem on a terminal; a line every 500 names otherwise. */
function progressReporter() {
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar({ format: '{ecosystem} [{bar}] {value}/{total} failed {failed} eta {eta}s', stream: process.stderr }, cliProgress.Presets.shades_classic)
    : undefined;
  let current: Ecosystem | undefined;
  return {
    update(event: IngestProgress) {
      if (bar) {
        if (current !== event.ecosystem) {
          if (current) bar.stop();
          bar.start(event.total, 0, { ecosystem: event.ecosystem.padEnd(8), failed: 0 });
          current = event.ecosystem;
        }
        bar.update(event.done, { failed: event.failed });
      } else if (event.done % 500 === 0 || event.done === event.total) {
        process.stderr.write(`${event.ecosystem}: ${event.done}/${event.total} (${event.failed} failed)\n`);
      }
    },
    stop: () => bar?.stop(),
  };
}

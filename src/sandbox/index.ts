// The sandbox capability: runTest(request, owner) checks policy, admits the run, prepares the session, then installs,
// builds and runs through isolated steps and reports an honest status. Knows nothing of HTTP, MCP or terminals.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { listSetting } from '../config.ts';
import { invalidInput, ToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';
import { ensureStageDir, writeSandboxEtc, type HostIdentity, type IsolatedResult } from './isolate.ts';
import { removeStaleCgroups, type RunLimits } from './limits.ts';
import { SLIRP_DNS } from './network.ts';
import { isWorkspaceFile, safeRelativePath, writeWorkspaceFile } from './paths.ts';
import { probeHost } from './probe.ts';
import { RunQueue } from './queue.ts';
import { createRedactor, longestForm } from './redact.ts';
import { describeEnd, finishOutputs, policyResult } from './result.ts';
import { RUNTIME_ADAPTERS, type ParsedPackage, type RuntimeContext, type Step } from './runtimes/index.ts';
import type { Runtime, Sandbox, SessionOwner, TestRequest, TestResult } from './schema.ts';
import { SessionStore, type Session } from './sessions.ts';
import { runStep, type StepOptions } from './steps.ts';
import { detectToolchains, type Toolchains } from './toolchains.ts';

export type { Sandbox } from './schema.ts';

export interface SandboxService extends Sandbox {
  /** Test hook: called with each sandbox's pid after its network rules are in and before its program starts. */
  onSandboxReady?: (pid: number, step: Step['name']) => void | Promise<void>;
  toolchains(): Promise<Toolchains>;
  /** Resolves when the bookkeeping after each reply (analytics row, disk measure, eviction) has finished. */
  settled(): Promise<void>;
}

interface Host {
  identity: HostIdentity;
  toolchains: Toolchains;
  problem?: string;
}

export function createSandbox(config: Config, store: Store, logger: Logger): SandboxService {
  const root = path.join(config.TOOLDEX_HOME, 'sandbox');
  const cacheRoot = config.TOOLDEX_SANDBOX_CACHE_DIR ?? path.join(root, 'cache');
  const uid = config.TOOLDEX_SANDBOX_UID;
  const sessions = new SessionStore(store, path.join(root, 'sessions'), { uid, gid: uid });
  const queue = new RunQueue(config.TOOLDEX_SANDBOX_CONCURRENCY, config.TOOLDEX_SANDBOX_QUEUE);
  const disabled = new Set(listSetting(config.TOOLDEX_DISABLED_RUNTIMES).map((r) => r.toLowerCase()));
  const denied = new Set(listSetting(config.TOOLDEX_DENY_PACKAGES).map((p) => p.toLowerCase()));
  const limits: RunLimits = { memoryBytes: config.TOOLDEX_SANDBOX_MEMORY_MB * 1024 * 1024, pids: config.TOOLDEX_SANDBOX_PIDS, cpus: 1 };
  const quotaBytes = config.TOOLDEX_SANDBOX_SESSION_MB * 1024 * 1024;
  const gemSource = loopbackAware(config.TOOLDEX_GEM_SOURCE ?? config.TOOLDEX_RUBYGEMS_URL);

  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const tracked = work.catch((error: unknown) => logger.warn({ err: error }, 'sandbox bookkeeping failed'))
      .finally(() => pending.delete(tracked));
    pending.add(tracked);
  };

  let hostPromise: Promise<Host> | undefined;
  const host = () => {
    hostPromise ??= (async () => {
      const identity: HostIdentity = { uid, gid: uid, stageDir: ensureStageDir(), etcDir: path.join(root, 'etc'), bwrap: config.TOOLDEX_BWRAP };
      writeSandboxEtc(identity.etcDir, SLIRP_DNS);
      for (const runtime of Object.keys(RUNTIME_ADAPTERS)) {
        const dir = path.join(cacheRoot, runtime);
        fs.mkdirSync(dir, { recursive: true });
        fs.chownSync(dir, uid, uid);
      }
      removeStaleCgroups();
      const [toolchains, problem] = await Promise.all([detectToolchains(config.TOOLDEX_TOOLCHAIN_PATH), probeHost(identity)]);
      if (problem) logger.error({ problem }, 'sandbox unavailable on this host');
      return { identity, toolchains, problem };
    })();
    return hostPromise;
  };

  const service: SandboxService = {
    toolchains: async () => (await host()).toolchains,
    async run(request: TestRequest, owner: SessionOwner): Promise<TestResult> {
      const runtime = request.runtime;
      const adapter = RUNTIME_ADAPTERS[runtime];
      if (disabled.has(runtime)) {
        return policyResult('blocked', request.sessionId, 'runtime_disabled', `The ${runtime} runtime is turned off on this server (TOOLDEX_DISABLED_RUNTIMES).`);
      }
      const parsed = request.packages.map((spec) => adapter.parsePackage(spec));
      const deny = parsed.find((p) => denied.has(p.name) || denied.has(`${runtime}:${p.name}`));
      if (deny) {
        return policyResult('blocked', request.sessionId, 'package_denied', `Package "${deny.name}" is on this server's deny list (TOOLDEX_DENY_PACKAGES).`);
      }
      const files = request.files.map((file) => ({ segments: checkPath(file.path, adapter.reservedPaths), code: file.code }));
      const entry = checkPath(request.entry ?? request.files[0]?.path ?? '', adapter.reservedPaths).join('/');
      const { identity, toolchains, problem } = await host();
      if (problem) {
        throw new ToolDexError('sandbox_unavailable', 503, `No sandbox can be started on this host: ${problem}`, { retryAfterSeconds: 60 });
      }
      const toolchain = toolchains[runtime];
      if (!toolchain.available) {
        return policyResult('unavailable', request.sessionId, 'runtime_unavailable',
          `This host has no ${runtime} toolchain (${toolchain.reason ?? 'not found'}); see \`tooldex doctor\`.`);
      }
      const existing = request.sessionId ? await sessions.get(request.sessionId, owner) : undefined;
      if (existing && existing.runtime !== runtime) {
        throw invalidInput('session_runtime_mismatch', `Session ${existing.id} runs ${existing.runtime}, not ${runtime}; start a new session for ${runtime}.`, { field: 'runtime' });
      }
      const queueKey = existing?.id ?? `new:${Math.random()}`;
      return queue.run(queueKey, async () => {
        const started = Date.now();
        // Re-read inside the queue: a call that waited on this session must see the packages the previous one installed.
        const session = existing ? await sessions.get(existing.id, owner) : sessions.create(owner, runtime);
        queue.busy.add(session.id);
        try {
          return await execute(session, files, entry, parsed, started);
        } finally {
          queue.busy.delete(session.id);
        }
      });

      async function execute(session: Session, files: Array<{ segments: string[]; code: string }>, entryPath: string,
        packages: ParsedPackage[], started: number): Promise<TestResult> {
        for (const file of files) writeWorkspaceFile(session.workDir, file.segments, file.code, { uid, gid: uid });
        if (!isWorkspaceFile(session.workDir, entryPath.split('/'))) {
          throw invalidInput('entry_not_found', `Entry "${entryPath}" is not a file in the session workspace; send it in files.`, { field: 'entry' });
        }
        const secrets = request.env.flatMap((item) => (item.secret === undefined ? [] : [item.secret]));
        const redact = createRedactor(secrets);
        const ctx: RuntimeContext = {
          toolchain, gemSource, goproxy: config.TOOLDEX_GOPROXY, npmRegistry: config.TOOLDEX_NPM_REGISTRY,
          pypiUrl: config.TOOLDEX_PYPI_URL.replace(/\/$/, ''),
        };
        const options = (step: Step, timeoutMs: number, extra: Partial<StepOptions> = {}): StepOptions => ({
          identity, toolchain, session, cacheDir: path.join(cacheRoot, runtime), limits, timeoutMs,
          sessionQuotaBytes: quotaBytes, onReady: service.onSandboxReady && ((pid) => service.onSandboxReady?.(pid, step.name)), ...extra,
        });
        const phases = { provisionMs: 0, installMs: 0, runMs: 0 };
        phases.provisionMs = Date.now() - started;
        // merge: an installer's messages may go to either stream; failed_install reports both in stderr.
        const finish = async (status: TestResult['status'], result: IsolatedResult, note?: string, merge = false): Promise<TestResult> => {
          const outputs = finishOutputs(result, redact, note, merge);
          const known = new Set(session.packages);
          const installed = status === 'failed_install' ? session.packages
            : [...session.packages, ...packages.map((p) => p.spec).filter((spec) => !known.has(spec))];
          await sessions.recordUse(session, installed);
          logger.info({ sessionId: session.id, runtime, status, phases, env: request.env.map((item) => item.name), packages: packages.length }, 'sandbox run');
          // Bookkeeping that the answer does not depend on happens after replying: analytics, disk size, eviction.
          track((async () => {
            await store.query('insert into sandbox_runs (session_id, owner, runtime, slug, status, provision_ms, install_ms, run_ms) values ($1,$2,$3,$4,$5,$6,$7,$8)',
              [session.id, owner, runtime, request.slug ?? null, status, phases.provisionMs, phases.installMs, phases.runMs]);
            await sessions.measure(session.id);
            const evicted = await sessions.evict(config.TOOLDEX_SANDBOX_DISK_MB * 1024 * 1024, queue.busy);
            if (evicted.length) logger.info({ evicted }, 'sandbox sessions evicted');
          })());
          return {
            ok: status === 'ran', status, phases, ...outputs, exitCode: result.exitCode,
            sessionId: session.id, sessionExpiresAt: null, sessionReused: session.reused,
          };
        };
        const setupFailure = (result: IsolatedResult) =>
          new ToolDexError('sandbox_failed', 503, `The sandbox could not be set up: ${result.setupError}`, { retryAfterSeconds: 5 });

        const known = new Set(session.packages);
        const added = packages.filter((p) => !known.has(p.spec));
        if (added.length > 0) {
          const installStarted = Date.now();
          const { trusted, fallback } = adapter.install(ctx, added, packages);
          let result = await runStep(trusted, options(trusted, config.TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS));
          if (result.setupError) throw setupFailure(result);
          if (!succeeded(result) && fallback && !result.timedOut) {
            result = await runStep(fallback, options(fallback, config.TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS));
            if (result.setupError) throw setupFailure(result);
          }
          phases.installMs = Date.now() - installStarted;
          if (!succeeded(result)) return finish('failed_install', result, describeEnd(result, 'install', limits), true);
        }
        if (adapter.build) {
          const build = adapter.build(ctx, entryPath);
          const result = await runStep(build, options(build, config.TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS));
          if (result.setupError) throw setupFailure(result);
          phases.provisionMs += result.setupMs;
          phases.runMs += result.runMs;
          if (!succeeded(result)) return finish('failed_run', result, describeEnd(result, 'build', limits));
        }
        const runStepSpec = adapter.run(ctx, entryPath);
        const plainEnv = Object.fromEntries(request.env.flatMap((item) => (item.secret === undefined ? [[item.name, item.value ?? '']] : [])));
        const secretEnv = Object.fromEntries(request.env.flatMap((item) => (item.secret === undefined ? [] : [[item.name, item.secret]])));
        const result = await runStep(runStepSpec, options(runStepSpec, request.timeoutMs, { extraEnv: plainEnv, secretEnv, redactionSlack: longestForm(secrets) }));
        if (result.setupError) throw setupFailure(result);
        phases.provisionMs += result.setupMs;
        phases.runMs += result.runMs;
        if (result.timedOut) return finish('timeout', result, describeEnd(result, 'run', limits, request.timeoutMs));
        return finish(succeeded(result) ? 'ran' : 'failed_run', result, describeEnd(result, 'run', limits));
      }
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close() {
      // Runs end with their requests (the HTTP server drains first); nothing runs between calls. Finish bookkeeping.
      await service.settled();
    },
  };
  return service;
}

const succeeded = (result: IsolatedResult) => result.exitCode === 0 && !result.timedOut && !result.limit;

function checkPath(raw: string, reserved: RegExp | undefined): string[] {
  const segments = safeRelativePath(raw);
  if (reserved?.test(segments.join('/'))) {
    throw invalidInput('invalid_path', `"${raw}" is reserved for the installer's configuration in this runtime.`, { field: 'files' });
  }
  return segments;
}

/** A gem source on host loopback is reached through the slirp gateway on that port only (install step). */
function loopbackAware(source: string): RuntimeContext['gemSource'] {
  try {
    const url = new URL(source);
    if (['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      url.hostname = '10.0.2.2';
      return { url: url.toString(), hostPort: port };
    }
  } catch {
    // not a URL: gem reports it at install time
  }
  return { url: source };
}

export type { Runtime };

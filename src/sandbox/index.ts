// The sandbox capability: runTest(request, owner) checks policy, admits the run, prepares the session, then fetches,
// builds and runs through isolated steps and reports an honest status. Knows nothing of HTTP, MCP or terminals.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { listSetting } from '../config.ts';
import { invalidInput, ToolDexError } from '../errors.ts';
import type { Logger } from '../log.ts';
import type { Store } from '../store/index.ts';
import { Exposure, exposureBase } from './exposure.ts';
import { ensureSandboxHost, instanceId, loadRedactionKey, type SandboxHost } from './host.ts';
import type { IsolatedResult } from './isolate.ts';
import type { RunLimits } from './limits.ts';
import { CacheOwner } from './cache-owner.ts';
import { DownloadCaches } from './download-caches.ts';
import { BuildLayers, stepHash, volumeScratch } from './layers.ts';
import { manifestPackages } from './manifests.ts';
import { isWorkspaceFile, safeRelativePath, writeWorkspaceFile } from './paths.ts';
import { RunQueue } from './queue.ts';
import { createRedactor, longestForm, mergeMarks, secretMarks } from './redact.ts';
import { describeEnd, endedBy, finishOutputs, policyResult } from './result.ts';
import { RUNTIME_ADAPTERS, type ParsedPackage, type RuntimeAdapter, type RuntimeContext, type Step } from './runtimes/index.ts';
import type { LockedPin } from './runtimes/types.ts';
import { RUNTIMES, type EndedBy, type NetworkMode, type Runtime, type Sandbox, type SessionOwner, type TestPhases, type TestRequest, type TestResult } from './schema.ts';
import { SessionStore, sessionNotFound, type Session, type SessionBudget } from './sessions.ts';
import { GONE_AFTER_MS, PeerUnreachable, SandboxFleet, type ForwardedCall } from './fleet.ts';
import { checkSources, packageSources, registries, sourcePorts } from './sources.ts';
import { runStep, type StepOptions } from './steps.ts';
import type { Toolchains } from './toolchains.ts';
import { SessionVolumes } from './volume.ts';

export type { Sandbox } from './schema.ts';

export interface SandboxService extends Sandbox {
  /** Announces the URL other instances reach this one at (TOOLDEX_SANDBOX_INSTANCE_URL does it at start). */
  advertise(url: string): Promise<void>;
  /** Checks a call another instance forwarded (signature and age); undefined when it is not the fleet's. */
  verifyForwarded(body: string, signature: string | undefined): Promise<ForwardedCall | undefined>;
  /** Test hook: called with each sandbox's wrapper pid after its network is joined and before its program starts. */
  onSandboxReady?: (pid: number, step: Step['name']) => void | Promise<void>;
  toolchains(): Promise<Toolchains>;
  /** Resolves when the bookkeeping after each reply (analytics row, disk measure, eviction) has finished. */
  settled(): Promise<void>;
}

/** Volumes of sessions idle this long are unmounted (mounting again costs a few ms). */
const IDLE_UNMOUNT_MS = 10 * 60_000;

export function createSandbox(config: Config, store: Store, logger: Logger): SandboxService {
  const root = path.join(config.TOOLDEX_HOME, 'sandbox');
  const cacheRoot = config.TOOLDEX_SANDBOX_CACHE_DIR ?? path.join(root, 'cache');
  const uid = config.TOOLDEX_SANDBOX_UID;
  const instance = instanceId(root);
  const exposure = new Exposure(path.join(exposureBase(), instance), uid);
  exposure.prepare();
  const volumes = new SessionVolumes(path.join(root, 'sessions'), exposure.sessionsDir, { uid, gid: uid },
    { bytes: config.TOOLDEX_SANDBOX_SESSION_MB * 1024 * 1024, inodes: config.TOOLDEX_SANDBOX_SESSION_INODES });
  const sessions = new SessionStore(store, volumes, instance);
  const fleet = new SandboxFleet(store, instance, loadRedactionKey(root, config.TOOLDEX_SANDBOX_SECRET_KEY), logger);
  const perOwner = config.TOOLDEX_SANDBOX_OWNER_CONCURRENCY || Math.max(1, Math.floor(config.TOOLDEX_SANDBOX_CONCURRENCY / 2));
  const queue = new RunQueue(config.TOOLDEX_SANDBOX_CONCURRENCY, config.TOOLDEX_SANDBOX_QUEUE, perOwner);
  const disabled = new Set(listSetting(config.TOOLDEX_DISABLED_RUNTIMES).map((r) => r.toLowerCase()));
  const denied = new Set(listSetting(config.TOOLDEX_DENY_PACKAGES).map((p) => p.toLowerCase()));
  // The program runs under the run limits; every step before it (fetches, compiles, source-package installs) under the
  // build limits: a compiler needs far more memory than most programs (Go compiling a pure-Go SQLite driver: ~560 MiB).
  const runLimits: RunLimits = { memoryBytes: config.TOOLDEX_SANDBOX_MEMORY_MB * 1024 * 1024, pids: config.TOOLDEX_SANDBOX_PIDS, cpus: 1 };
  const buildLimits: RunLimits = { ...runLimits, memoryBytes: config.TOOLDEX_SANDBOX_BUILD_MEMORY_MB * 1024 * 1024 };
  const limitsOf = (step: Step): RunLimits => (step.kind === 'run' && step.name === 'run' ? runLimits : buildLimits);
  /** The setting behind a step's memory and wall-clock limits, named in the `[sandbox]` note when one ends it. */
  const settingsOf = (step: Step) => (step.kind === 'fetch'
    ? { memory: 'TOOLDEX_SANDBOX_BUILD_MEMORY_MB', timeout: 'TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS' }
    : step.name === 'run' ? { memory: 'TOOLDEX_SANDBOX_MEMORY_MB', timeout: 'timeoutMs' }
      : { memory: 'TOOLDEX_SANDBOX_BUILD_MEMORY_MB', timeout: 'TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS' });
  const sources = registries(config);
  const MIB = 1024 * 1024;
  const diskBudget: SessionBudget = {
    instanceBytes: config.TOOLDEX_SANDBOX_DISK_MB * MIB,
    ownerBytes: Math.min(config.TOOLDEX_SANDBOX_OWNER_DISK_MB || Math.floor(config.TOOLDEX_SANDBOX_DISK_MB / 2), config.TOOLDEX_SANDBOX_DISK_MB) * MIB,
    ownerSessions: config.TOOLDEX_SANDBOX_OWNER_SESSIONS,
    idleMs: config.TOOLDEX_SANDBOX_EVICT_IDLE_MINUTES * 60_000,
    // Running compiles' volumes are charged to TOOLDEX_SANDBOX_DISK_MB like sessions' images (their allocated blocks).
    otherBytes: () => compileVolumes.list().reduce((total, id) => total + compileVolumes.hostBytes(id), 0),
  };
  const key = loadRedactionKey(root, config.TOOLDEX_SANDBOX_SECRET_KEY);
  const preparing = new Map<string, Promise<void>>();
  // A compile step runs package code (build scripts, proc macros) and writes what it likes: it writes into a volume of its
  // own, as large as a session's (TOOLDEX_SANDBOX_SESSION_MB, _INODES), so the shared cache's filesystem never takes more
  // than a finished layer that fits the layer budget. Mounted where bwrap (the sandbox gid) can reach the overlay.
  const compileVolumes = new SessionVolumes(path.join(root, 'compiles'), exposure.sessionsDir, { uid, gid: uid },
    { bytes: config.TOOLDEX_SANDBOX_SESSION_MB * 1024 * 1024, inodes: config.TOOLDEX_SANDBOX_SESSION_INODES });
  // Volumes of compiles a stopped process left behind (this instance's own folder: no other process uses them).
  for (const id of compileVolumes.list()) void compileVolumes.remove(id).catch(() => undefined);
  const compileScratch = volumeScratch(compileVolumes, { uid, gid: uid });
  // A compile a limit ended is remembered per owner and identical step for twice the build's wall clock, at least 5
  // minutes (a short build limit must not forget before the owner's next program arrives: a fetch and set-up under
  // load take tens of seconds): the same owner's next call of that step ends at once instead of compiling the same
  // packages into the same limit again. The owner is the organisation with auth on, else the client address
  // (request.ip; trustProxy is off, so behind a reverse proxy every user has the proxy's address: one owner, one memory).
  const endedMemoryMs = Math.max(2 * config.TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS, 300_000);
  const layers = new BuildLayers(path.join(exposure.cacheDir, 'layers'), compileScratch, 2 * config.TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS,
    config.TOOLDEX_SANDBOX_LAYERS_MB * 1024 * 1024, endedMemoryMs);

  // The shared download caches (one folder per runtime) together allocate at most TOOLDEX_SANDBOX_CACHE_MB: checked after
  // every call that fetched; idle runtimes' caches are emptied, least recently used first (download-caches.ts).
  // Only one instance sharing a cache root may empty its caches, and only while no other live one uses it: the in-use
  // gate sees this process's calls only (cache-owner.ts). Another live holder switches eviction off here, not the start.
  const cacheOwner = new CacheOwner(cacheRoot);
  if (!cacheOwner.acquire()) {
    logger.warn({ cacheRoot, holder: cacheOwner.holder }, 'sandbox download caches shared with another live instance: this one empties none (TOOLDEX_SANDBOX_CACHE_MB not enforced here; give each instance its own TOOLDEX_SANDBOX_CACHE_DIR)');
  }
  cacheOwner.start();
  const downloadCaches = new DownloadCaches(cacheRoot, RUNTIMES, config.TOOLDEX_SANDBOX_CACHE_MB * MIB, { uid, gid: uid }, undefined, () => cacheOwner.mayEvict());
  if (cacheOwner.owned) {
    void downloadCaches.removeLeftovers().catch((error: unknown) => logger.warn({ err: error, cacheRoot }, 'sandbox download caches: leftover folders not removed'));
  }

  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const tracked = work.catch((error: unknown) => logger.warn({ err: error }, 'sandbox bookkeeping failed'))
      .finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  const host = () => ensureSandboxHost({ config, exposure, cacheRoot, sessions, logger, sourcePorts: sourcePorts(config) });

  if (config.TOOLDEX_SANDBOX_INSTANCE_URL) track(fleet.advertise(config.TOOLDEX_SANDBOX_INSTANCE_URL));

  const service: SandboxService = {
    toolchains: async () => (await host()).toolchains,
    advertise: (url) => fleet.advertise(url),
    verifyForwarded: (body, signature) => fleet.verify(body, signature),
    async run(request: TestRequest, owner: SessionOwner, runOptions: { forwarded?: boolean } = {}): Promise<TestResult> {
      const received = Date.now();
      const runtime = request.runtime;
      const adapter = RUNTIME_ADAPTERS[runtime];
      const early = (): TestPhases => ({ queueMs: 0, provisionMs: Date.now() - received, installMs: 0, runMs: 0 });
      if (disabled.has(runtime)) {
        return policyResult('blocked', request.sessionId, 'runtime_disabled', `The ${runtime} runtime is turned off on this server (TOOLDEX_DISABLED_RUNTIMES).`, early());
      }
      // A manifest in files (Cargo.toml, go.mod, package.json) asks for pins too; `packages` override same names.
      const fromPackages = request.packages.map((spec) => adapter.parsePackage(spec));
      const fromManifest = manifestPackages(runtime, adapter, request.files);
      const parsed = [...fromManifest, ...fromPackages];
      /** Pins a manifest sent in this call names (and `packages` does not override): their entries are the caller's. */
      const manifestNames = new Set(fromManifest.map((pin) => pin.name).filter((name) => !fromPackages.some((pin) => pin.name === name)));
      const deny = parsed.find((p) => denied.has(p.name) || denied.has(`${runtime}:${p.name}`));
      if (deny) {
        return policyResult('blocked', request.sessionId, 'package_denied', `Package "${deny.name}" is on this server's deny list (TOOLDEX_DENY_PACKAGES).`, early());
      }
      const files = request.files.map((file) => ({ segments: safeRelativePath(file.path), code: file.code }));
      const entry = safeRelativePath(request.entry ?? request.files[0]?.path ?? '').join('/');
      const sandboxHost = await host();
      if (sandboxHost.problem) {
        throw new ToolDexError('sandbox_unavailable', 503, `No sandbox can be started on this host: ${sandboxHost.problem}`, { retryAfterSeconds: 5 });
      }
      const toolchain = sandboxHost.toolchains[runtime];
      if (!toolchain.available) {
        return policyResult('unavailable', request.sessionId, 'runtime_unavailable',
          `This host has no ${runtime} toolchain (${toolchain.reason ?? 'not found'}); see \`tooldex doctor\`.`, early());
      }
      let existing: Session | undefined;
      if (request.sessionId) {
        const found = await sessions.find(request.sessionId, owner);
        if ('local' in found) {
          existing = found.local;
        } else {
          // Held by another instance: it runs the call; if it has been gone for a minute, this one takes the session over.
          if (runOptions.forwarded) throw sessionNotFound(request.sessionId);
          const peer = await fleet.locate(found.elsewhere);
          if (!peer.known) {
            // An instance that never announced an address is not part of a fleet: its sessions are its own.
            throw new ToolDexError('session_not_found', 404,
              `Session ${request.sessionId} is held by another instance, which announces no address to forward calls to (TOOLDEX_SANDBOX_INSTANCE_URL); call that instance.`);
          }
          if (peer.alive && peer.url) {
            try {
              // The longest a call can take there: a fetch and a source install, the cache's preparation and a build, the run.
              return await fleet.forward(peer.url, request, owner, request.timeoutMs + 2 * config.TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS +
                2 * config.TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS + 60_000);
            } catch (error) {
              if (!(error instanceof PeerUnreachable)) throw error;
              throw new ToolDexError('session_unavailable', 503,
                `Session ${request.sessionId} is held by another instance, which ${error.message}; retry shortly (after ${GONE_AFTER_MS / 1000} s of silence another instance takes it over).`,
                { retryAfterSeconds: 10 });
            }
          }
          if (!await sessions.takeOver(request.sessionId, owner, found.elsewhere)) return service.run(request, owner, runOptions); // another instance was quicker: ask again
          existing = await sessions.get(request.sessionId, owner);
          logger.warn({ sessionId: existing.id, from: found.elsewhere }, 'sandbox session taken over from a gone instance');
        }
      }

      if (existing && existing.runtime !== runtime) {
        throw invalidInput('session_runtime_mismatch', `Session ${existing.id} runs ${existing.runtime}, not ${runtime}; start a new session for ${runtime}.`, { field: 'runtime' });
      }
      const queueKey = existing?.id ?? `new:${Math.random()}`;
      return queue.run(queueKey, owner, async (queueMs) => {
        const admitted = Date.now();
        // Re-read inside the queue: a call that waited on this session must see the packages the previous one installed.
        if (!existing) {
          const evicted = await sessions.admit(owner, diskBudget, queue.busy);
          if (evicted.length) logger.info({ evicted, owner }, 'sandbox sessions evicted to place a new one');
        }
        const session = existing ? await sessions.get(existing.id, owner) : await sessions.create(owner, runtime, request.network);
        queue.busy.add(session.id);
        try {
          const phases: TestPhases = { queueMs, provisionMs: Date.now() - admitted + (admitted - received - queueMs), installMs: 0, runMs: 0 };
          // A session taken over from a gone instance installs its pins again here, this call's replacing same names.
          const movedPins = (session.movedPins ?? []).flatMap((spec) => {
            try {
              return [adapter.parsePackage(spec)];
            } catch {
              return [];
            }
          });
          // The runtime's download cache is in use (mounted by steps, read beneath Go builds) until the call ends.
          const leave = downloadCaches.enter(runtime);
          try {
            return await execute({ session, files, entry, requested: [...movedPins, ...parsed], phases, sandboxHost, adapter,
              toolchainRuntime: runtime, moved: session.movedPins !== undefined });
          } finally {
            leave();
          }
        } finally {
          queue.busy.delete(session.id);
        }
      });

      async function execute(call: {
        session: Session; files: Array<{ segments: string[]; code: string }>; entry: string; requested: ParsedPackage[];
        phases: TestPhases; sandboxHost: SandboxHost; adapter: RuntimeAdapter; toolchainRuntime: Runtime; moved?: boolean;
      }): Promise<TestResult> {
        const { session, phases } = call;
        const writeStarted = Date.now();
        for (const file of call.files) writeWorkspaceFile(session.folders.work, file.segments, file.code, { uid, gid: uid });
        if (!isWorkspaceFile(session.folders.work, call.entry.split('/'))) {
          throw invalidInput('entry_not_found', call.moved
            ? `Entry "${call.entry}" is not in the session workspace: the instance that held this session's files is gone, and the session continues here with its packages; send the files again.`
            : `Entry "${call.entry}" is not a file in the session workspace; send it in files.`, { field: 'entry' });
        }
        phases.provisionMs += Date.now() - writeStarted;
        const secrets = request.env.flatMap((item) => (item.secret === undefined ? [] : [item.secret]));
        const marks = mergeMarks(session.secretMarks, secrets.flatMap((secret) => secretMarks(secret, key)));
        const redact = createRedactor(marks, key);
        const toolchain = call.sandboxHost.toolchains[call.toolchainRuntime];
        const ctx: RuntimeContext = { toolchain, source: sources[runtime] };
        const options = (step: Step, timeoutMs: number, extra: Partial<StepOptions> = {}): StepOptions => ({
          identity: call.sandboxHost.identity, toolchain, folders: session.folders, cacheDir: path.join(exposure.cacheDir, runtime), limits: limitsOf(step), owner,
          timeoutMs, fileSizeBytes: config.TOOLDEX_SANDBOX_SESSION_MB * 1024 * 1024, redactionSlack: longestForm(marks),
          onReady: service.onSandboxReady && ((pid) => service.onSandboxReady?.(pid, step.name)), ...extra,
        });
        // Fetch steps have the install budget, builds and source installs the build budget, the program the caller's timeoutMs.
        const budget = (step: Step) => (step.kind === 'fetch' ? config.TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS
          : step.name === 'run' ? request.timeoutMs : config.TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS);
        const step = async (spec: Step, extra: Partial<StepOptions> = {}) => {
          const result = await runStep(spec, options(spec, budget(spec), extra));
          phases.provisionMs += result.setupMs;
          if (result.setupError) {
            throw new ToolDexError('sandbox_unavailable', 503,
              `The sandbox could not be set up (${result.retries + 1} attempts; the service's fault, not the snippet's): ${result.setupError}`,
              { retryAfterSeconds: 5 });
          }
          return result;
        };
        const plan = installPlan(call.adapter, session.packages, call.requested);
        const network: NetworkMode = request.network ?? session.network;
        let pins = plan.current;
        /** Whether a fetch step ran (the only steps that write the shared download caches, with Go's preparation). */
        let fetched = false;
        // The download cache's generation this session's packages were fetched into (root-only folder of its volume):
        // for a runtime whose packages live only in the shared cache (adapter.refetch), a changed one means fetch again.
        const generationFile = path.join(session.folders.overlay, 'cache-generation');
        const readGeneration = () => {
          try {
            return fs.readFileSync(generationFile, 'utf8').trim();
          } catch {
            return ''; // installed before any emptying was recorded
          }
        };
        const recordGeneration = () => {
          if (!call.adapter.refetch) return;
          try {
            fs.writeFileSync(generationFile, downloadCaches.generation(runtime));
          } catch (error) {
            // A full session volume: the next build fetches again (a fetch with a full cache downloads nothing).
            logger.warn({ err: error, sessionId: session.id }, 'sandbox cache generation not recorded');
          }
        };

        const finish = async (status: TestResult['status'], result: IsolatedResult, ended: EndedBy | undefined,
          notes: Array<string | undefined>, merge = false, error?: TestResult['error']): Promise<TestResult> => {
          const movedNote = call.moved ? '[sandbox] this session\'s instance is gone: it continues here, its packages installed again; files from earlier calls stayed behind.' : undefined;
          const outputs = finishOutputs(result, redact, [...notes, movedNote], merge);
          await sessions.recordUse(session, pins.map((p) => p.spec), marks, network);
          logger.info({ sessionId: session.id, runtime, status, phases, endedBy: ended, env: request.env.map((item) => item.name), packages: call.requested.length }, 'sandbox run');
          // Bookkeeping that the answer does not depend on happens after replying: analytics, disk size, eviction.
          track((async () => {
            await store.query('insert into sandbox_runs (session_id, owner, runtime, slug, status, provision_ms, install_ms, run_ms, queue_ms, ended_by) values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)',
              [session.id, owner, runtime, request.slug ?? null, status, phases.provisionMs, phases.installMs, phases.runMs, phases.queueMs ?? 0,
                ended ? `${ended.phase}:${ended.limit}` : null]);
            await sessions.measure(session.id);
            const evicted = await sessions.evict(diskBudget, queue.busy);
            if (evicted.length) logger.info({ evicted }, 'sandbox sessions evicted');
            await sessions.unmountIdle(IDLE_UNMOUNT_MS, queue.busy);
            if (fetched) {
              let emptied: Awaited<ReturnType<typeof downloadCaches.enforce>>;
              try {
                emptied = await downloadCaches.enforce();
              } catch (error) {
                logger.warn({ err: error, cacheRoot }, 'sandbox download caches not measured (du failed): TOOLDEX_SANDBOX_CACHE_MB not enforced after this call');
                return;
              }
              if (emptied.length) logger.info({ emptied }, 'sandbox download caches emptied (TOOLDEX_SANDBOX_CACHE_MB)');
              const left = downloadCaches.lastPass;
              // Still over: the caches over it are in use (emptied once idle), or another live instance shares the folder.
              if (left?.overBytes) logger.warn({ totalBytes: left.totalBytes, overBytes: left.overBytes, evicting: cacheOwner.owned }, 'sandbox download caches over TOOLDEX_SANDBOX_CACHE_MB after a pass');
            }
          })());
          return {
            ok: status === 'ran', status, phases, ...outputs, exitCode: result.exitCode,
            sessionId: session.id, sessionExpiresAt: null, sessionReused: session.reused,
            ...(ended ? { endedBy: ended } : {}), ...(error ? { error } : {}),
          };
        };
        /** The status of a step that did not succeed, and which limit (if any) ended it. */
        const failure = (result: IsolatedResult, phase: EndedBy['phase'], spec: Step) => {
          const ended = endedBy(result, phase, limitsOf(spec), budget(spec), volumes.usage(session.id));
          // A limit decides first (it ended or crippled the step, whatever the exit code); else the exit code does.
          const status: TestResult['status'] = ended ? (ended.limit === 'timeout' ? 'timeout' : 'limit_exceeded')
            : phase === 'install' ? 'failed_install' : 'failed_run';
          return { status, ended, note: describeEnd(result, phase, ended, settingsOf(spec)) };
        };

        if (plan.changed.length > 0) {
          const installStarted = Date.now();
          const setupBefore = phases.provisionMs;
          const { first, fallback } = call.adapter.install(ctx, { changed: plan.changed, all: plan.all });
          fetched = true;
          let used: Step = first;
          let result = await step(first);
          if (!succeeded(result) && fallback && !result.timedOut && !endedBy(result, 'install', limitsOf(first), budget(first), volumes.usage(session.id))) {
            used = fallback;
            result = await step(fallback);
          }
          phases.installMs = Math.max(0, Date.now() - installStarted - (phases.provisionMs - setupBefore));
          if (!succeeded(result)) {
            const { status, ended, note } = failure(result, 'install', used);
            const unreachable = status === 'failed_install' ? await unreachableSource(call.sandboxHost) : undefined;
            return finish(status, result, ended, [note, unreachable?.message], true,
              unreachable ? { code: 'registry_unreachable', message: unreachable.message } : undefined);
          }
          pins = plan.all;
          recordGeneration();
        }
        if (call.moved) sessions.settleMove(session.id);
        /**
         * The compiled layer of the session's exact dependency graph, made first when this call's files import packages
         * of it and it does not exist yet (a compile step: package code only). A failed compile leaves no layer; the
         * build then compiles those packages in the session's own overlay, as without layers — unless the compile ran
         * out of time or memory: the build would compile the same packages under the same limits, so that ends the call
         * (`ended`: one build's worth of time, not two). A session whose graph changed (a new pin) keeps its previous
         * layer instead, when the adapter says so (keepsSessionLayer).
         */
        async function sharedLayers(locked: LockedPin[]): Promise<{ found: string[]; ended?: CompileEnd }> {
          const shared = await call.adapter.sharedLayer?.(ctx, locked, request.files, session.folders.deps);
          if (!shared) return { found: [] };
          // Root-only folder of the session's volume: no sandbox can write or link there.
          const record = path.join(session.folders.overlay, 'layer');
          const remember = (key: string) => {
            try {
              if (call.adapter.keepsSessionLayer) fs.writeFileSync(record, key);
            } catch (error) {
              // A full session volume: the next change of pins compiles a new layer instead; the build goes on.
              logger.warn({ err: error, sessionId: session.id }, 'sandbox layer record not written');
            }
          };
          const ready = layers.find(runtime, shared.key);
          if (ready) {
            remember(shared.key);
            return { found: [ready] };
          }
          const previous = call.adapter.keepsSessionLayer && fs.existsSync(record) ? layers.find(runtime, fs.readFileSync(record, 'utf8').trim()) : undefined;
          if (previous) return { found: [previous] };
          const compile = shared.step;
          let ended: CompileEnd | undefined;
          if (compile) {
            let ranHere = false;
            const outcome = await layers.make<CompileEnd>(runtime, shared.key, async (folders, usage) => {
              ranHere = true;
              const result = await step(compile, { layer: folders });
              phases.runMs += result.runMs;
              if (succeeded(result)) return { ok: true };
              logger.info({ runtime, key: shared.key, stderr: result.stderr.finish((text) => text).slice(0, 300) }, 'sandbox shared layer not made');
              // Read while the compile's volume still exists: a full one is the compile's disk limit.
              const end = endedBy(result, 'build', limitsOf(compile), budget(compile), usage());
              if (!end) return { ok: false };
              const status: TestResult['status'] = end.limit === 'timeout' ? 'timeout' : 'limit_exceeded';
              const note = end.limit === 'disk' || end.limit === 'inodes'
                ? `[sandbox] build: the compile of the dependencies ran out of its disk: ${Math.round((end.used ?? 0) / MIB)} MiB used of the ${Math.round(end.max / MIB)} MiB it may write (TOOLDEX_SANDBOX_SESSION_MB, _INODES).`
                : describeEnd(result, 'build', end, settingsOf(compile));
              return { ok: false, failed: { result, status, ended: end, note } };
            }, stepHash(compile), owner);
            // A limit ended the compile (this call's, or another call's of the identical step — same packages, script and
            // environment — that this call waited for, or this owner's own within the memory above): a build here would
            // compile the same packages under the same limits, so the call ends with that outcome. Another call's
            // compile of other packages is never waited for, and an end is remembered only for the owner whose call ran
            // the compile: an owner that waited on another's shares its outcome now, and compiles on its next call.
            const told = outcome.rememberedMs !== undefined
              ? `[sandbox] build: the compile of these same dependencies (same graph, same step) ended by that limit ${Math.round(outcome.rememberedMs / 1000)} s ago for this caller; it is not run again within ${Math.round(endedMemoryMs / 1000)} s of its end (twice TOOLDEX_SANDBOX_BUILD_TIMEOUT_MS, at least 300 s), so this call ends now.`
              : ranHere ? undefined
                : '[sandbox] build: that was the compile of the same dependencies for another call, which this call waited for and shares (one compile, not one per caller).';
            ended = outcome.failed && (told ? { ...outcome.failed, note: `${outcome.failed.note ?? ''}\n${told}` } : outcome.failed);
            if (outcome.unavailable) logger.warn({ runtime, key: shared.key, error: outcome.unavailable }, 'sandbox shared layer not made (no compile volume, or not kept); builds compile on their own');
            if (outcome.tooLargeBytes) logger.warn({ runtime, key: shared.key, bytes: outcome.tooLargeBytes }, 'sandbox layer larger than TOOLDEX_SANDBOX_LAYERS_MB: not kept');
          }
          const found = layers.find(runtime, shared.key);
          if (found) remember(shared.key);
          return { found: found ? [found] : [], ended };
        }
        if (call.adapter.build) {
          const preparing = Date.now();
          await prepareCache(call.adapter, ctx, options);
          phases.provisionMs += Date.now() - preparing;
          const locked = call.adapter.locked?.(session.folders.deps) ?? [];
          if (locked.length && call.adapter.refetch && readGeneration() !== downloadCaches.generation(runtime)) {
            // The cache was emptied since this session's install, and its packages lived only there (Go's modules): fetched
            // again, as a fetch step under the install's rules and budget, before the compile (proxy off) needs them.
            const refetch = call.adapter.refetch(ctx);
            const started = Date.now();
            const setupBefore = phases.provisionMs;
            fetched = true;
            const result = await step(refetch);
            phases.installMs += Math.max(0, Date.now() - started - (phases.provisionMs - setupBefore));
            if (succeeded(result)) recordGeneration();
            // Not fatal: the build has the proxy and fetches what it lacks into its own overlay, as before.
            else logger.warn({ sessionId: session.id, runtime, stderr: result.stderr.finish((text) => text).slice(0, 300) }, 'sandbox download cache refetch failed');
          }
          const { found: cacheLayers, ended: compileEnded } = await sharedLayers(locked);
          if (compileEnded) return finish(compileEnded.status, compileEnded.result, compileEnded.ended, [compileEnded.note]);
          // Locked names as the lock spells them (serde_json); pins' names as parsePackage normalises them (serde-json).
          const pinName = (name: string) => {
            try {
              return call.adapter.parsePackage(name).name;
            } catch {
              return name;
            }
          };
          const changed = new Set(plan.changed.map((pin) => pin.name));
          const keep = new Set(locked.map((pin) => pin.name).filter((name) => !changed.has(pinName(name)) || manifestNames.has(pinName(name))));
          const build = call.adapter.build(ctx, call.entry, locked, keep);
          const result = await step(build, { cacheLayers });
          phases.runMs += result.runMs;
          if (!succeeded(result)) {
            const { status, ended, note } = failure(result, 'build', build);
            return finish(status, result, ended, [note]);
          }
        }
        // Network "off": the program's step gets no network namespace route at all (loopback only); installs and builds
        // above keep the package source.
        const runSpec: Step = network === 'off' ? { ...call.adapter.run(ctx, call.entry, pins), network: false } : call.adapter.run(ctx, call.entry, pins);
        const env = Object.fromEntries(request.env.map((item) => [item.name, item.secret ?? item.value ?? '']));
        const result = await step(runSpec, { extraEnv: env });
        phases.runMs += result.runMs;
        if (succeeded(result)) return finish('ran', result, undefined, []);
        const { status, ended, note } = failure(result, 'run', runSpec);
        return finish(status, result, ended, [note]);
      }

      /** After a failed install: the runtime's package source, checked from inside a sandbox; undefined when it answers. */
      async function unreachableSource(sandboxHost: SandboxHost): Promise<{ message: string } | undefined> {
        const source = packageSources(config).find((candidate) => candidate.runtime === runtime);
        if (!source) return undefined;
        const [check] = await checkSources([source], sandboxHost.identity, sandboxHost.toolchains.node);
        if (!check || check.ok) return undefined;
        return { message: `[sandbox] install: the package source ${source.url} did not answer from the sandbox (${check.error ?? `HTTP ${check.status}`}); ${runtime} packages cannot be installed from this server until it does.` };
      }
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    async close() {
      // Runs end with their requests (the HTTP server drains first); nothing runs between calls. Finish bookkeeping.
      fleet.close();
      await service.settled();
      await sessions.unmountAll();
      // Compile volumes are scratch (no compile runs between calls): removed, so none stays mounted past the process.
      for (const id of compileVolumes.list()) await compileVolumes.remove(id).catch(() => undefined);
      await exposure.tearDown();
      cacheOwner.release();
    },
  };

  /** Runs the runtime's prepare step once per shared cache (its marker records it), before the first build. */
  async function prepareCache(adapter: RuntimeAdapter, ctx: RuntimeContext, options: (step: Step, timeoutMs: number) => StepOptions) {
    const prepared = adapter.prepare?.(ctx);
    if (!prepared) return;
    const marker = path.join(cacheRoot, adapter.runtime, prepared.marker);
    if (fs.existsSync(marker)) return;
    let running = preparing.get(marker);
    if (!running) {
      running = (async () => {
        const result = await runStep(prepared.step, options(prepared.step, config.TOOLDEX_SANDBOX_INSTALL_TIMEOUT_MS));
        if (succeeded(result)) fs.writeFileSync(marker, new Date().toISOString());
        else logger.warn({ runtime: adapter.runtime, stderr: result.stderr.finish((t) => t).slice(0, 500), setupError: result.setupError }, 'sandbox cache preparation failed; builds compile on their own');
      })().finally(() => preparing.delete(marker));
      preparing.set(marker, running);
    }
    await running;
  }
  return service;
}

/** A compile step that a limit ended, as every call waiting for it reports it. */
interface CompileEnd { result: IsolatedResult; status: TestResult['status']; ended: EndedBy; note: string | undefined }

const succeeded = (result: IsolatedResult) => result.exitCode === 0 && !result.timedOut && !result.limit;

/**
 * The session's pins after this call: one spec per package name, this call's replacing the session's own; `changed`
 * holds the pins new or different from what is installed, so a changed pin always reinstalls.
 */
export function installPlan(adapter: RuntimeAdapter, installed: string[], requested: ParsedPackage[]) {
  const current = new Map<string, ParsedPackage>();
  for (const spec of installed) {
    try {
      const pin = adapter.parsePackage(spec);
      current.set(pin.name, pin);
    } catch {
      // a spec an earlier version accepted and this one does not: dropped from the pins
    }
  }
  const changed = requested.filter((pin, index) => current.get(pin.name)?.spec !== pin.spec &&
    !requested.slice(index + 1).some((other) => other.name === pin.name));
  const all = new Map(current);
  for (const pin of requested) all.set(pin.name, pin);
  return { current: [...current.values()], changed, all: [...all.values()] };
}

export type { Runtime };

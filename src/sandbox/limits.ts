// Per-run cgroups (v1: memory, pids, cpu, freezer): limits, the kill of every process of a run, and what it hit.
// Each run's groups nest under the server's own groups; CPU is weighted per owner first, then per run within the owner.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';
const CONTROLLERS = ['memory', 'pids', 'cpu', 'freezer'] as const;
type Controller = (typeof CONTROLLERS)[number];

export interface RunLimits {
  memoryBytes: number;
  pids: number;
  /** CPU time per period as a fraction of one core (1 = one full core). */
  cpus: number;
}

/** cpu.shares of each owner's group and of each run inside it: owners get equal CPU under contention, however many runs each has. */
export const CPU_SHARES = 1024;
const ownerGroup = (owner: string) => `o-${crypto.createHash('sha256').update(owner).digest('hex').slice(0, 16)}`;

export interface RunCgroup {
  /** cgroup.procs files the run's first process writes its pid into before exec'ing the sandbox. */
  procsFiles: string[];
  /** Freezes the group, SIGKILLs every member, thaws it: nothing can fork away between listing and killing. */
  killAll(): void;
  memoryLimitHit(): boolean;
  pidsLimitHit(): boolean;
  members(): number[];
  remove(): Promise<void>;
}

/** The cgroup v1 folder of this process for one controller, or undefined when it is not mounted or not writable. */
function baseFor(controller: Controller): string | undefined {
  const mount = path.join(CGROUP_ROOT, controller);
  if (!fs.existsSync(path.join(mount, 'cgroup.procs'))) return undefined;
  let own = '/';
  try {
    for (const line of fs.readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, names, where] = line.split(':');
      if (names?.split(',').includes(controller) && where) own = where;
    }
  } catch {
    return undefined;
  }
  const base = path.join(mount, own, 'tooldex-sandbox');
  try {
    fs.mkdirSync(base, { recursive: true });
    fs.accessSync(base, fs.constants.W_OK);
    return base;
  } catch {
    return undefined;
  }
}

let bases: Partial<Record<Controller, string>> | undefined;
function controllerBases(): Partial<Record<Controller, string>> {
  if (!bases) {
    bases = {};
    for (const controller of CONTROLLERS) {
      const base = baseFor(controller);
      if (base) bases[controller] = base;
    }
  }
  return bases;
}

/** Which controllers this host lets us use (doctor and the limits fallback read this). */
export function availableControllers(): Controller[] {
  return CONTROLLERS.filter((controller) => controllerBases()[controller]);
}

const write = (file: string, value: string | number) => {
  try {
    fs.writeFileSync(file, String(value));
    return true;
  } catch {
    return false;
  }
};
const read = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

export function createRunCgroup(runId: string, limits: RunLimits, owner = 'service'): RunCgroup {
  const dirs: Partial<Record<Controller, string>> = {};
  for (const [controller, base] of Object.entries(controllerBases()) as Array<[Controller, string]>) {
    const parent = controller === 'cpu' ? path.join(base, ownerGroup(owner)) : base;
    const dir = path.join(parent, `${process.pid}-${runId}`);
    // Twice: the owner's group may vanish between the two mkdirs when the owner's last other run just ended.
    for (let attempt = 0; attempt < 2 && !dirs[controller]; attempt++) {
      try {
        if (parent !== base && !fs.existsSync(parent)) {
          fs.mkdirSync(parent, { recursive: true });
          write(path.join(parent, 'cpu.shares'), CPU_SHARES);
        }
        fs.mkdirSync(dir);
        dirs[controller] = dir;
      } catch {
        // A controller we cannot use this time: the rlimits set by isolate.ts still apply.
      }
    }
  }
  if (dirs.memory) {
    write(path.join(dirs.memory, 'memory.limit_in_bytes'), limits.memoryBytes);
    write(path.join(dirs.memory, 'memory.memsw.limit_in_bytes'), limits.memoryBytes);
  }
  if (dirs.pids) write(path.join(dirs.pids, 'pids.max'), limits.pids);
  if (dirs.cpu) {
    write(path.join(dirs.cpu, 'cpu.shares'), CPU_SHARES);
    write(path.join(dirs.cpu, 'cpu.cfs_period_us'), 100_000);
    write(path.join(dirs.cpu, 'cpu.cfs_quota_us'), Math.max(1000, Math.round(limits.cpus * 100_000)));
  }
  const all = Object.values(dirs);

  const members = (): number[] => {
    const pids = new Set<number>();
    for (const dir of all) {
      for (const line of read(path.join(dir, 'cgroup.procs')).split('\n')) if (line) pids.add(Number(line));
    }
    return [...pids];
  };

  const killAll = () => {
    const freezer = dirs.freezer;
    if (freezer) write(path.join(freezer, 'freezer.state'), 'FROZEN');
    for (const pid of members()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (freezer) write(path.join(freezer, 'freezer.state'), 'THAWED');
  };

  return {
    procsFiles: all.map((dir) => path.join(dir, 'cgroup.procs')),
    killAll,
    members,
    memoryLimitHit: () => {
      if (!dirs.memory) return false;
      const oom = /oom_kill (\d+)/.exec(read(path.join(dirs.memory, 'memory.oom_control')));
      return Number(oom?.[1] ?? 0) > 0 || Number(read(path.join(dirs.memory, 'memory.failcnt')) || 0) > 0;
    },
    pidsLimitHit: () => {
      if (!dirs.pids) return false;
      return Number(/max (\d+)/.exec(read(path.join(dirs.pids, 'pids.events')))?.[1] ?? 0) > 0;
    },
    async remove() {
      for (let attempt = 0; attempt < 50; attempt++) {
        if (members().length === 0) break;
        killAll();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const dir of all) {
        try {
          fs.rmdirSync(dir);
        } catch {
          // left for the next start's sweep (removeStaleCgroups)
        }
      }
      // An owner's CPU group goes when its last run does (it is made again for the next one).
      if (dirs.cpu) {
        try {
          fs.rmdirSync(path.dirname(dirs.cpu));
        } catch {
          // another run of the owner is still in it
        }
      }
    },
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Removes run groups a crashed server left behind (named after its pid), killing anything still inside. */
export function removeStaleCgroups(): void {
  const parents = Object.values(controllerBases()).flatMap((base) => [base, ...fs.readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('o-')).map((entry) => path.join(base, entry.name))]);
  for (const base of parents) {
    for (const entry of fs.readdirSync(base, { withFileTypes: true })) {
      const owner = Number(entry.name.split('-')[0]);
      if (!entry.isDirectory() || !owner || alive(owner)) continue;
      const dir = path.join(base, entry.name);
      for (const line of read(path.join(dir, 'cgroup.procs')).split('\n')) {
        if (!line) continue;
        try {
          process.kill(Number(line), 'SIGKILL');
        } catch {
          // gone
        }
      }
      try {
        fs.rmdirSync(dir);
      } catch {
        // still draining; the next sweep gets it
      }
    }
  }
}

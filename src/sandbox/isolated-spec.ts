// What one isolated run is made of (its spec) and who it runs as on the host: the shapes shared by the command builder
// (command.ts) and the runner (isolate.ts), kept here so the runner depends on the builder and never the other way.
import type { RunLimits } from './limits.ts';
import type { HostFirewall, NetworkPolicy } from './network.ts';

export interface Mount {
  host: string;
  dest: string;
  writable?: boolean;
}

/** A folder seen read-write at `dest` whose reads fall through to `lower` and whose writes land in `upper`. */
export interface OverlayMount {
  lower: string;
  upper: string;
  work: string;
  /** Where root mounts the overlay in the run's private mount namespace (nothing a sandbox can write leads there). */
  merged: string;
  dest: string;
}

export interface HostIdentity {
  /** Unprivileged host uid/gid the sandbox runs as (never root); slirp4netns runs with this gid. */
  uid: number;
  gid: number;
  /** Folder with the synthesized passwd, group, hosts, resolv.conf and the seccomp filter (the sandbox gid can read it). */
  etcDir: string;
  bwrap: string;
  /** The host firewall of the sandbox gid; networked runs wait until it is in place. */
  firewall?: HostFirewall;
}

export interface IsolatedSpec {
  argv: string[];
  cwd: string;
  /** Variables of the program (secrets too): they travel over the --args pipe, never on a command line. */
  env: Record<string, string>;
  mounts: Mount[];
  overlays?: OverlayMount[];
  /** Paths covered by an empty read-only folder (the host interpreter's own packages). */
  hidden?: string[];
  /** false: no network at all (only loopback inside). */
  network: NetworkPolicy | false;
  timeoutMs: number;
  limits: RunLimits;
  /** Whose run this is: CPU is shared per owner first. */
  owner?: string;
  fileSizeBytes: number;
  /** Bytes of each stream kept for the result (cap plus redaction slack). */
  keepBytes: number;
  /** Combined output past which the run is killed (limit "output"). */
  killOutputBytes: number;
  /** Size of the private /tmp (a tmpfs charged to the run's memory cgroup). */
  tmpBytes?: number;
  /** Called with the wrapper's pid once its network is set and before the program starts (tests inspect it). */
  onReady?: (pid: number) => void | Promise<void>;
}

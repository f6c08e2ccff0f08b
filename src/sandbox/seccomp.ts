// A seccomp filter for every sandbox (bwrap --seccomp): x86-64 only, the kernel's riskiest interfaces refused
// (ptrace, keyrings, bpf, perf, userfaultfd, io_uring, module/kexec, namespace joins); everything else allowed.
// Builds classic BPF bytes by hand so no native library is needed.

/** x86-64 syscall numbers refused with EPERM. */
const DENY_EPERM: Record<string, number> = {
  ptrace: 101, syslog: 103, uselib: 134, pivot_root: 155, acct: 163, settimeofday: 164, mount: 165, umount2: 166, swapon: 167,
  swapoff: 168, reboot: 169, iopl: 172, ioperm: 173, init_module: 175, delete_module: 176, quotactl: 179, lookup_dcookie: 212,
  clock_settime: 227, kexec_load: 246, add_key: 248, request_key: 249, keyctl: 250, perf_event_open: 298,
  name_to_handle_at: 303, open_by_handle_at: 304, setns: 308, process_vm_readv: 310, process_vm_writev: 311, finit_module: 313,
  kexec_file_load: 320, bpf: 321, userfaultfd: 323, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, open_tree: 428, move_mount: 429,
};
/** Refused with ENOSYS, so runtimes that probe for them (libuv's io_uring) fall back quietly. */
const DENY_ENOSYS: Record<string, number> = { io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427 };

const AUDIT_ARCH_X86_64 = 0xc000003e;
const X32_SYSCALL_BIT = 0x40000000;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

// Classic BPF opcodes.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;

type Instruction = [code: number, jt: number, jf: number, k: number];

export const SECCOMP_DENIED = Object.keys({ ...DENY_EPERM, ...DENY_ENOSYS });

/** The filter as bwrap reads it: an array of struct sock_filter (u16 code, u8 jt, u8 jf, u32 k), little-endian. */
export function seccompFilter(): Buffer {
  const eperm = Object.values(DENY_EPERM);
  const enosys = Object.values(DENY_ENOSYS);
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, 4], // seccomp_data.arch
    [JEQ_K, 1, 0, AUDIT_ARCH_X86_64],
    [RET_K, 0, 0, RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, 0], // seccomp_data.nr
  ];
  // Layout after the checks: [x32 check][eperm checks][enosys checks][allow][ret eperm][ret enosys]
  const checks = 1 + eperm.length + enosys.length;
  const toEperm = (index: number) => checks - index; // from check #index (0-based) to "ret eperm"
  program.push([JGE_K, toEperm(0), 0, X32_SYSCALL_BIT]);
  eperm.forEach((nr, i) => program.push([JEQ_K, toEperm(1 + i), 0, nr]));
  enosys.forEach((nr, i) => program.push([JEQ_K, toEperm(1 + eperm.length + i) + 1, 0, nr]));
  program.push([RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_ERRNO | EPERM], [RET_K, 0, 0, RET_ERRNO | ENOSYS]);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}

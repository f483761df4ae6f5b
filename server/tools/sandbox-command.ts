import path from 'node:path';

/*
 * The bubblewrap command line of sandboxed bash, as a pure function of what to hide, what to bind
 * and which limits to apply, so every argument can be read and tested in one place.
 *
 * What it promises, whether the server runs as root or not:
 * - its own user namespace with every capability dropped (`--unshare-user --cap-drop ALL`) and no
 *   further user namespaces (`--disable-userns`): root inside cannot remount, unmount or mount
 *   anything, so the read-only view of the host stays read-only;
 * - the host read-only, the workspace writable, /tmp and /dev/shm private and bounded, /dev
 *   read-only, and so are the kernel's settings (/proc/sys); the data folder, the other workspaces and the server user's home replaced by empty
 *   read-only directories (the workspace stays reachable when it lies inside one of them);
 * - its own PID, IPC, UTS (and, unless allowed, network) namespaces, killed with its parent;
 * - no Unix-domain socket and no io_uring (sandbox-seccomp.ts): a host service's socket is
 *   reachable through a read-only mount, and as root its permission check passes;
 * - hard resource limits set inside the sandbox before the command starts, which the command
 *   cannot raise without CAP_SYS_RESOURCE.
 */

export interface SandboxLimits {
  /** Processes and threads the command may run at once (RLIMIT_NPROC, counted in the sandbox). */
  processes: number;
  /** Address space of each process, in bytes (RLIMIT_AS). */
  memoryBytes: number;
  /** Largest file a process may write, in bytes (RLIMIT_FSIZE). */
  fileBytes: number;
  /** Size of the private /tmp, in bytes (RAM-backed). */
  tmpBytes: number;
  /** Size of the private /dev/shm, in bytes (RAM-backed). */
  shmBytes: number;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  processes: 512,
  memoryBytes: 2 * GiB,
  fileBytes: 1 * GiB,
  tmpBytes: 512 * MiB,
  shmBytes: 64 * MiB,
};

/** A size as a person writes it: "2 GiB", "512 MiB". */
export function describeBytes(bytes: number): string {
  if (bytes >= GiB && bytes % GiB === 0) return `${bytes / GiB} GiB`;
  if (bytes >= MiB) return `${Math.round(bytes / MiB)} MiB`;
  return `${Math.round(bytes / 1024)} KiB`;
}

/** A hidden directory is an empty tmpfs this small, then made read-only. */
const HIDDEN_TMPFS_BYTES = 64 * 1024;

export interface SandboxSpec {
  /** The workspace's real path: the one writable place. */
  workspace: string;
  /** Real paths to replace with an empty read-only directory. */
  hide: string[];
  /**
   * Real paths of files to replace with an empty read-only file, each made by bwrap from what it
   * reads on a descriptor: `hideFiles[i]` from descriptor `hideFilesFd + i` (an ended pipe).
   */
  hideFiles?: string[];
  hideFilesFd?: number;
  /** Real paths bound read-only after everything else (the session's full-output folder). */
  readOnly: string[];
  network: boolean;
  limits: SandboxLimits;
  /** A descriptor the seccomp filter can be read from (sandbox-seccomp.ts), if there is one. */
  seccompFd?: number;
  /**
   * A descriptor of the workspace, opened and checked by the server: bound instead of the path,
   * so a folder above it swapped for a link in the meantime cannot redirect the bind.
   */
  workspaceFd?: number;
}

function depth(p: string): number {
  return p === '/' ? 0 : p.split('/').length - 1;
}

/** True when `inner` is `outer` or lies inside it. */
export function isWithin(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Sets each limit as soft and hard limit, or keeps a lower hard limit the server already has (a
 * process may lower its hard limits but never raise them). Run by bash inside the sandbox, so the
 * process count is that of the sandbox's own user namespace, not of the whole server user. Then
 * closes every descriptor but 0, 1 and 2, and runs the command.
 */
export function limitsPrelude(limits: SandboxLimits): string {
  const kib = (bytes: number) => Math.max(1, Math.floor(bytes / 1024));
  return [
    'arbor_limit() { local hard; hard=$(ulimit -H "$1") || return 1',
    'if [ "$hard" != unlimited ] && [ "$hard" -lt "$2" ]; then ulimit -S "$1" "$hard"',
    'else ulimit -H -S "$1" "$2"; fi; }',
    `arbor_limit -u ${Math.floor(limits.processes)} && arbor_limit -v ${kib(limits.memoryBytes)} && arbor_limit -f ${kib(limits.fileBytes)} || { echo "arbor: the sandbox limits could not be set" >&2; exit 126; }`,
    'unset -f arbor_limit',
    // Descriptors the server inherited (a wrapper's `exec 30<dir`, a supervisor's log) reach every
    // child Node spawns; one of a host folder would let the command write there through
    // /proc/self/fd/N, mounts or not. Only stdin, stdout and stderr go on.
    'for arbor_fd in /proc/self/fd/*; do arbor_fd=${arbor_fd##*/}; if [ "$arbor_fd" -gt 2 ]; then eval "exec $arbor_fd<&-"; fi; done; unset arbor_fd',
    'exec /bin/bash -c "$1"',
  ].join('; ');
}

/** bwrap's arguments for running `command` with bash in the sandbox `spec` describes. */
export function sandboxArgs(spec: SandboxSpec, command: string): string[] {
  const { workspace, limits } = spec;
  const args = [
    '--unshare-user',
    '--disable-userns',
    '--cap-drop',
    'ALL',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(spec.network ? [] : ['--unshare-net']),
    '--die-with-parent',
    '--new-session',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--size',
    String(limits.shmBytes),
    '--tmpfs',
    '/dev/shm',
    '--proc',
    '/proc',
    // bwrap covers /proc/sys only when it finds the directory writable, which a sysctl directory
    // never is; its files still are to the host's uid 0. As root the sandbox's uid 0 is the host's,
    // and writing kernel.core_pattern would run a program of the command's as root on the host.
    '--ro-bind',
    '/proc/sys',
    '/proc/sys',
    '--size',
    String(limits.tmpBytes),
    '--tmpfs',
    '/tmp',
  ];
  // Ancestors before descendants: a hidden folder that holds the workspace is covered first and
  // the workspace bound into it after; one inside the workspace is covered after the bind.
  // Never the root (that would hide the system), the workspace itself (it stays writable), nor
  // what the sandbox already has of its own (/tmp, /dev, /proc): a home folder of /tmp is hidden
  // by the private /tmp, and covering that would leave no /tmp to write.
  const hide = [...new Set(spec.hide)].filter(
    (p) =>
      p !== '/' && p !== '/tmp' && p !== workspace && !isWithin(p, '/dev') && !isWithin(p, '/proc'),
  );
  const mounts = [
    ...hide.map((p) => ({ path: p, bind: false })),
    { path: workspace, bind: true },
  ].sort((a, b) => depth(a.path) - depth(b.path) || Number(a.bind) - Number(b.bind));
  for (const mount of mounts) {
    if (mount.bind && spec.workspaceFd !== undefined)
      args.push('--bind-fd', String(spec.workspaceFd), mount.path);
    else if (mount.bind) args.push('--bind', mount.path, mount.path);
    else args.push('--size', String(HIDDEN_TMPFS_BYTES), '--tmpfs', mount.path);
  }
  for (const p of spec.readOnly) args.push('--ro-bind', p, p);
  // Not a bind of /dev/null: a device node cannot be opened from a mount made in a user namespace.
  if (spec.hideFilesFd !== undefined)
    (spec.hideFiles ?? []).forEach((p, i) =>
      args.push('--ro-bind-data', String(spec.hideFilesFd! + i), p),
    );
  // Not recursive: what was bound inside a hidden folder keeps its own mode.
  for (const p of hide) args.push('--remount-ro', p);
  args.push('--remount-ro', '/dev');
  if (spec.seccompFd !== undefined) args.push('--seccomp', String(spec.seccompFd));
  args.push(
    '--chdir',
    workspace,
    '--',
    '/bin/bash',
    '-c',
    limitsPrelude(limits),
    '/bin/bash',
    command,
  );
  return args;
}

import fs from 'node:fs';

/*
 * Who a process is, in terms that survive PID reuse: the kernel's boot id, the PID namespace and
 * the process's start time (field 22 of /proc/<pid>/stat, clock ticks since boot). Two processes
 * with the same boot id and namespace are the same process exactly when their pid and start time
 * match, so a lock left by a crashed process can be told from one held by a live process even when
 * the pid has been given to someone else (a container restarted as PID 1). Linux only; elsewhere
 * every field is undefined and callers fall back to the lock's lease.
 */

export interface ProcessIdentity {
  bootId?: string;
  pidNamespace?: string;
  startTime?: string;
}

function readTrimmed(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The start time of `pid` in this PID namespace, or undefined when no such process exists. */
export function startTimeOf(pid: number): string | undefined {
  const stat = readTrimmed(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

function pidNamespace(): string | undefined {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

let self: ProcessIdentity | undefined;

/** This process's identity, read once. */
export function selfIdentity(): ProcessIdentity {
  if (!self) {
    const bootId = readTrimmed('/proc/sys/kernel/random/boot_id');
    const namespace = pidNamespace();
    const startTime = startTimeOf(process.pid);
    self = {
      ...(bootId ? { bootId } : {}),
      ...(namespace ? { pidNamespace: namespace } : {}),
      ...(startTime ? { startTime } : {}),
    };
  }
  return self;
}

/** True when a process with this pid exists in this PID namespace (EPERM: it exists, not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

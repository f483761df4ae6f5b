import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from '../runtime/process-identity.js';

/*
 * A process limit that holds for root. RLIMIT_NPROC bounds a sandbox run by any other user, but
 * the kernel never applies it to processes of the real root user, even inside a user namespace.
 * So a server running as root also puts each sandboxed command in a pids cgroup of its own when
 * the machine lets it make one: cgroup v1's pids hierarchy, or a cgroup v2 folder whose
 * subtree already has the pids controller. Where neither can be written (a container with a
 * read-only /sys/fs/cgroup), root's commands keep every other limit but not this one, and the
 * bash tool's description does not claim it (see decision 050).
 */

interface Mount {
  root: string;
  mountPoint: string;
  fsType: string;
  superOptions: string[];
}

function mounts(): Mount[] {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  const result: Mount[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const fields = left.split(' ');
    const [fsType, , superOptions] = right.split(' ');
    if (!fsType || fields.length < 5) continue;
    result.push({
      root: fields[3]!,
      mountPoint: fields[4]!.replace(/\\040/g, ' '),
      fsType,
      superOptions: (superOptions ?? '').split(','),
    });
  }
  return result;
}

function ownCgroups(): { v1: Map<string, string>; v2: string | undefined } {
  const v1 = new Map<string, string>();
  let v2: string | undefined;
  let text = '';
  try {
    text = fs.readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    // no cgroups
  }
  for (const line of text.split('\n')) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    if (match[1] === '0' && match[2] === '') v2 = match[3];
    else for (const controller of match[2]!.split(',')) v1.set(controller, match[3]!);
  }
  return { v1, v2 };
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where this process may make pids cgroups, or null. */
function findPidsParent(): string | null {
  const own = ownCgroups();
  const all = mounts();
  const v1Path = own.v1.get('pids');
  const v1 = all.find((m) => m.fsType === 'cgroup' && m.superOptions.includes('pids'));
  if (v1 && v1Path !== undefined && v1.root === '/') {
    const dir = path.join(v1.mountPoint, v1Path);
    if (writable(dir)) return dir;
  }
  const v2 = all.find((m) => m.fsType === 'cgroup2');
  if (v2 && own.v2 !== undefined && v2.root === '/') {
    const dir = path.join(v2.mountPoint, own.v2);
    try {
      const enabled = fs.readFileSync(path.join(dir, 'cgroup.subtree_control'), 'utf8');
      if (enabled.split(/\s+/).includes('pids') && writable(dir)) return dir;
    } catch {
      // not delegated
    }
  }
  return null;
}

let parent: string | null | undefined;
/** Cgroups of this process not yet removed, tried once more at exit. */
const outstanding = new Set<string>();
let swept = false;

/** Removes empty cgroups left by servers that exited before theirs had emptied. */
function sweepStale(dir: string): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const match = /^arbor-bash-(\d+)-[0-9a-f]+$/.exec(name);
    if (!match || Number(match[1]) === process.pid || isAlive(Number(match[1]))) continue;
    try {
      fs.rmdirSync(path.join(dir, name));
    } catch {
      // still in use, or not ours to remove
    }
  }
}

function removeOutstanding(): void {
  for (const dir of outstanding) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // swept by the next server
    }
  }
}

/** True when commands can be put in a pids cgroup here. */
export function pidsCgroupAvailable(): boolean {
  parent ??= findPidsParent();
  return parent !== null;
}

export interface PidsCgroup {
  /** The file a process writes its pid to, to join. */
  procsFile: string;
  /** Removes the cgroup once its processes are gone (retried for a short while). */
  remove(): void;
}

/** A new pids cgroup allowing `max` tasks, or undefined when none can be made. */
export function createPidsCgroup(max: number): PidsCgroup | undefined {
  if (!pidsCgroupAvailable() || parent == null) return undefined;
  if (!swept) {
    swept = true;
    sweepStale(parent);
    process.once('exit', removeOutstanding);
  }
  const dir = path.join(
    parent,
    `arbor-bash-${process.pid}-${crypto.randomBytes(4).toString('hex')}`,
  );
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'pids.max'), String(Math.floor(max)));
  } catch {
    try {
      fs.rmdirSync(dir);
    } catch {
      // never made
    }
    return undefined;
  }
  outstanding.add(dir);
  return {
    procsFile: path.join(dir, 'cgroup.procs'),
    remove() {
      let tries = 0;
      const attempt = () => {
        try {
          fs.rmdirSync(dir);
          outstanding.delete(dir);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          // Busy while the last killed processes exit.
          if (code === 'EBUSY' && ++tries < 50) setTimeout(attempt, 100).unref();
        }
      };
      attempt();
    },
  };
}

import fs from 'node:fs';
import os from 'node:os';
import { z } from 'zod';
import { lockFileFor } from './session-paths.js';

/*
 * One writer per session file. The lock is `<file>.lock`, created with O_EXCL and holding the
 * owner's pid and host. A lock whose owner is dead (same host, no such pid) is taken over, so a
 * crashed server does not leave a session stuck; a live owner makes the caller fail clearly.
 */

const LockContentSchema = z.object({
  pid: z.number().int(),
  hostname: z.string(),
  createdAt: z.string(),
});
type LockContent = z.infer<typeof LockContentSchema>;

export class SessionLockedError extends Error {
  readonly code = 'session_locked';
  constructor(
    readonly file: string,
    readonly owner: LockContent | undefined,
  ) {
    super(
      owner
        ? `Session file ${file} is in use by process ${owner.pid} on ${owner.hostname} (lock ${lockFileFor(file)})`
        : `Session file ${file} is locked (${lockFileFor(file)}) and its owner cannot be determined`,
    );
    this.name = 'SessionLockedError';
  }
}

/** A lock this process holds. `release` is idempotent. */
export interface FileLock {
  readonly path: string;
  release(): void;
}

/** How long an unreadable lock file must be left alone before it counts as a crash leftover. */
const UNREADABLE_LOCK_GRACE_MS = 10_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lockPath: string): LockContent | undefined {
  try {
    const parsed = LockContentSchema.safeParse(JSON.parse(fs.readFileSync(lockPath, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function isStale(lockPath: string, owner: LockContent | undefined): boolean {
  if (owner) {
    if (owner.hostname !== os.hostname()) return false;
    if (owner.pid === process.pid) return false;
    return !isAlive(owner.pid);
  }
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs > UNREADABLE_LOCK_GRACE_MS;
  } catch {
    return true;
  }
}

export function acquireLock(file: string): FileLock {
  const lockPath = lockFileFor(file);
  const content: LockContent = {
    pid: process.pid,
    hostname: os.hostname(),
    createdAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(lockPath, 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(lockPath);
      if (!isStale(lockPath, owner)) throw new SessionLockedError(file, owner);
      // Take over a dead owner's lock: remove it and race for O_EXCL again.
      try {
        fs.unlinkSync(lockPath);
      } catch (unlinkError) {
        if ((unlinkError as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkError;
      }
      continue;
    }
    // No fsync: other processes read the owner from the page cache, and after a machine crash a
    // lock that lost its content is unreadable and taken over after the grace period.
    try {
      fs.writeSync(fd, JSON.stringify(content));
    } finally {
      fs.closeSync(fd);
    }
    let released = false;
    return {
      path: lockPath,
      release() {
        if (released) return;
        released = true;
        const current = readOwner(lockPath);
        if (current && current.pid === content.pid && current.createdAt === content.createdAt) {
          fs.rmSync(lockPath, { force: true });
        }
      },
    };
  }
  throw new SessionLockedError(file, readOwner(lockPath));
}

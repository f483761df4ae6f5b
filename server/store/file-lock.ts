import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { isAlive, selfIdentity, startTimeOf } from '../runtime/process-identity.js';
import { lockFileFor } from './session-paths.js';
import { CodedError } from '../errors/coded-error.js';

/*
 * Exclusive locks between processes, as files created with O_EXCL (decisions 002 and 053). A lock
 * names its holder (pid, host, boot id, PID namespace, start time, a random token) and is a lease:
 * the holder touches its mtime every REFRESH_MS. A lock is taken over when its holder is gone:
 *
 * - on this kernel and in this PID namespace the holder is alive exactly when a process with its
 *   pid and start time exists, so a crash leftover goes at once whatever pid now has that number
 *   (a container restarted as PID 1), and a live holder keeps its lock however long it stalls;
 * - anywhere else (another host, another container, an older Arbor's lock, an unreadable lock) its
 *   lease decides: unrefreshed for LEASE_MS, it is stale.
 *
 * A takeover renames the stale lock aside and checks that what it moved is what it judged, so two
 * processes taking over the same stale lock cannot both win. A holder whose lock was taken (it
 * stalled past its lease where others cannot see it alive) learns so at its next refresh.
 */

export const LEASE_MS = 20_000;
const REFRESH_MS = 5_000;

const LockContentSchema = z.object({
  pid: z.number().int(),
  hostname: z.string(),
  createdAt: z.string(),
  token: z.string().optional(),
  bootId: z.string().optional(),
  pidNamespace: z.string().optional(),
  startTime: z.string().optional(),
});
export type LockOwner = z.infer<typeof LockContentSchema>;

export class SessionLockedError extends CodedError {
  readonly code = 'session_locked';
  constructor(
    readonly file: string,
    readonly owner: LockOwner | undefined,
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
  /** True once another process took the lock over (this one stalled past its lease). */
  readonly compromised: boolean;
  release(): void;
}

/** What stands in the way of a lock: its holder (when readable) and whether it may be alive. */
export interface LockHolder {
  owner: LockOwner | undefined;
  /** `alive`: provably; `lease`: cannot be checked from here, and its lease runs. */
  state: 'alive' | 'lease';
  /** When its lease runs out (ms since the epoch). */
  leaseEndsAt: number;
}

function parseOwner(text: string | undefined): LockOwner | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = LockContentSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function readText(lockPath: string): string | undefined {
  try {
    return fs.readFileSync(lockPath, 'utf8');
  } catch {
    return undefined;
  }
}

/** 'alive' or 'dead' when this process can tell; 'unknown' when only the lease can. */
function holderLiveness(owner: LockOwner | undefined): 'alive' | 'dead' | 'unknown' {
  if (!owner) return 'unknown';
  const me = selfIdentity();
  if (owner.bootId && owner.pidNamespace && owner.startTime) {
    if (owner.bootId !== me.bootId || owner.pidNamespace !== me.pidNamespace) return 'unknown';
    return startTimeOf(owner.pid) === owner.startTime ? 'alive' : 'dead';
  }
  // A lock of an Arbor before decision 053: only a pid and a host name.
  if (owner.hostname !== os.hostname()) return 'unknown';
  // Its pid being alive proves little (PID 1 after a restart), so a live one leaves it to the
  // lease, which such a lock never refreshes.
  if (owner.pid === process.pid || !isAlive(owner.pid)) return 'dead';
  return 'unknown';
}

/** Moves a stale lock aside, unless what sits there now is not the lock that was judged. */
function removeStale(lockPath: string, judged: string | undefined): void {
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (readText(aside) !== judged) {
    // Another process replaced the stale lock a moment ago: give its lock back.
    try {
      fs.linkSync(aside, lockPath);
    } catch {
      // The slot was taken meanwhile; the holder of the moved lock sees it at its next refresh.
    }
  }
  fs.rmSync(aside, { force: true });
}

/**
 * Takes the lock at `lockPath`, or returns who holds it. Throws only for file system errors
 * (a read-only folder, a missing directory).
 */
export function tryLock(lockPath: string): FileLock | LockHolder {
  const content: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    createdAt: new Date().toISOString(),
    token: randomBytes(12).toString('base64url'),
    ...selfIdentity(),
  };
  const text = JSON.stringify(content);
  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(lockPath, 'wx', 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const seen = readText(lockPath);
      const owner = parseOwner(seen);
      const liveness = holderLiveness(owner);
      const mtime = fs.statSync(lockPath, { throwIfNoEntry: false })?.mtimeMs;
      if (mtime === undefined) continue;
      const leaseEndsAt = mtime + LEASE_MS;
      if (liveness === 'alive') return { owner, state: 'alive', leaseEndsAt };
      if (liveness === 'unknown' && Date.now() < leaseEndsAt) {
        return { owner, state: 'lease', leaseEndsAt };
      }
      removeStale(lockPath, seen);
      continue;
    }
    // No fsync: other processes read the holder from the page cache; after a machine crash the
    // boot id differs and the lease decides.
    try {
      fs.writeSync(fd, text);
    } catch (error) {
      // A full disk: leave no empty lock behind to be waited out.
      fs.closeSync(fd);
      fs.rmSync(lockPath, { force: true });
      throw error;
    }
    fs.closeSync(fd);
    return heldLock(lockPath, text);
  }
  const owner = parseOwner(readText(lockPath));
  return { owner, state: 'lease', leaseEndsAt: Date.now() + LEASE_MS };
}

function heldLock(lockPath: string, text: string): FileLock {
  let released = false;
  let compromised = false;
  const ours = () => readText(lockPath) === text;
  const timer = setInterval(() => {
    let now: string | undefined;
    try {
      now = fs.readFileSync(lockPath, 'utf8');
    } catch (error) {
      // Only a lock that is gone is lost; any other read error is tried again next time.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    }
    if (now !== text) {
      compromised = true;
      clearInterval(timer);
      return;
    }
    const time = new Date();
    try {
      fs.utimesSync(lockPath, time, time);
    } catch {
      // Tried again at the next refresh; the lease is four refreshes long.
    }
  }, REFRESH_MS);
  timer.unref();
  return {
    path: lockPath,
    get compromised() {
      return compromised;
    },
    release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      if (ours()) fs.rmSync(lockPath, { force: true });
    },
  };
}

export function isHeld(result: FileLock | LockHolder): result is FileLock {
  return 'release' in result;
}

/** Who holds the writer lock of a session file now, when that can be read. */
export function readLockOwner(file: string): LockOwner | undefined {
  return parseOwner(readText(lockFileFor(file)));
}

/** The writer lock of a session file, `<file>.lock`; SessionLockedError while another holds it. */
export function acquireLock(file: string): FileLock {
  const result = tryLock(lockFileFor(file));
  if (isHeld(result)) return result;
  throw new SessionLockedError(file, result.owner);
}

/** Blocks the thread for `ms` (short waits for a lock held for a few milliseconds). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Tries `<file>.lock` until `deadline`: the lock, or the wait (ms) before the next try. Throws
 * once the deadline has passed with the lock still held.
 */
function nextTry(file: string, deadline: number, wait: number): FileLock | number {
  const result = tryLock(lockFileFor(file));
  if (isHeld(result)) return result;
  if (Date.now() < deadline) return Math.min(wait * 2, 100);
  const who = result.owner ? ` by process ${result.owner.pid} on ${result.owner.hostname}` : '';
  throw new Error(`${file} stays locked${who} (${lockFileFor(file)}); try again.`);
}

/**
 * Runs `fn` holding `<file>.lock`, waiting up to `timeoutMs` for another holder (these locks are
 * held for the few milliseconds of a read-merge-write). Throws when the lock stays held.
 */
export function withFileLockSync<T>(file: string, fn: () => T, timeoutMs = 10_000): T {
  const deadline = Date.now() + timeoutMs;
  let attempt = nextTry(file, deadline, 1);
  while (typeof attempt === 'number') {
    sleepSync(attempt);
    attempt = nextTry(file, deadline, attempt);
  }
  try {
    return fn();
  } finally {
    attempt.release();
  }
}

/** `withFileLockSync` for work that awaits; waiting does not block the event loop. */
export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let attempt = nextTry(file, deadline, 1);
  while (typeof attempt === 'number') {
    const wait = attempt;
    await new Promise((resolve) => setTimeout(resolve, wait));
    attempt = nextTry(file, deadline, attempt);
  }
  try {
    return await fn();
  } finally {
    attempt.release();
  }
}

export const DATA_DIR_LOCK = 'arbor-server.lock';

/** Another server holds the data folder. */
export class DataDirLockedError extends CodedError {
  readonly code = 'data_dir_locked';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner | undefined,
  ) {
    const who = owner ? ` (process ${owner.pid} on ${owner.hostname})` : '';
    super(
      `Another Arbor server${who} is using the data folder ${dataDir} (lock ${dataDir}/${DATA_DIR_LOCK}). ` +
        'Two servers on one data folder lose each other’s owners and logins: stop the other one first, ' +
        'or give this server a data folder of its own with --data.',
    );
    this.name = 'DataDirLockedError';
  }
}

function cannotWrite(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EROFS' || code === 'EACCES' || code === 'EPERM';
}

/**
 * The data folder's server lock, `<dataDir>/arbor-server.lock`, held for as long as the server
 * runs. A holder this process cannot see (another container, another host) is waited for until
 * its lease runs out, so a restart after a crash starts; a live one throws DataDirLockedError.
 * A data folder this process cannot write gives no lock (undefined): a server there changes
 * nothing, so it cannot lose another's records.
 */
export async function acquireDataDirLock(dataDir: string): Promise<FileLock | undefined> {
  const lockPath = path.join(dataDir, DATA_DIR_LOCK);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    if (cannotWrite(error)) return undefined;
    throw error;
  }
  const deadline = Date.now() + LEASE_MS + 2 * REFRESH_MS;
  for (;;) {
    let result: FileLock | LockHolder;
    try {
      result = tryLock(lockPath);
    } catch (error) {
      if (cannotWrite(error)) return undefined;
      throw error;
    }
    if (isHeld(result)) return result;
    if (result.state === 'alive') throw new DataDirLockedError(dataDir, result.owner);
    const waitMs = result.leaseEndsAt - Date.now();
    // A lease that keeps being renewed while we wait belongs to a live server.
    if (Date.now() + waitMs > deadline) throw new DataDirLockedError(dataDir, result.owner);
    await new Promise((resolve) => setTimeout(resolve, Math.max(50, Math.min(waitMs + 10, 1000))));
  }
}

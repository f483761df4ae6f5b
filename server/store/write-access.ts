import { acquireLock, readLockOwner, SessionLockedError, type FileLock } from './file-lock.js';
import {
  makeWritable,
  SessionChangedError,
  type PendingRepair,
  type StoreState,
} from './open-session-file.js';
import type { SessionWriter } from './session-writer.js';

/*
 * How a SessionStore may write its file: not at all (read-only), now (it holds the lock and an
 * append descriptor), or on demand (opened for reading; the first write takes the lock, checks the
 * file is the one read, repairs and migrates it: decision 053).
 */
export class WriteAccess {
  /**
   * True once a first write found that another program changed the file since it was read: the
   * store's view is out of date and it must be opened again.
   */
  stale = false;

  constructor(
    private readonly file: string | undefined,
    private writer: SessionWriter | undefined,
    private lock: FileLock | undefined,
    /** Set for a file opened on demand until its first write. */
    private pending: PendingRepair | undefined,
    private readOnlyNow: boolean,
  ) {}

  static of(state: StoreState): WriteAccess {
    return new WriteAccess(state.file, state.writer, state.lock, state.pending, state.readOnly);
  }

  /** The append descriptor, once the file is writable (none for an in-memory store). */
  get appender(): SessionWriter | undefined {
    return this.writer;
  }

  /** True when appends go straight to the file: no lock to take or repair to make first. */
  get writableNow(): boolean {
    return !this.readOnlyNow;
  }

  /** True when the file can never be written through this store. */
  get readOnly(): boolean {
    return this.readOnlyNow && this.pending === undefined;
  }

  /**
   * Makes the file writable now; returns true when that migrated it (its bodies are then read
   * from the file). SessionLockedError while another process holds the lock (or took it over),
   * SessionChangedError when another program changed the file since it was read.
   */
  ensure(): boolean {
    if (this.lock?.compromised && this.file) {
      // Another process took the lock over (this one stalled past its lease): it writes now.
      throw new SessionLockedError(this.file, readLockOwner(this.file));
    }
    const pending = this.pending;
    if (!pending || !this.file) {
      if (this.readOnlyNow) throw new Error('The session was opened read-only');
      return false;
    }
    const lock = acquireLock(this.file);
    try {
      this.writer = makeWritable(this.file, pending, true);
    } catch (error) {
      lock.release();
      if (error instanceof SessionChangedError) this.stale = true;
      throw error;
    }
    this.lock = lock;
    this.pending = undefined;
    this.readOnlyNow = false;
    return pending.migration !== undefined;
  }

  sync(): void {
    this.writer?.sync();
  }

  /** fsync and close the descriptor, release the lock. */
  close(): void {
    try {
      this.writer?.close();
    } finally {
      this.lock?.release();
    }
  }
}

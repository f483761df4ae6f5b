import fs from 'node:fs/promises';
import path from 'node:path';
import type { SessionStore } from '../store/session-store.js';

/*
 * Makes a session file's appends durable without stopping the event loop. The store's `sync()` is
 * an fsync on the calling thread: at every turn end of every session it stalls streaming for all
 * of them (50 sessions: over a second). The appends are already in the kernel (one write(2) each),
 * and fsync flushes a file whatever descriptor names it, so this runs the fsync on a descriptor of
 * its own in libuv's thread pool. Requests made while one runs share a single follow-up fsync.
 */

/** The part of a store the sync needs: its file (none for an in-memory store) and its own sync. */
export type SyncableStore = Pick<SessionStore, 'file' | 'sync'>;

export class BackgroundSync {
  private handle: Promise<fs.FileHandle> | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private failure: unknown;
  private closed = false;
  private directorySynced = false;

  constructor(private readonly store: SyncableStore) {}

  /**
   * Resolves once every append made before the call is on disk; rejects when the fsync failed.
   * A request made while an fsync runs waits for it and shares the next one.
   */
  request(): Promise<void> {
    if (this.closed || !this.store.file) return Promise.resolve();
    if (this.queued) return this.queued;
    if (!this.running) {
      const run = this.fsync().finally(() => {
        if (this.running === run) this.running = undefined;
      });
      this.running = run;
      return run;
    }
    const queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.request();
      });
    this.queued = queued;
    return queued;
  }

  /**
   * A request whose failure is kept for the next `flush()` instead of being thrown now: for
   * turn ends, where nobody waits for the result.
   */
  requestQuietly(): void {
    this.request().catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  /** Everything appended so far is durable; throws the first failure since the last flush. */
  async flush(): Promise<void> {
    const outcome = await this.request().then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    const failure = this.failure ?? outcome?.error;
    this.failure = undefined;
    if (failure !== undefined) throw failure;
  }

  /** Waits for a running fsync and releases the descriptor. Later requests do nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([this.running, this.queued]);
    const handle = this.handle;
    this.handle = undefined;
    if (handle) await (await handle.catch(() => undefined))?.close().catch(() => undefined);
  }

  private async fsync(): Promise<void> {
    const file = this.store.file;
    if (!file) return;
    const handle = (this.handle ??= fs.open(file, 'r'));
    try {
      await (await handle).sync();
      if (!this.directorySynced) {
        // A new session's file is created without fsyncs; its directory entry becomes durable
        // here. Best effort: a file system that refuses to sync a directory has nothing to add.
        this.directorySynced = true;
        await syncDirectory(path.dirname(file)).catch(() => undefined);
      }
    } catch {
      // A descriptor that cannot be had or synced (a platform that refuses fsync on a read-only
      // one) falls back to the store's own, blocking sync: durability comes first.
      if (this.handle === handle) this.handle = undefined;
      await handle.then((opened) => opened.close()).catch(() => undefined);
      this.store.sync();
    }
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

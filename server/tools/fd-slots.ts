import fs from 'node:fs';
import type { FdTracker } from './workspace-path.js';

/*
 * Descriptors of a grep search, recorded in memory the tool's thread shares with the worker. A
 * search that runs out of time is stopped by terminating its worker, which then runs no `finally`:
 * the tool closes what the worker still held, once the thread has exited (so no number is closed
 * twice: a slot is cleared before its descriptor is closed).
 */

/** Room for a walk of the deepest tree grep descends into, plus a link being resolved. */
const SLOTS = 4096;

export function newFdSlots(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT)).fill(-1);
}

/** Opens and closes through `slots`, so whatever is open at any moment is listed there. */
export function slotFds(slots: Int32Array): FdTracker {
  const free: number[] = [];
  for (let i = slots.length - 1; i >= 0; i--) free.push(i);
  const slotOf = new Map<number, number>();
  return {
    open(file, flags, mode) {
      const slot = free.pop();
      if (slot === undefined) throw new Error('too many files open at once in one search');
      let fd: number;
      try {
        fd = fs.openSync(file, flags, mode);
      } catch (error) {
        free.push(slot);
        throw error;
      }
      Atomics.store(slots, slot, fd);
      slotOf.set(fd, slot);
      return fd;
    },
    close(fd) {
      const slot = slotOf.get(fd);
      if (slot !== undefined) {
        slotOf.delete(fd);
        Atomics.store(slots, slot, -1);
        free.push(slot);
      }
      fs.closeSync(fd);
    },
  };
}

/** Closes what a search's worker left open; call only once that worker has stopped for good. */
export function closeLeftoverFds(slots: Int32Array): void {
  for (let i = 0; i < slots.length; i++) {
    const fd = Atomics.exchange(slots, i, -1);
    if (fd < 0) continue;
    try {
      fs.closeSync(fd);
    } catch {
      // already gone
    }
  }
}

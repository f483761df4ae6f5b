import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/*
 * A real, small file system for tests of a full disk or a read-only data folder: a tmpfs (or a
 * read-only bind mount) mounted for the test. Needs root, as these tests run here and in CI.
 */

export function requireRoot(what: string): void {
  if (process.getuid?.() !== 0) {
    throw new Error(
      `${what} needs root to mount a file system (run the tests as root, as CI does)`,
    );
  }
}

export interface SmallDisk {
  dir: string;
  /** Fills the disk until a write fails, then frees `keepFreeBytes` again. */
  fill(keepFreeBytes?: number): void;
  /** Removes the filler: the disk has room again. */
  free(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `sizeBytes` at `dir` (created). */
export function mountSmallDisk(dir: string, sizeBytes: number): SmallDisk {
  requireRoot('A full-disk test');
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir]);
  const filler = path.join(dir, 'filler.bin');
  return {
    dir,
    fill(keepFreeBytes = 0) {
      const fd = fs.openSync(filler, 'a');
      const chunk = Buffer.alloc(4096, 0x78);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        fs.closeSync(fd);
      }
      const size = fs.statSync(filler).size;
      fs.truncateSync(filler, Math.max(0, size - keepFreeBytes));
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir]);
    },
  };
}

/** Makes `dir` read-only for every process, root included: a read-only bind mount onto itself. */
export function makeReadOnly(dir: string): { undo(): void } {
  requireRoot('A read-only data folder test');
  execFileSync('mount', ['--bind', dir, dir]);
  execFileSync('mount', ['-o', 'remount,bind,ro', dir]);
  return {
    undo() {
      execFileSync('umount', ['-l', dir]);
    },
  };
}

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/*
 * A real, small file system for tests of a full disk or a read-only data folder: a tmpfs (or a
 * read-only bind mount) mounted for the test, as root (here and in CI). Where mounting is refused
 * (no root, a container without CAP_SYS_ADMIN) the test fails with the reason: a fault injected
 * into Node's fs module would test our patch of fs, not the server against a full disk.
 */

export interface SmallDisk {
  dir: string;
  /** Fills the disk until a write fails, then frees `keepFreeBytes` again. */
  fill(keepFreeBytes?: number): void;
  /** Removes the filler: the disk has room again. */
  free(): void;
  unmount(): void;
}

function mount(args: string[], what: string): void {
  try {
    execFileSync('mount', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `small-disk: ${what} was refused (${stderr || (error as Error).message}); ` +
        'these tests need root with CAP_SYS_ADMIN to mount a real file system',
      { cause: error },
    );
  }
}

/** Mounts a tmpfs of `sizeBytes` at `dir` (created). */
export function mountSmallDisk(dir: string, sizeBytes: number): SmallDisk {
  fs.mkdirSync(dir, { recursive: true });
  mount(['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], `mounting a tmpfs at ${dir}`);
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
  mount(['--bind', dir, dir], `a bind mount of ${dir}`);
  try {
    mount(['-o', 'remount,bind,ro', dir], `a read-only remount of ${dir}`);
  } catch (error) {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    throw error;
  }
  return { undo: () => execFileSync('umount', ['-l', dir]) };
}

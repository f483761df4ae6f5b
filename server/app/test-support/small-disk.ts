import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/*
 * A real, small file system for tests of a full disk or a read-only data folder: a tmpfs (or a
 * read-only bind mount) mounted for the test, as root (here and in CI). Where mounting is refused
 * (a container without CAP_SYS_ADMIN), the fault is injected at Node's fs layer instead, for
 * writes under the folder in this process, and the test says so on stderr.
 */

export interface SmallDisk {
  dir: string;
  /** How the fault is made: a real tmpfs, or errors injected at the fs layer. */
  kind: 'tmpfs' | 'injected';
  /** Fills the disk until a write fails, then frees `keepFreeBytes` again. */
  fill(keepFreeBytes?: number): void;
  /** Removes the filler: the disk has room again. */
  free(): void;
  unmount(): void;
}

function tryMount(args: string[]): string | undefined {
  // For checking the fallback where mounting works.
  if (process.env.ARBOR_TEST_NO_MOUNT) return 'ARBOR_TEST_NO_MOUNT is set';
  try {
    execFileSync('mount', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    return undefined;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return stderr || (error as Error).message;
  }
}

type Patchable = Record<string, (...args: unknown[]) => unknown>;

/** Replaces fs functions for paths (or descriptors) under `dir`; returns the undo. */
function injectUnder(
  dir: string,
  names: string[],
  fault: (name: string, target: string, args: unknown[]) => void,
): () => void {
  const target = (value: unknown): string | undefined => {
    if (typeof value === 'number') {
      try {
        return fs.readlinkSync(`/proc/self/fd/${value}`);
      } catch {
        return undefined;
      }
    }
    return typeof value === 'string' ? path.resolve(value) : undefined;
  };
  const module = fs as unknown as Patchable;
  const originals = new Map(names.map((name) => [name, module[name]!]));
  for (const [name, original] of originals) {
    module[name] = (...args: unknown[]) => {
      const where = target(args[0]);
      if (where && (where === dir || where.startsWith(`${dir}/`))) fault(name, where, args);
      return original.apply(fs, args);
    };
  }
  return () => {
    for (const [name, original] of originals) module[name] = original;
  };
}

function errno(code: string, syscall: string, file: string): NodeJS.ErrnoException {
  const messages: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EROFS: 'read-only file system',
  };
  return Object.assign(new Error(`${code}: ${messages[code]}, ${syscall} '${file}'`), {
    code,
    syscall,
    path: file,
  });
}

/** Mounts a tmpfs of `sizeBytes` at `dir` (created). */
export function mountSmallDisk(dir: string, sizeBytes: number): SmallDisk {
  fs.mkdirSync(dir, { recursive: true });
  const refused = tryMount(['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir]);
  const filler = path.join(dir, 'filler.bin');
  if (refused === undefined) {
    return {
      dir,
      kind: 'tmpfs',
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
  process.stderr.write(
    `small-disk: mounting a tmpfs at ${dir} was refused (${refused}); ENOSPC is injected at the fs layer instead\n`,
  );
  let undo: (() => void) | undefined;
  return {
    dir,
    kind: 'injected',
    fill(keepFreeBytes = 0) {
      let room = keepFreeBytes;
      undo?.();
      undo = injectUnder(
        dir,
        ['writeSync', 'writeFileSync', 'appendFileSync'],
        (name, where, args) => {
          const data = args[1];
          const size =
            name === 'writeSync' && typeof args[3] === 'number'
              ? args[3]
              : typeof data === 'string'
                ? Buffer.byteLength(data)
                : ((data as Buffer | undefined)?.length ?? 0);
          if (size > room) throw errno('ENOSPC', 'write', where);
          room -= size;
        },
      );
    },
    free() {
      undo?.();
      undo = undefined;
    },
    unmount() {
      undo?.();
    },
  };
}

/** Makes `dir` read-only for every process, root included: a read-only bind mount onto itself. */
export function makeReadOnly(dir: string): { kind: 'mount' | 'injected'; undo(): void } {
  const refused = tryMount(['--bind', dir, dir]) ?? tryMount(['-o', 'remount,bind,ro', dir]);
  if (refused === undefined) {
    return { kind: 'mount', undo: () => execFileSync('umount', ['-l', dir]) };
  }
  try {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  } catch {
    // The bind itself was refused: nothing to undo.
  }
  process.stderr.write(
    `small-disk: a read-only bind mount of ${dir} was refused (${refused}); EROFS is injected at the fs layer instead\n`,
  );
  const undo = injectUnder(
    dir,
    [
      'writeFileSync',
      'appendFileSync',
      'renameSync',
      'rmSync',
      'unlinkSync',
      'truncateSync',
      'utimesSync',
      'linkSync',
    ],
    (name, where) => {
      throw errno('EROFS', name.replace(/Sync$/, ''), where);
    },
  );
  const openUndo = injectUnder(dir, ['openSync'], (_name, where, args) => {
    const flags = args[1];
    const writes =
      typeof flags === 'number'
        ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0
        : typeof flags === 'string' && /[wa+]/.test(flags);
    if (writes) throw errno('EROFS', 'open', where);
  });
  return {
    kind: 'injected',
    undo() {
      openUndo();
      undo();
    },
  };
}

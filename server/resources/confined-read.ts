import fs from 'node:fs';
import path from 'node:path';

/*
 * Reading the workspace's instructions without being led out of it. A context file, skill or
 * template is read only when its real path lies inside the folder it was found under (the
 * workspace, the data folder, or for context files above the workspace that folder itself): a
 * symlink to ~/.ssh/id_rsa or to another workspace is skipped with a warning. The file is opened
 * without following a last symlink and without blocking (a FIFO cannot hang the server), must
 * be a regular file (no device, no socket) and is read only up to a cap. On Linux the opened
 * descriptor's own path is checked again, so a folder swapped for a symlink between the check
 * and the open is caught too.
 */

/** The largest context file, skill or template that is read (pi reads any size). */
export const MAX_RESOURCE_BYTES = 256 * 1024;

export type ConfinedRead = { ok: true; text: string } | { ok: false; problem: string };

function isWithin(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The real path of `file` when it exists and lies inside `root` (a real path); else why not. */
export function confinedRealPath(
  file: string,
  root: string,
): { ok: true; real: string } | { ok: false; problem: string } {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return { ok: false, problem: 'cannot be resolved (a broken symlink?)' };
  }
  if (!isWithin(real, root)) {
    return { ok: false, problem: `leads outside ${root} (to ${real}); not read` };
  }
  return { ok: true, real };
}

/** Reads `file` as UTF-8 (BOM stripped) when it is a regular file inside `root`, within the cap. */
export function readConfined(file: string, root: string): ConfinedRead {
  const resolved = confinedRealPath(file, root);
  if (!resolved.ok) return resolved;
  let fd: number;
  try {
    fd = fs.openSync(
      resolved.real,
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    );
  } catch (error) {
    return { ok: false, problem: `cannot be opened (${(error as NodeJS.ErrnoException).code})` };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { ok: false, problem: 'is not a regular file; not read' };
    if (process.platform === 'linux') {
      const opened = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (!isWithin(opened, root)) {
        return { ok: false, problem: `leads outside ${root} (to ${opened}); not read` };
      }
    }
    if (stat.size > MAX_RESOURCE_BYTES) {
      return {
        ok: false,
        problem: `is ${stat.size} bytes, over the ${MAX_RESOURCE_BYTES}-byte limit; not read`,
      };
    }
    // One byte more than the file's size: a file that grew since fstat is caught, not cut.
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, MAX_RESOURCE_BYTES) + 1);
    let length = 0;
    for (;;) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) {
        return { ok: false, problem: 'changed while it was read; not read (try again)' };
      }
    }
    const text = buffer.subarray(0, length).toString('utf8');
    return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (error) {
    return { ok: false, problem: `cannot be read (${(error as Error).message})` };
  } finally {
    fs.closeSync(fd);
  }
}

/** What a directory entry is, following a symlink only when it stays inside `root`. */
export function entryKind(
  dir: string,
  entry: fs.Dirent,
  root: string,
): 'file' | 'directory' | 'outside' | 'other' {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (!entry.isSymbolicLink()) return 'other';
  let real: string;
  try {
    real = fs.realpathSync(path.join(dir, entry.name));
  } catch {
    return 'other'; // a broken symlink is passed over, as pi does
  }
  if (!isWithin(real, root)) return 'outside';
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(real, { throwIfNoEntry: false });
  } catch {
    return 'other';
  }
  if (stat?.isFile()) return 'file';
  if (stat?.isDirectory()) return 'directory';
  return 'other';
}

/** The entries of `dir` in the order the file system gives them (as pi reads them); none on error. */
export function listDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

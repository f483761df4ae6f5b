import fs from 'node:fs';
import { compileGlob } from '../runtime/linear-glob.js';
import { fdPath } from './workspace-path.js';

/*
 * Walks a directory tree for grep and find without leaving it: each directory is opened from
 * its parent's held descriptor with O_NOFOLLOW and read through its own, so neither a symbolic
 * link nor a directory swapped for one mid-walk can lead a search outside the workspace. Links
 * are reported, never descended into. `.git` and `node_modules` are skipped, as the tools they
 * stand in for (ripgrep, fd) skip them by default. Only the directories on the current branch are
 * held open, so a walk holds at most MAX_WALK_DEPTH descriptors.
 */

const SKIPPED_DIRS = new Set(['.git', 'node_modules']);
const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/** Directories deeper than this below the start are not searched. */
export const MAX_WALK_DEPTH = 1024;

export interface WalkEntry {
  /** Relative to the walk's start, with `/` separators. */
  relative: string;
  /** The entry's name in its directory. */
  name: string;
  /** The held directory that contains it: open only until the walk moves on. */
  dirFd: number;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

/** The entries below the directory `startFd` (held by the caller), sorted, depth first. */
export async function* walkFiles(startFd: number, signal: AbortSignal): AsyncGenerator<WalkEntry> {
  yield* walkDirectory(startFd, '', 0, signal);
}

async function* walkDirectory(
  dirFd: number,
  prefix: string,
  depth: number,
  signal: AbortSignal,
): AsyncGenerator<WalkEntry> {
  if (signal.aborted) throw new Error('Search aborted');
  let entries;
  try {
    entries = await fs.promises.readdir(fdPath(dirFd), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const subdirs: WalkEntry[] = [];
  for (const entry of entries) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const walked = {
        relative,
        name: entry.name,
        dirFd,
        isDirectory: true,
        isSymbolicLink: false,
      };
      subdirs.push(walked);
      yield walked;
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      yield {
        relative,
        name: entry.name,
        dirFd,
        isDirectory: false,
        isSymbolicLink: entry.isSymbolicLink(),
      };
    }
  }
  if (depth >= MAX_WALK_DEPTH) return;
  for (const subdir of subdirs) {
    let child: number;
    try {
      // Swapped for a link (or a file) since it was listed: ENOTDIR/ELOOP, and it is skipped.
      child = fs.openSync(fdPath(dirFd, subdir.name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch {
      continue;
    }
    try {
      yield* walkDirectory(child, subdir.relative, depth + 1, signal);
    } finally {
      fs.closeSync(child);
    }
  }
}

/** Matches a glob against a relative path; a glob without `/` matches the base name anywhere. */
export function globMatcher(glob: string): (relative: string) => boolean {
  const regex = compileGlob(glob);
  if (glob.includes('/')) return (relative) => regex.matches(relative);
  return (relative) => regex.matches(relative.slice(relative.lastIndexOf('/') + 1));
}

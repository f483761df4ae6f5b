import fs from 'node:fs';
import path from 'node:path';
import { globMatcher, walkFiles, type WalkEntry } from './file-walk.js';
import { fdPath, MissingPathError, openInWorkspace } from './workspace-path.js';

/*
 * The search behind the grep tool: walk, glob filter, read, match, format. Everything here that
 * runs a pattern the model wrote (the regular expression and the glob, which becomes one) can take
 * exponential time, so it runs in a worker thread (grep-worker.ts) that the tool can terminate;
 * see grep-runner.ts. The worker opens the path it is handed as every file tool does
 * (openInWorkspace), walks from held directory descriptors without following links, and reads a
 * linked file only when the link, resolved the same confined way, leads to a file inside.
 */

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

export const MAX_LINE_CHARS = 500;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** What one search needs; plain data, so it can cross to a worker. */
export interface GrepJob {
  /** The workspace's real path. */
  root: string;
  /** What to search (a directory or a file), relative to `root`. */
  target: string;
  /** RegExp source and flags, already checked to compile. */
  source: string;
  flags: string;
  glob?: string;
  limit: number;
  context: number;
}

/** The output lines of one file's matches (with context and `--` separators). */
export interface GrepHits {
  lines: string[];
  matches: number;
}

export interface GrepSummary {
  /** True when more matches existed than `limit`. */
  limited: boolean;
  /** True when a shown line was cut at MAX_LINE_CHARS. */
  clipped: boolean;
}

/**
 * Searches the job's files in walk order (sorted, depth first), reporting each file's matches as
 * soon as they are found so that a search stopped later still has them. Binary files (a NUL in
 * the first 8,000 bytes) and files over MAX_FILE_BYTES are skipped.
 */
export async function runGrepJob(
  job: GrepJob,
  onHits: (hits: GrepHits) => void,
): Promise<GrepSummary> {
  const regex = new RegExp(job.source, job.flags);
  const filter = job.glob ? globMatcher(job.glob) : () => true;
  let matches = 0;
  let limited = false;
  let clipped = false;
  const clip = (line: string): string => {
    if (line.length <= MAX_LINE_CHARS) return line;
    clipped = true;
    return `${line.slice(0, MAX_LINE_CHARS)}... [truncated]`;
  };

  /** The content of a regular file of at most MAX_FILE_BYTES, read through `fd`. */
  const readSmallFile = (fd: number): Buffer | undefined => {
    const info = fs.fstatSync(fd);
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return undefined;
    return fs.readFileSync(fd);
  };

  /** A walked file, opened in its held directory; a link only through the workspace. */
  const openEntry = (entry: WalkEntry, shown: string): { fd: number; close(): void } => {
    if (entry.isSymbolicLink) return openInWorkspace(job.root, shown);
    const fd = fs.openSync(fdPath(entry.dirFd, entry.name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    return { fd, close: () => fs.closeSync(fd) };
  };

  const readEntry = (entry: WalkEntry, shown: string): Buffer | undefined => {
    let file;
    try {
      file = openEntry(entry, shown);
    } catch {
      return undefined; // gone, swapped for a link, or a link leading outside
    }
    try {
      return readSmallFile(file.fd);
    } catch {
      return undefined;
    } finally {
      file.close();
    }
  };

  const searchBuffer = (buffer: Buffer, shown: string): void => {
    if (buffer.subarray(0, 8000).includes(0)) return;
    const lines = buffer.toString('utf8').split('\n');
    const out: string[] = [];
    const before = matches;
    let lastPrinted = -1;
    for (let i = 0; i < lines.length; i++) {
      if (!regex.test(lines[i]!)) continue;
      if (matches >= job.limit) {
        limited = true;
        break;
      }
      matches++;
      const from = Math.max(0, i - job.context, lastPrinted + 1);
      const to = Math.min(lines.length - 1, i + job.context);
      if (job.context > 0 && lastPrinted >= 0 && from > lastPrinted + 1) out.push('--');
      for (let j = from; j <= to; j++)
        out.push(
          j === i
            ? `${shown}:${j + 1}: ${clip(lines[j]!)}`
            : `${shown}-${j + 1}- ${clip(lines[j]!)}`,
        );
      lastPrinted = to;
    }
    if (out.length > 0) onHits({ lines: out, matches: matches - before });
  };

  let target;
  try {
    target = openInWorkspace(job.root, job.target);
  } catch (error) {
    // Gone since the tool looked: nothing to search.
    if (error instanceof MissingPathError) return { limited, clipped };
    throw error;
  }
  try {
    if (!fs.fstatSync(target.fd).isDirectory()) {
      const buffer = readSmallFile(target.fd);
      if (buffer) searchBuffer(buffer, target.shown);
      return { limited, clipped };
    }
    // The worker is terminated to stop a search; the walk itself needs no signal.
    const never = new AbortController().signal;
    for await (const entry of walkFiles(target.fd, never)) {
      if (limited) break;
      if (entry.isDirectory || !filter(entry.relative)) continue;
      const shown = path.posix.join(target.shown, entry.relative);
      const buffer = readEntry(entry, shown);
      if (buffer) searchBuffer(buffer, shown);
    }
    return { limited, clipped };
  } finally {
    target.close();
  }
}

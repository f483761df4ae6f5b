import fs from 'node:fs';
import path from 'node:path';
import { globMatcher, walkFiles } from './file-walk.js';
import { displayPath, resolveInWorkspace } from './workspace-path.js';

/*
 * The search behind the grep tool: walk, glob filter, read, match, format. Everything here that
 * runs a pattern the model wrote (the regular expression and the glob, which becomes one) can take
 * exponential time, so it runs in a worker thread (grep-worker.ts) that the tool can terminate;
 * see grep-runner.ts. The worker is handed paths already confined to the workspace and keeps
 * them there: it walks without following links and reads a linked file only when its real path
 * is inside the workspace.
 */

export const MAX_LINE_CHARS = 500;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** What one search needs; plain data, so it can cross to a worker. */
export interface GrepJob {
  /** The workspace's real path. */
  root: string;
  /** The real path to search (a directory or a file), already confined to `root`. */
  target: string;
  isDirectory: boolean;
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

  const searchFile = (file: string, shown: string): void => {
    // Links are searched only when they stay inside the workspace.
    let real: string;
    try {
      real = resolveInWorkspace(job.root, file);
    } catch {
      return;
    }
    let buffer: Buffer;
    try {
      const info = fs.statSync(real);
      if (!info.isFile() || info.size > MAX_FILE_BYTES) return;
      buffer = fs.readFileSync(real);
    } catch {
      return;
    }
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

  if (!job.isDirectory) {
    searchFile(job.target, displayPath(job.root, job.target));
    return { limited, clipped };
  }
  // The worker is terminated to stop a search; the walk itself needs no signal.
  const never = new AbortController().signal;
  for await (const entry of walkFiles(job.target, never)) {
    if (limited) break;
    if (entry.isDirectory || !filter(entry.relative)) continue;
    searchFile(entry.file, displayPath(job.root, path.join(job.target, entry.relative)));
  }
  return { limited, clipped };
}

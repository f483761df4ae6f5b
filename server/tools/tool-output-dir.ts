import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * Where the full output of a long bash command is kept: a private folder per server process,
 * made with mkdtemp (mode 0700, a name nobody can guess or create first) under the system's temp
 * folder on first need, with one folder per bash tool (one per session) inside it. Nothing is
 * written to a shared, predictable path, so another local user can neither read the logs nor
 * block them, and a server running as another user is not disturbed. The folder is removed when
 * the process exits, and a tool's folder when its session closes.
 *
 * The logs are written by the server, outside the sandbox and its file-size limit, so they have
 * limits of their own: a command's log keeps the first OUTPUT_LIMITS.commandBytes of its output, and
 * a session's folder holds at most OUTPUT_LIMITS.sessionBytes, its oldest logs deleted to make room
 * (before, `yes | head -c 2G` left 2 GiB in the folder).
 */

export interface OutputLimits {
  /** Bytes of one command's output kept in its log. */
  commandBytes: number;
  /** Bytes of logs one session's folder holds. */
  sessionBytes: number;
}

const MiB = 1024 * 1024;

export const OUTPUT_LIMITS: OutputLimits = { commandBytes: 64 * MiB, sessionBytes: 256 * MiB };

let root: string | undefined;

/** Removes the process's folder and every log in it (at exit; tests call it when done). */
export function removeToolOutputRoot(): void {
  if (root) fs.rmSync(root, { recursive: true, force: true });
}

/** The process's private folder, made on first call (again if something removed it). */
export function toolOutputRoot(): string {
  if (root && fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) return root;
  if (!root) process.once('exit', removeToolOutputRoot);
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-tool-output-'));
  return root;
}

/** A fresh private folder for one bash tool's logs, inside the process's folder. */
export function newToolOutputDir(): string {
  return fs.mkdtempSync(path.join(toolOutputRoot(), 'bash-'));
}

/**
 * Deletes the oldest logs in `dir` until `incoming` more bytes fit within `maxTotal`. A log that
 * is still being written may go too: its command carries on, only the copy is lost.
 */
export function makeRoom(dir: string, incoming: number, maxTotal: number): void {
  const logs = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(dir, entry.name);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      return { file, size: stat?.size ?? 0, mtime: stat?.mtimeMs ?? 0 };
    })
    .sort((a, b) => a.mtime - b.mtime);
  let total = logs.reduce((sum, log) => sum + log.size, 0);
  for (const log of logs) {
    if (total + incoming <= maxTotal) return;
    fs.rmSync(log.file, { force: true });
    total -= log.size;
  }
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * Where the full output of a long bash command is kept: a private folder per server process,
 * made with mkdtemp (mode 0700, a name nobody can guess or create first) under the system's temp
 * folder on first need, with one folder per bash tool (one per session) inside it. Nothing is
 * written to a shared, predictable path, so another local user can neither read the logs nor
 * block them, and a server running as another user is not disturbed. The folder is removed when
 * the process exits.
 */

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

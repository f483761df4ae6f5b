import path from 'node:path';
import type { ResourceScope, ResourceWarning } from '../../shared/resources.js';
import { confinedRealPath, readConfined } from './confined-read.js';

/*
 * Context files as pi 1.6 finds them (resource-loader.js `loadProjectContextFiles`): in each
 * folder the first of AGENTS.override.md, AGENTS.md, AGENTS.MD, CLAUDE.md, CLAUDE.MD that is a
 * file; the data folder's first (pi's agent folder), then the workspace's parents from the top
 * down, then the workspace's own. How far up is the caller's choice (see decision 085): pi goes
 * to the file system's root; Arbor stops at the workspace in team mode.
 */

export const CONTEXT_FILE_NAMES = [
  'AGENTS.override.md',
  'AGENTS.md',
  'AGENTS.MD',
  'CLAUDE.md',
  'CLAUDE.MD',
] as const;

export interface ContextFile {
  path: string;
  content: string;
  scope: ResourceScope;
}

/** The first context file of `dir` that reads; problems with the others become warnings. */
function contextFileIn(
  dir: string,
  root: string,
  scope: ResourceScope,
  warnings: ResourceWarning[],
): ContextFile | undefined {
  for (const name of CONTEXT_FILE_NAMES) {
    const file = path.join(dir, name);
    const where = confinedRealPath(file, root);
    if (!where.ok) {
      // A missing file is the common case; a symlink out of the folder deserves a word.
      if (where.problem.startsWith('leads outside'))
        warnings.push({ path: file, message: `${name} ${where.problem}` });
      continue;
    }
    const read = readConfined(file, root);
    if (read.ok) return { path: file, content: read.text, scope };
    if (read.problem.startsWith('is not a regular file')) continue;
    warnings.push({ path: file, message: `${name} ${read.problem}` });
  }
  return undefined;
}

export interface ContextFileOptions {
  /** The workspace's real path; undefined: the workspace's own files are not loaded. */
  workspace: string | undefined;
  /** Also read the workspace's parent folders, up to the root (pi's discovery). */
  parents: boolean;
  /** The data folder's real path; undefined: the user-level file is not loaded. */
  dataDir: string | undefined;
}

export function loadContextFiles(
  opts: ContextFileOptions,
  warnings: ResourceWarning[],
): ContextFile[] {
  const files: ContextFile[] = [];
  const seen = new Set<string>();
  if (opts.dataDir !== undefined) {
    const user = contextFileIn(opts.dataDir, opts.dataDir, 'user', warnings);
    if (user) {
      files.push(user);
      seen.add(user.path);
    }
  }
  if (opts.workspace === undefined) return files;
  const project: ContextFile[] = [];
  let dir = opts.workspace;
  for (;;) {
    // Inside the workspace a file may link anywhere within it; above it, only within its folder.
    const root = dir === opts.workspace ? opts.workspace : dir;
    const found = contextFileIn(dir, root, 'project', warnings);
    if (found && !seen.has(found.path)) {
      project.unshift(found);
      seen.add(found.path);
    }
    const parent = path.dirname(dir);
    if (!opts.parents || parent === dir) break;
    dir = parent;
  }
  return [...files, ...project];
}

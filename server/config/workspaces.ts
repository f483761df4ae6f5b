import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceInfo } from '../../shared/protocol.js';

/** A workspace the operator configured: a real directory the agent's tools may act in. */
export interface Workspace extends WorkspaceInfo {
  /** The directory's real path (symlinks resolved). */
  path: string;
}

/**
 * A workspace's stable id: a slug of its directory name and 8 hex characters of a hash of its real
 * path, so the same directory keeps its id across restarts and two `app` directories do not clash.
 */
export function workspaceIdFor(realPath: string): string {
  const base = path.basename(realPath) || 'root';
  const slug =
    base
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'workspace';
  const hash = createHash('sha256').update(realPath).digest('hex').slice(0, 8);
  return `${slug}-${hash}`;
}

/**
 * Resolves configured workspace directories to workspaces. Throws an error a person can act on for
 * a directory that does not exist or is not a directory; duplicates (after resolving) are merged.
 */
export function resolveWorkspaces(dirs: string[], baseDir: string, source: string): Workspace[] {
  const seen = new Map<string, Workspace>();
  for (const dir of dirs) {
    const absolute = path.resolve(baseDir, dir);
    let real: string;
    try {
      real = fs.realpathSync(absolute);
    } catch {
      throw new Error(
        `Workspace "${dir}" (from ${source}) does not exist. Create the directory or leave it out.`,
      );
    }
    if (!fs.statSync(real).isDirectory()) {
      throw new Error(`Workspace "${dir}" (from ${source}) is not a directory.`);
    }
    if (!seen.has(real)) {
      seen.set(real, { id: workspaceIdFor(real), name: path.basename(real) || real, path: real });
    }
  }
  return [...seen.values()];
}

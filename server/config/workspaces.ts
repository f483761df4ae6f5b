import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceInfo } from '../../shared/rest-shapes.js';

/** A workspace the operator configured: a real directory the agent's tools may act in. */
export interface Workspace extends WorkspaceInfo {
  /** The directory's real path (symlinks resolved). */
  path: string;
  /** False: its context files, skills and prompt templates do not load (config `resources`). */
  resources?: boolean;
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

/**
 * `dir`'s real path when it exists; else the real path of its nearest existing parent with the
 * missing rest appended, so a data folder that is yet to be made is compared where it will be
 * made. A dangling symlink on the way is followed to where its target would be.
 */
export function realPathOf(dir: string, depth = 0): string {
  const missing: string[] = [];
  let current = path.resolve(dir);
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...missing.reverse());
    } catch {
      const link = fs.lstatSync(current, { throwIfNoEntry: false });
      if (link?.isSymbolicLink() && depth < 40) {
        const target = path.resolve(path.dirname(current), fs.readlinkSync(current));
        return path.join(realPathOf(target, depth + 1), ...missing.reverse());
      }
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...missing.reverse());
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function isWithin(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * How the folder at real path `real` meets a workspace, in words, or undefined when it lies apart
 * from all of them (not inside one, not one, not holding one).
 */
function overlapWithWorkspaces(
  real: string,
  workspaces: Pick<Workspace, 'path'>[],
): string | undefined {
  for (const workspace of workspaces) {
    if (isWithin(real, workspace.path)) {
      return real === workspace.path
        ? `is the workspace ${workspace.path}`
        : `is inside the workspace ${workspace.path}`;
    }
    if (isWithin(workspace.path, real)) return `holds the workspace ${workspace.path}`;
  }
  return undefined;
}

function shownWithRealPath(dir: string, real: string): string {
  return real === path.resolve(dir) ? dir : `${dir} (really ${real})`;
}

/**
 * Refuses a data folder that a workspace's tools could reach: the data folder inside (or equal
 * to) a workspace, or a workspace inside the data folder. Both are compared by real path.
 */
export function checkDataDirApart(
  dataDir: string,
  dataSource: string,
  workspaces: Pick<Workspace, 'path'>[],
): void {
  const data = realPathOf(dataDir);
  const where = overlapWithWorkspaces(data, workspaces);
  if (!where) return;
  throw new Error(
    `The data folder ${shownWithRealPath(dataDir, data)} (from ${dataSource}) ${where}. The agent's tools act in every ` +
      "workspace, so they could read and change Arbor's own files (users, logins, API keys). " +
      'Keep the data folder apart from every workspace: pick another --data folder or another workspace.',
  );
}

/**
 * Refuses a relocated session folder that a workspace's tools could reach, by the same rule as
 * the data folder: there they could rewrite any session, what the model was told included, or
 * plant one under another user's name.
 */
export function checkSessionDirApart(
  sessionDir: string,
  source: string,
  workspaces: Pick<Workspace, 'path'>[],
): void {
  const real = realPathOf(sessionDir);
  const where = overlapWithWorkspaces(real, workspaces);
  if (!where) return;
  throw new Error(
    `The session folder ${shownWithRealPath(sessionDir, real)} (from ${source}) ${where}. The agent's tools act in ` +
      'every workspace, so they could rewrite or forge the sessions kept there. Keep the session ' +
      'folder apart from every workspace: pick another --session-dir (or sessionDir) or another workspace.',
  );
}

/**
 * Refuses a config file (ARBOR_CONFIG) that a workspace's tools could edit: it names the
 * workspaces, allows unsandboxed bash and trusts proxies, so a member's `edit` of it would widen
 * their reach at the next start (a workspace of `/etc`, say). Compared by real path.
 */
export function checkConfigFileApart(configFile: string, workspaces: Workspace[]): void {
  const real = realPathOf(configFile);
  const shown = real === path.resolve(configFile) ? configFile : `${configFile} (really ${real})`;
  const workspace = workspaces.find((w) => isWithin(real, w.path));
  if (!workspace) return;
  throw new Error(
    `The config file ${shown} (from ARBOR_CONFIG) is inside the workspace ${workspace.path}. ` +
      "The agent's tools act in every workspace, so they could change which folders Arbor opens " +
      'and how bash runs. Keep the config file apart from every workspace (in the data folder, or ' +
      'a folder of its own).',
  );
}

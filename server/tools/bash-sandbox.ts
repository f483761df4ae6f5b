import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { isWithin } from './sandbox-command.js';

/*
 * What the sandbox needs from the machine: which real folders to hide, and whether bubblewrap can
 * make the user namespace the sandbox relies on. Without one, bash fails with a message saying so;
 * it never falls back to a sandbox that keeps root's capabilities.
 */

export interface HiddenPathsInput {
  /** The workspace's real path. */
  workspace: string;
  /** Arbor's data folder: always hidden, even where it lies inside the workspace. */
  dataDir?: string;
  /** A relocated session folder: always hidden, like the data folder. */
  sessionDir?: string;
  /** Every configured workspace: those outside this one are hidden. */
  workspaces?: string[];
  /** The server user's home. */
  homeDir?: string;
  /** The server process's full-output folder (only this session's folder is bound back). */
  outputRoot?: string;
  /** Folders where containers mount secrets; WELL_KNOWN_SECRET_DIRS when absent. */
  secretDirs?: string[];
}

/**
 * Where Docker (`secrets:`, mode 0444 by default) and Kubernetes (the service account's token)
 * put secrets in a container: readable by every user there, so by the sandbox too.
 */
export const WELL_KNOWN_SECRET_DIRS = ['/run/secrets', '/var/run/secrets'];

/**
 * The host's own secrets that root may read: as root the sandbox's uid 0 is the host's, and the
 * owner's read bit needs no capability. Each is replaced by an empty file.
 */
export function wellKnownSecretFiles(): string[] {
  const files = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-'];
  try {
    for (const name of fs.readdirSync('/etc/ssh'))
      if (/^ssh_host_.*_key$/.test(name)) files.push(`/etc/ssh/${name}`);
  } catch {
    // no SSH server here
  }
  return files;
}

/**
 * The files among `candidates` that exist as regular files outside the workspace (a link is
 * hidden where it leads).
 */
export function hiddenFiles(
  workspace: string,
  candidates: string[] = wellKnownSecretFiles(),
): string[] {
  const found = new Set<string>();
  for (const file of candidates) {
    const real = realPath(file);
    if (real === undefined || isWithin(real, workspace)) continue;
    if (fs.statSync(real, { throwIfNoEntry: false })?.isFile()) found.add(real);
  }
  return [...found];
}

function realPath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The real paths to replace with an empty folder. Paths that do not exist are left out (there is
 * nothing to hide and bwrap could not mount over them); so is a workspace inside this one, which
 * is part of it and open to its file tools anyway. Symlinks are resolved, so a data folder reached
 * through a link is hidden where it really is.
 */
export function hiddenPaths(input: HiddenPathsInput): string[] {
  const hidden = new Set<string>();
  const add = (p: string | undefined, unlessInWorkspace: boolean) => {
    const real = p === undefined ? undefined : realPath(p);
    if (real === undefined || real === '/' || real === input.workspace) return;
    if (unlessInWorkspace && isWithin(real, input.workspace)) return;
    hidden.add(real);
  };
  add(input.dataDir, false);
  add(input.sessionDir, false);
  for (const other of input.workspaces ?? []) add(other, true);
  add(input.homeDir, true);
  add(input.outputRoot, false);
  for (const dir of input.secretDirs ?? WELL_KNOWN_SECRET_DIRS) add(dir, false);
  return [...hidden];
}

const NAMESPACE_CHECK = [
  '--unshare-user',
  '--disable-userns',
  '--cap-drop',
  'ALL',
  '--unshare-pid',
  '--ro-bind',
  '/',
  '/',
  '--',
  '/bin/true',
];

/** bwrap paths known to make user namespaces; a failure is checked again next time. */
const working = new Set<string>();

/**
 * Resolves when `bwrap` can make an unprivileged user namespace with every capability dropped;
 * rejects with an error a person can act on otherwise.
 */
export async function checkUserNamespace(bwrap: string): Promise<void> {
  if (working.has(bwrap)) return;
  const problem = await new Promise<string | undefined>((resolve) => {
    const child = spawn(bwrap, NAMESPACE_CHECK, { stdio: ['ignore', 'ignore', 'pipe'], env: {} });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (data: string) => {
      if (stderr.length < 2000) stderr += data;
    });
    child.once('error', (error) => resolve(error.message));
    child.once('close', (code) =>
      resolve(code === 0 ? undefined : stderr.trim() || `bwrap exited with code ${code}`),
    );
  });
  if (problem === undefined) {
    working.add(bwrap);
    return;
  }
  throw new Error(
    `bash is unavailable: the sandbox (bubblewrap) cannot create a user namespace on this server (${problem}). ` +
      'Arbor does not run commands in a sandbox that keeps its capabilities. An administrator can ' +
      'allow unprivileged user namespaces (sysctl user.max_user_namespaces, ' +
      'kernel.unprivileged_userns_clone, or the AppArmor or container profile).',
  );
}

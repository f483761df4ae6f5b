import fs from 'node:fs';
import path from 'node:path';
import type { ToolPolicy } from './create-tools.js';

export type { ToolPolicy };

/** True when bubblewrap (`bwrap`) is on the PATH, so bash can run sandboxed. */
export function hasBwrap(envPath: string = process.env.PATH ?? ''): boolean {
  return envPath.split(path.delimiter).some((dir) => {
    if (!dir) return false;
    try {
      fs.accessSync(path.join(dir, 'bwrap'), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * How bash may run. Sandboxed whenever bwrap exists, with the data folder and every workspace
 * named so the sandbox can hide them (all but the session's own). Without bwrap, a single user on
 * loopback runs bash as themselves (as pi does), but a team server keeps bash off unless the
 * operator sets `allowUnsandboxedBash`: any member could otherwise run commands as the server's
 * user.
 */
export function toolPolicyFor(opts: {
  teamMode: boolean;
  allowUnsandboxedBash: boolean;
  bwrapAvailable: boolean;
  dataDir?: string;
  /** A relocated session folder: hidden like the data folder. */
  sessionDir?: string;
  workspaces?: string[];
}): ToolPolicy {
  if (opts.bwrapAvailable)
    return {
      bash: 'sandboxed',
      sandbox: {
        ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
        ...(opts.sessionDir !== undefined ? { sessionDir: opts.sessionDir } : {}),
        ...(opts.workspaces !== undefined ? { workspaces: opts.workspaces } : {}),
      },
    };
  if (!opts.teamMode || opts.allowUnsandboxedBash) return { bash: 'unsandboxed' };
  return { bash: 'off' };
}

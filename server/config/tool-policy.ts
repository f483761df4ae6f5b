import fs from 'node:fs';
import path from 'node:path';

export interface ToolPolicy {
  bash: 'sandboxed' | 'unsandboxed' | 'off';
}

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
 * How bash may run. Sandboxed whenever bwrap exists. Without it, a single user on loopback runs
 * bash as themselves (as pi does), but a team server keeps bash off unless the operator sets
 * `allowUnsandboxedBash`: any member could otherwise run commands as the server's user.
 */
export function toolPolicyFor(opts: {
  teamMode: boolean;
  allowUnsandboxedBash: boolean;
  bwrapAvailable: boolean;
}): ToolPolicy {
  if (opts.bwrapAvailable) return { bash: 'sandboxed' };
  if (!opts.teamMode || opts.allowUnsandboxedBash) return { bash: 'unsandboxed' };
  return { bash: 'off' };
}

import fs from 'node:fs';
import path from 'node:path';
import { readJsonFile, updateJsonFile } from '../config/json-file.js';
import type { ResourcePolicy } from './workspace-resources.js';

/*
 * Whose instructions load (decision 085). A workspace's own context files, skills and templates
 * are instructions written by whoever can write the workspace: in team mode that is every member
 * and the model they drive, so they load only once an admin has trusted the workspace (pi's
 * project trust, in pi's own file: `<dataDir>/trust.json`, folder → true/false, the nearest entry
 * from the folder up deciding, so a folder trusted in pi is trusted here and back). Alone, the
 * operator chose the workspace on their own machine: it loads unless they said no. The data
 * folder's resources are the operator's and load whenever resources are on.
 */

export const TRUST_FILE = 'trust.json';

type TrustData = Record<string, boolean | null>;

function readTrust(dataDir: string): TrustData {
  const json = readJsonFile(path.join(dataDir, TRUST_FILE));
  if (json === undefined) return {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error(`${path.join(dataDir, TRUST_FILE)} must hold an object of folder → true/false`);
  }
  return json as TrustData;
}

/** pi's rule: the decision of the nearest folder from `dir` up that has one; null when none. */
export function trustDecision(dataDir: string, dir: string): boolean | null {
  const data = readTrust(dataDir);
  for (let current = dir; ; current = path.dirname(current)) {
    const value = data[current];
    if (value === true || value === false) return value;
    if (path.dirname(current) === current) return null;
  }
}

/** Records an admin's decision for `dir` (its real path), as pi's `ProjectTrustStore.set` does. */
export function setTrust(dataDir: string, dir: string, decision: boolean): string {
  const real = fs.realpathSync(dir);
  updateJsonFile(path.join(dataDir, TRUST_FILE), (current) => {
    const data = (current && typeof current === 'object' ? current : {}) as TrustData;
    const next: TrustData = { ...data, [real]: decision };
    return Object.fromEntries(
      Object.keys(next)
        .sort()
        .map((key) => [key, next[key] ?? null]),
    );
  });
  return real;
}

/** What loads for `workspace` (a real path) now. */
export function resourcePolicy(opts: {
  workspace: string;
  dataDir: string;
  /** The workspace's `resources` setting (false: nothing loads). */
  enabled: boolean;
  teamMode: boolean;
}): ResourcePolicy {
  if (!opts.enabled) {
    return {
      enabled: false,
      projectTrusted: false,
      parents: false,
      disabledReason:
        'Context files, skills and prompt templates are switched off for this workspace (resources: false in the config).',
    };
  }
  let decision: boolean | null;
  try {
    decision = trustDecision(opts.dataDir, opts.workspace);
  } catch (error) {
    // A broken trust file trusts nothing: the safe reading, said where the page shows it.
    return {
      enabled: true,
      projectTrusted: false,
      parents: false,
      untrustedReason: `The workspace's own resources are not loaded: ${(error as Error).message}`,
    };
  }
  const trusted = opts.teamMode ? decision === true : decision !== false;
  return {
    enabled: true,
    projectTrusted: trusted,
    // Above the workspace is the operator's, which members may not read (decision 085).
    parents: !opts.teamMode,
    ...(trusted
      ? {}
      : {
          untrustedReason: opts.teamMode
            ? `The workspace's own context files, skills and prompt templates are not loaded: an admin has not trusted this workspace (arbor workspace trust ${opts.workspace}).`
            : `The workspace's own context files, skills and prompt templates are not loaded: ${path.join(opts.dataDir, TRUST_FILE)} marks it untrusted (arbor workspace trust ${opts.workspace}).`,
        }),
  };
}

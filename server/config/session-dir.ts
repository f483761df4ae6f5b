import fs from 'node:fs';
import path from 'node:path';
import { expandHome } from './data-dir.js';
import { JsonFileError, readJsonFile } from './json-file.js';
import type { Workspace } from './workspaces.js';

/*
 * The relocated session folder (pi's `sessionDir`, docs/decisions/071-session-folder-and-console.md).
 * Arbor's own settings come first, strongest first: `--session-dir`, `ARBOR_SESSION_DIR`, the
 * config file's `sessionDir`; then pi's, in pi's order: `PI_CODING_AGENT_SESSION_DIR`, then
 * `sessionDir` in `<dataDir>/settings.json` (pi's global settings when the data folder is pi's
 * agent folder). A workspace's own `.pi/settings.json` is never followed: the agent's tools can
 * write it.
 */

export interface SessionDirSetting {
  /** The relocated folder, absolute; undefined: pi's layout under the data folder. */
  dir: string | undefined;
  /** Where it came from, for messages. */
  source: string;
}

export interface SessionDirInputs {
  flag?: string | undefined;
  env: Record<string, string | undefined>;
  /** The config file's `sessionDir`, and the file's path. */
  configValue?: string | undefined;
  configFile: string;
  dataDir: string;
  cwd: string;
  home: string;
}

export class SessionDirError extends Error {
  override name = 'SessionDirError';
}

function given(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** `<dataDir>/settings.json`'s `sessionDir`, as pi reads it (an empty one means none). */
function piSettingsSessionDir(file: string): string | undefined {
  let json: unknown;
  try {
    json = readJsonFile(file);
  } catch (error) {
    if (!(error instanceof JsonFileError)) throw error;
    throw new SessionDirError(
      `Cannot read pi's settings ${file} (${error.detail}), which may name the session folder ` +
        '(sessionDir). Fix the file, or name the folder with --session-dir.',
    );
  }
  if (json === undefined) return undefined;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new SessionDirError(`pi's settings ${file} must hold a JSON object.`);
  }
  const value = (json as { sessionDir?: unknown }).sessionDir;
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') {
    throw new SessionDirError(`sessionDir in ${file} must be a folder's path (a string).`);
  }
  return value;
}

/** Which session folder applies, resolved; throws SessionDirError with a message to act on. */
export function resolveSessionDir(inputs: SessionDirInputs): SessionDirSetting {
  const { env, cwd, home } = inputs;
  const named: [string | undefined, string][] = [
    [given(inputs.flag), '--session-dir'],
    [given(env.ARBOR_SESSION_DIR), 'ARBOR_SESSION_DIR'],
    [given(inputs.configValue), `sessionDir in ${inputs.configFile}`],
    [given(env.PI_CODING_AGENT_SESSION_DIR), 'PI_CODING_AGENT_SESSION_DIR'],
  ];
  let chosen = named.find(([value]) => value !== undefined);
  if (!chosen) {
    const settingsFile = path.join(inputs.dataDir, 'settings.json');
    const value = piSettingsSessionDir(settingsFile);
    if (value === undefined) return { dir: undefined, source: 'the default' };
    const expanded = expandHome(value.trim(), home);
    if (!path.isAbsolute(expanded)) {
      throw new SessionDirError(
        `sessionDir "${value}" in ${settingsFile} is a relative path: pi keeps the sessions in that ` +
          "folder inside each working directory, where the agent's tools could rewrite them, and " +
          'Arbor does not. Give an absolute path (or ~/...) there, or name a folder with --session-dir.',
      );
    }
    chosen = [expanded, `sessionDir in ${settingsFile}`];
  }
  const [value, source] = chosen as [string, string];
  const dir = path.resolve(cwd, expandHome(value.trim(), home));
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) {
    throw new SessionDirError(`The session folder ${dir} (from ${source}) is not a folder.`);
  }
  return { dir, source };
}

/**
 * Warnings for the workspaces whose own `.pi/settings.json` names a session folder, which Arbor
 * does not follow (the agent's tools can write that file, so a model could move where sessions
 * are kept, into the data folder or another workspace); pi in that folder would follow it.
 */
export function workspaceSessionDirWarnings(
  workspaces: Pick<Workspace, 'path'>[],
  used: SessionDirSetting,
): string[] {
  const warnings: string[] = [];
  for (const workspace of workspaces) {
    const file = path.join(workspace.path, '.pi', 'settings.json');
    let value: unknown;
    try {
      value = (readJsonFile(file) as { sessionDir?: unknown } | undefined)?.sessionDir;
    } catch {
      continue; // unreadable: not followed either way
    }
    if (typeof value !== 'string' || value.trim() === '') continue;
    const where =
      used.dir === undefined ? "in the data folder's sessions/" : `in ${used.dir} (${used.source})`;
    warnings.push(
      `${file} sets sessionDir "${value}"; Arbor does not follow a workspace's own settings, which ` +
        `the agent's tools can change. This workspace's sessions stay ${where}. To move them, set ` +
        "sessionDir in the data folder's settings.json, or use --session-dir.",
    );
  }
  return warnings;
}

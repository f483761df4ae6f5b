import path from 'node:path';

/**
 * Where pi keeps the sessions of one working directory: `<dataDir>/sessions/--<cwd>--`, with one
 * leading separator stripped and every `/`, `\` and `:` turned into `-`. Pointing `dataDir` at
 * `~/.pi/agent` therefore shows the sessions pi made in the terminal. Pure: creates nothing.
 */
export function sessionDirFor(dataDir: string, cwd: string): string {
  const safe = `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
  return path.join(dataDir, 'sessions', safe);
}

/**
 * Where Arbor keeps sessions: pi's layout under the data folder, or one relocated folder (pi's
 * `sessionDir` setting) that every working directory shares.
 */
export interface SessionLayout {
  dataDir: string;
  /** The relocated folder, absolute; absent for pi's layout. */
  sessionDir?: string | undefined;
}

/** The folder of one working directory's sessions, and whether others keep theirs there too. */
export interface SessionFolder {
  dir: string;
  /**
   * True when the folder is shared: only the files whose header `cwd` is this working directory
   * are its sessions (as pi lists, finds and continues them).
   */
  shared: boolean;
}

/**
 * The one rule for where the sessions of `cwd` live. As pi: a relocated folder holds every working
 * directory's sessions, unless it is that directory's own default folder.
 */
export function sessionFolderFor(layout: SessionLayout, cwd: string): SessionFolder {
  const own = sessionDirFor(layout.dataDir, cwd);
  if (layout.sessionDir === undefined) return { dir: own, shared: false };
  const dir = path.resolve(layout.sessionDir);
  return { dir, shared: dir !== own };
}

/** pi's file name for a session: the header's ISO timestamp with `:` and `.` made `-`, then the id. */
export function sessionFileName(timestamp: string, sessionId: string): string {
  return `${timestamp.replace(/[:.]/g, '-')}_${sessionId}.jsonl`;
}

/** Files that belong to a session file and must never be listed or opened as sessions. */
export function lockFileFor(file: string): string {
  return `${file}.lock`;
}
export function migratingFileFor(file: string): string {
  return `${file}.migrating`;
}
export function backupFileFor(file: string, version: number): string {
  return `${file}.v${version}.bak`;
}

/**
 * Resolves `dir` and refuses anything that is not an absolute directory path, so that a fork or
 * clone target given by a client cannot land in a relative, surprising place.
 */
export function resolveTargetDir(dir: string): string {
  if (!path.isAbsolute(dir)) throw new Error(`Session directory must be an absolute path: ${dir}`);
  return path.resolve(dir);
}

import fs from 'node:fs';
import path from 'node:path';
import { sessionDirFor } from '../store/session-paths.js';
import type { Workspace } from '../config/workspaces.js';

/*
 * Finds a session's file from its id, only inside the configured workspaces' session folders.
 * Clients name sessions by UUID; a path never reaches the file system from here. pi names a
 * session file `<timestamp>_<id>.jsonl`, so a folder listing is enough to find one.
 */

export interface SessionLocation {
  file: string;
  workspace: Workspace;
}

const RESCAN_INTERVAL_MS = 1000;

export class SessionLocator {
  private readonly known = new Map<string, SessionLocation>();
  private lastScan = -Infinity;

  constructor(
    private readonly dataDir: string,
    readonly workspaces: Workspace[],
  ) {}

  sessionDir(workspace: Workspace): string {
    return sessionDirFor(this.dataDir, workspace.path);
  }

  workspace(id: string): Workspace | undefined {
    return this.workspaces.find((workspace) => workspace.id === id);
  }

  /**
   * The session's file and workspace, or undefined. Unknown ids rescan the folders at most once a
   * second, so guessing ids cannot turn into a stream of directory reads.
   */
  locate(sessionId: string): SessionLocation | undefined {
    const cached = this.known.get(sessionId);
    if (cached && fs.existsSync(cached.file)) return cached;
    if (cached) this.known.delete(sessionId);
    const now = performance.now();
    if (now - this.lastScan < RESCAN_INTERVAL_MS) return undefined;
    this.lastScan = now;
    this.scan();
    return this.known.get(sessionId);
  }

  /** Records a session the server just wrote (created, forked, cloned, imported). */
  register(sessionId: string, file: string, workspace: Workspace): void {
    this.known.set(sessionId, { file, workspace });
  }

  forget(sessionId: string): void {
    this.known.delete(sessionId);
  }

  private scan(): void {
    for (const workspace of this.workspaces) {
      const dir = this.sessionDir(workspace);
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        const id = sessionIdFromFileName(name);
        if (id && !this.known.has(id))
          this.known.set(id, { file: path.join(dir, name), workspace });
      }
    }
  }
}

/** The session id in a pi session file name (`…_<id>.jsonl`), if it has one. */
export function sessionIdFromFileName(file: string): string | undefined {
  return /_([0-9A-Za-z-]+)\.jsonl$/.exec(path.basename(file))?.[1];
}

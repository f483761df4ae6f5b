import fs from 'node:fs';
import path from 'node:path';
import { sessionIdOfFile } from '../store/session-header-id.js';
import { sessionDirFor } from '../store/session-paths.js';
import type { Workspace } from '../config/workspaces.js';

/*
 * Finds a session's file from its id, only inside the configured workspaces' session folders.
 * Clients name sessions by id; a path never reaches the file system from here. The id is the one
 * in the file's header, as pi reads it (a custom id such as `my.id_1` cannot be told from the file
 * name); each file's header is read once and remembered while the file stays the same file.
 */

export interface SessionLocation {
  file: string;
  workspace: Workspace;
}

const RESCAN_INTERVAL_MS = 1000;

export class SessionLocator {
  private readonly known = new Map<string, SessionLocation>();
  /** Header ids of the files seen, by path, with the inode they were read from. */
  private readonly headerIds = new Map<string, { ino: number; id: string | undefined }>();
  private lastScan = -Infinity;
  private lastFolders: string | undefined;

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
   * The session's file and workspace, or undefined. An unknown id rescans the folders when one of
   * them changed since the last scan (a file was added or renamed: pi just wrote a session), else
   * at most once a second, so guessing ids cannot turn into a stream of directory reads.
   */
  locate(sessionId: string): SessionLocation | undefined {
    const cached = this.known.get(sessionId);
    if (cached && fs.existsSync(cached.file)) return cached;
    if (cached) this.known.delete(sessionId);
    const now = performance.now();
    const folders = this.foldersSignature();
    if (folders === this.lastFolders && now - this.lastScan < RESCAN_INTERVAL_MS) return undefined;
    this.lastScan = now;
    this.lastFolders = folders;
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

  /** The session folders' modification times: a new or renamed file changes its folder's. */
  private foldersSignature(): string {
    return this.workspaces
      .map((workspace) => {
        try {
          return String(fs.statSync(this.sessionDir(workspace)).mtimeMs);
        } catch {
          return '-';
        }
      })
      .join(',');
  }

  private scan(): void {
    const seen = new Set<string>();
    for (const workspace of this.workspaces) {
      const dir = this.sessionDir(workspace);
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        if (!name.endsWith('.jsonl')) continue;
        const file = path.join(dir, name);
        seen.add(file);
        const id = this.headerIdOf(file);
        if (id && !this.known.has(id)) this.known.set(id, { file, workspace });
      }
    }
    for (const file of this.headerIds.keys()) if (!seen.has(file)) this.headerIds.delete(file);
  }

  private headerIdOf(file: string): string | undefined {
    let ino: number;
    try {
      ino = fs.statSync(file).ino;
    } catch {
      return undefined;
    }
    const cached = this.headerIds.get(file);
    if (cached && cached.ino === ino && cached.id !== undefined) return cached.id;
    const id = sessionIdOfFile(file);
    this.headerIds.set(file, { ino, id });
    return id;
  }
}

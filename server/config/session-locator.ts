import fs from 'node:fs';
import path from 'node:path';
import { sessionHeaderFactsOf, sessionIdOfFile } from '../store/session-header-id.js';
import { listSessions, type SessionInfo } from '../store/session-listing.js';
import { sessionFolderFor, type SessionFolder } from '../store/session-paths.js';
import type { Workspace } from './workspaces.js';

/*
 * Finds a session's file from its id, only inside the configured workspaces' session folders.
 * Clients name sessions by id; a path never reaches the file system from here. The id is the one
 * in the file's header, as pi reads it (a custom id such as `my.id_1` cannot be told from the file
 * name); each file's header is read once and remembered while the file stays the same file.
 *
 * Every session folder comes from `sessionFolderFor`: pi's own folder per workspace, or one
 * relocated folder (pi's `sessionDir`) that all share, where a file belongs to the workspace its
 * header's `cwd` names, as pi lists, finds and continues them (decision 071).
 */

export interface SessionLocation {
  file: string;
  workspace: Workspace;
}

interface HeaderFacts {
  ino: number;
  id: string | undefined;
  /** Read only for files of a shared folder. */
  cwd?: string | undefined;
}

const RESCAN_INTERVAL_MS = 1000;

export class SessionLocator {
  private readonly known = new Map<string, SessionLocation>();
  /** Ids of the sessions of other working directories in a shared folder, seen at the last scan. */
  private readonly foreignIds = new Set<string>();
  /** Header facts of the files seen, by path, with the inode they were read from. */
  private readonly headers = new Map<string, HeaderFacts>();
  private lastScan = -Infinity;
  private lastFolders: string | undefined;

  constructor(
    private readonly dataDir: string,
    readonly workspaces: Workspace[],
    /** The relocated session folder that every workspace shares; undefined: pi's layout. */
    private readonly relocatedDir?: string,
  ) {}

  /** Where the workspace's sessions are, and whether other working directories share it. */
  folder(workspace: Workspace): SessionFolder {
    return sessionFolderFor(
      { dataDir: this.dataDir, sessionDir: this.relocatedDir },
      workspace.path,
    );
  }

  /** The folder new sessions of the workspace are written to (created, forked, cloned, imported). */
  sessionDir(workspace: Workspace): string {
    return this.folder(workspace).dir;
  }

  workspace(id: string): Workspace | undefined {
    return this.workspaces.find((workspace) => workspace.id === id);
  }

  /** The workspace's sessions, newest first: in a shared folder only those whose header names it. */
  async list(workspace: Workspace): Promise<SessionInfo[]> {
    const folder = this.folder(workspace);
    const infos = await listSessions(folder.dir);
    if (!folder.shared) return infos;
    const matches = cwdMatcher();
    return infos.filter((info) => matches(info.cwd, workspace));
  }

  /**
   * Whether the file in the workspace's folder is one of its sessions: always in its own folder;
   * in a shared one, when the header's cwd names the workspace. Answers the header's cwd when not.
   */
  belongsTo(file: string, workspace: Workspace): { belongs: boolean; cwd?: string | undefined } {
    if (!this.folder(workspace).shared) return { belongs: true };
    const cwd = sessionHeaderFactsOf(file)?.cwd;
    return { belongs: cwdMatcher()(cwd, workspace), cwd };
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
    this.rescanIfDue();
    return this.known.get(sessionId);
  }

  /**
   * Whether any session file in the session folders has this id, those of other working
   * directories in a shared folder included (an import or a restore must not take their id).
   */
  idInSessionFolders(sessionId: string): boolean {
    if (this.locate(sessionId)) return true;
    return this.foreignIds.has(sessionId);
  }

  /** Records a session the server just wrote (created, forked, cloned, imported). */
  register(sessionId: string, file: string, workspace: Workspace): void {
    this.known.set(sessionId, { file, workspace });
  }

  forget(sessionId: string): void {
    this.known.delete(sessionId);
  }

  private rescanIfDue(): void {
    const now = performance.now();
    const folders = this.foldersSignature();
    if (folders === this.lastFolders && now - this.lastScan < RESCAN_INTERVAL_MS) return;
    this.lastScan = now;
    this.lastFolders = folders;
    this.scan();
  }

  /** The session folders' modification times: a new or renamed file changes its folder's. */
  private foldersSignature(): string {
    return this.folders()
      .map(({ dir }) => {
        try {
          return String(fs.statSync(dir).mtimeMs);
        } catch {
          return '-';
        }
      })
      .join(',');
  }

  /** Each distinct folder once, with the workspaces whose sessions it holds. */
  private folders(): { dir: string; shared: boolean; workspaces: Workspace[] }[] {
    const byDir = new Map<string, { dir: string; shared: boolean; workspaces: Workspace[] }>();
    for (const workspace of this.workspaces) {
      const { dir, shared } = this.folder(workspace);
      const entry = byDir.get(dir) ?? { dir, shared, workspaces: [] };
      // A relocated folder that is also one workspace's own default is shared all the same.
      entry.shared ||= shared;
      entry.workspaces.push(workspace);
      byDir.set(dir, entry);
    }
    return [...byDir.values()];
  }

  private scan(): void {
    const seen = new Set<string>();
    this.foreignIds.clear();
    const matches = cwdMatcher();
    for (const folder of this.folders()) {
      let names: string[];
      try {
        names = fs.readdirSync(folder.dir);
      } catch {
        continue;
      }
      for (const name of names) {
        if (!name.endsWith('.jsonl')) continue;
        const file = path.join(folder.dir, name);
        seen.add(file);
        const facts = this.headerOf(file, folder.shared);
        if (!facts?.id) continue;
        const workspace = folder.shared
          ? folder.workspaces.find((w) => matches(facts.cwd, w))
          : folder.workspaces[0];
        if (!workspace) this.foreignIds.add(facts.id);
        else if (!this.known.has(facts.id)) this.known.set(facts.id, { file, workspace });
      }
    }
    for (const file of this.headers.keys()) if (!seen.has(file)) this.headers.delete(file);
  }

  private headerOf(file: string, withCwd: boolean): HeaderFacts | undefined {
    let ino: number;
    try {
      ino = fs.statSync(file).ino;
    } catch {
      return undefined;
    }
    const cached = this.headers.get(file);
    if (cached && cached.ino === ino && cached.id !== undefined && (!withCwd || 'cwd' in cached)) {
      return cached;
    }
    let facts: HeaderFacts;
    if (withCwd) {
      const header = sessionHeaderFactsOf(file);
      facts = { ino, id: header?.id, cwd: header?.cwd };
    } else {
      facts = { ino, id: sessionIdOfFile(file) };
    }
    this.headers.set(file, facts);
    return facts;
  }
}

/**
 * pi's test of whether a session's header `cwd` is a workspace (a non-empty path that resolves to
 * it), with symlinks resolved as well, since a workspace is configured by its real path. Real paths
 * are remembered for the life of the matcher (one listing or scan).
 */
function cwdMatcher(): (cwd: string | undefined, workspace: Workspace) => boolean {
  const realPaths = new Map<string, string | undefined>();
  return (cwd, workspace) => {
    if (cwd === undefined || cwd === '') return false;
    const resolved = path.resolve(cwd);
    if (resolved === workspace.path) return true;
    if (!realPaths.has(resolved)) {
      let real: string | undefined;
      try {
        real = fs.realpathSync(resolved);
      } catch {
        real = undefined;
      }
      realPaths.set(resolved, real);
    }
    return realPaths.get(resolved) === workspace.path;
  };
}

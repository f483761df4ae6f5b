import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { git, type GitCall } from './git-runner.js';

/*
 * A workspace's files recorded as git trees in a shadow repository of Arbor's own
 * (`<dataDir>/snapshots/<workspace key>.git`), never the workspace's own `.git`: git runs with
 * `GIT_DIR` on the shadow and `GIT_WORK_TREE` on the workspace (as opencode and Cline do), and
 * each session stages through an index file of its own, so sessions (and servers on one data
 * folder) never wait on one index lock. Every snapshot is a commit with a ref under
 * `refs/arbor/sessions/<session>/`, so `git gc` never drops one a session still names.
 *
 * The workspace's `.gitignore` files are honoured, its own `.git` is never read as content, and a
 * file over the size cap is left out and named, so one huge file cannot stall a turn.
 */

export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface Snapshot {
  /** The commit that holds the tree, named by the session's ref. */
  commit: string;
  tree: string;
  /** Files left out for their size (workspace-relative paths). */
  skipped: string[];
}

export type ChangeKind = 'added' | 'modified' | 'deleted';

export interface FileChange {
  path: string;
  kind: ChangeKind;
  /** Lines added and removed; null for a binary file. */
  added: number | null;
  removed: number | null;
}

export interface ShadowRepoOptions {
  dataDir: string;
  workspace: string;
  maxFileBytes?: number;
}

/** The shadow repository's folder for a workspace: a key of its real path. */
export function shadowDirOf(dataDir: string, workspace: string): string {
  const key = createHash('sha256').update(fs.realpathSync(workspace)).digest('hex').slice(0, 24);
  return path.join(dataDir, 'snapshots', `${key}.git`);
}

const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

export class ShadowRepo {
  private constructor(
    readonly gitDir: string,
    readonly workspace: string,
    private readonly maxFileBytes: number,
  ) {}

  /** The workspace's shadow repository, made on first use. */
  static async open(opts: ShadowRepoOptions): Promise<ShadowRepo> {
    const workspace = fs.realpathSync(opts.workspace);
    const gitDir = shadowDirOf(opts.dataDir, workspace);
    const repo = new ShadowRepo(gitDir, workspace, opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
    if (!fs.existsSync(path.join(gitDir, 'HEAD'))) {
      await fs.promises.mkdir(path.dirname(gitDir), { recursive: true, mode: 0o700 });
      await git(['init', '--quiet', '--bare', gitDir], { gitDir });
    }
    return repo;
  }

  /** Records the workspace's files now, staged through `sessionId`'s own index. */
  async snapshot(sessionId: string): Promise<Snapshot> {
    if (!SESSION_ID.test(sessionId)) throw new Error(`Not a session id: ${sessionId}`);
    const call = this.call(sessionId);
    // Files new or changed since this index last saw them: only those can be over the cap anew.
    const candidates = (
      await git(['ls-files', '-z', '--others', '--modified', '--exclude-standard'], call)
    )
      .split('\0')
      .filter(Boolean);
    const skipped: string[] = [];
    for (const file of candidates) {
      const stat = await fs.promises.lstat(path.join(this.workspace, file)).catch(() => null);
      if (stat?.isFile() && stat.size > this.maxFileBytes) skipped.push(file);
    }
    const excludes = skipped.map((file) => `:(exclude,literal)${file}`).join('\0');
    await git(['add', '--all', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      ...call,
      input: `:(literal).${excludes ? `\0${excludes}` : ''}`,
    });
    // A skipped file recorded by an earlier snapshot stays as it was then: drop it from this one.
    if (skipped.length > 0)
      await git(
        [
          'rm',
          '--cached',
          '--quiet',
          '--ignore-unmatch',
          '--pathspec-from-file=-',
          '--pathspec-file-nul',
        ],
        {
          ...call,
          input: skipped.map((file) => `:(literal)${file}`).join('\0'),
        },
      );
    const tree = (await git(['write-tree'], call)).trim();
    const commit = (
      await git(['commit-tree', tree, '-m', `snapshot of session ${sessionId}`], call)
    ).trim();
    await git(['update-ref', `refs/arbor/sessions/${sessionId}/${commit}`, commit], call);
    return { commit, tree, skipped };
  }

  /** What changed from one snapshot's files to another's (`from` null: from nothing). */
  async changes(from: string | null, to: string): Promise<FileChange[]> {
    const call = { gitDir: this.gitDir };
    const base =
      from ?? (await git(['hash-object', '-t', 'tree', '--stdin'], { ...call, input: '' })).trim();
    const args = ['diff-tree', '-r', '-z', '--no-renames', base, to];
    const [status, counts] = await Promise.all([
      git([...args, '--name-status'], call),
      git([...args, '--numstat'], call),
    ]);
    const kinds = new Map<string, ChangeKind>();
    const fields = status.split('\0');
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const letter = fields[i]!;
      kinds.set(fields[i + 1]!, letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified');
    }
    const changes: FileChange[] = [];
    for (const record of counts.split('\0').filter(Boolean)) {
      const [added, removed, ...rest] = record.split('\t');
      const file = rest.join('\t');
      changes.push({
        path: file,
        kind: kinds.get(file) ?? 'modified',
        added: added === '-' ? null : Number(added),
        removed: removed === '-' ? null : Number(removed),
      });
    }
    return changes;
  }

  /** The snapshots a session's refs keep, by commit. */
  async sessionSnapshots(sessionId: string): Promise<string[]> {
    const out = await git(
      ['for-each-ref', '--format=%(objectname)', `refs/arbor/sessions/${sessionId}/`],
      { gitDir: this.gitDir },
    );
    return out.split('\n').filter(Boolean);
  }

  /** Lets go of a session's snapshots (its file left the trash for good); git may then prune them. */
  async forgetSession(sessionId: string): Promise<void> {
    if (!SESSION_ID.test(sessionId)) return;
    for (const commit of await this.sessionSnapshots(sessionId))
      await git(['update-ref', '-d', `refs/arbor/sessions/${sessionId}/${commit}`], {
        gitDir: this.gitDir,
      });
    await fs.promises.rm(this.indexOf(sessionId), { force: true });
  }

  private indexOf(sessionId: string): string {
    return path.join(this.gitDir, 'arbor-index', sessionId);
  }

  private call(sessionId: string): GitCall {
    fs.mkdirSync(path.join(this.gitDir, 'arbor-index'), { recursive: true });
    return { gitDir: this.gitDir, workTree: this.workspace, indexFile: this.indexOf(sessionId) };
  }
}

import type { ToolResultMessage } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import type { SessionStore } from '../store/session-store.js';
import { ShadowRepo, type ShadowRepoOptions, type Snapshot } from '../snapshots/shadow-repo.js';

/*
 * Snapshots of the workspace's files recorded in the session, per turn (decision 121): one before
 * a prompt runs, appended before its user message (so the files at a prompt are those it saw),
 * and one after every tool batch that may have changed files. Each is a `custom` entry pi keeps
 * and leaves out of the context, holding the shadow repository's commit and tree; one whose tree
 * equals the latest on the path is not recorded again. A failing snapshot never stops a run: it is
 * logged once and the turn goes on.
 */

export const SNAPSHOT_TYPE = 'arbor.snapshot';

/** The tools whose calls may change the workspace's files. */
const WRITING_TOOLS = new Set(['write', 'edit', 'bash']);

export interface SnapshotData {
  commit: string;
  tree: string;
  /** Files left out for their size. */
  skipped?: string[];
}

export interface SnapshotLog {
  warn(details: object, message: string): void;
}

export class TurnSnapshots {
  private repo: Promise<ShadowRepo> | undefined;
  private failed = false;

  constructor(
    private readonly store: SessionStore,
    private readonly options: ShadowRepoOptions,
    private readonly log: SnapshotLog,
  ) {}

  /** Before a prompt's user message is recorded. */
  beforePrompt(): Promise<void> {
    return this.record();
  }

  /** After a tool batch: a snapshot when one of its tools may have written. */
  async afterTools(results: readonly ToolResultMessage[]): Promise<void> {
    if (results.some((result) => WRITING_TOOLS.has(result.toolName))) await this.record();
  }

  private async record(): Promise<void> {
    let snapshot: Snapshot;
    try {
      this.repo ??= ShadowRepo.open(this.options);
      snapshot = await (await this.repo).snapshot(this.store.header.id);
    } catch (error) {
      this.repo = undefined;
      if (!this.failed)
        this.log.warn({ err: error }, 'workspace snapshots are off for this session');
      this.failed = true;
      return;
    }
    if (snapshot.tree === this.latestTree()) return;
    const data: SnapshotData = { commit: snapshot.commit, tree: snapshot.tree };
    if (snapshot.skipped.length > 0) data.skipped = snapshot.skipped;
    try {
      this.store.appendCustomEntry(SNAPSHOT_TYPE, data);
    } catch (error) {
      // The run's own next append meets the same trouble and reports it.
      this.log.warn({ err: error }, 'a workspace snapshot could not be recorded');
    }
  }

  /** The tree of the latest snapshot on the active path, if any (walked on the skeleton). */
  private latestTree(): string | undefined {
    for (let id = this.store.getLeafId(); id !== null;) {
      const node = this.store.getNode(id);
      if (!node) return undefined;
      // A custom entry's skeleton names its type in its preview (tree-node.ts).
      if (node.type === 'custom' && (node.customType ?? node.preview) === SNAPSHOT_TYPE) {
        const entry = this.store.getEntry(id);
        return entry?.type === 'custom'
          ? (entry.data as SnapshotData | undefined)?.tree
          : undefined;
      }
      id = node.parentId;
    }
    return undefined;
  }
}

/** The files before and after a stretch of a session's path, as two snapshots. */
export interface SnapshotSpan {
  /** The files before (null: nothing was recorded before). */
  from: SnapshotData | null;
  to: SnapshotData;
}

/**
 * What `arbor files` compares: with `entryId`, the turn at that entry, from the snapshot its
 * prompt saw to the latest at or before the entry; without, the whole path to the leaf, from the
 * first snapshot to the latest. Undefined when no snapshot lies at or before the point.
 */
export function snapshotSpan(
  branch: readonly SessionEntry[],
  entryId?: string,
): SnapshotSpan | undefined {
  const end = entryId === undefined ? branch.length - 1 : branch.findIndex((e) => e.id === entryId);
  const shots: { at: number; data: SnapshotData }[] = [];
  for (let i = 0; i <= end; i++) {
    const entry = branch[i]!;
    if (entry.type === 'custom' && entry.customType === SNAPSHOT_TYPE)
      shots.push({ at: i, data: entry.data as SnapshotData });
  }
  const to = shots.at(-1);
  if (!to) return undefined;
  if (entryId === undefined) return { from: shots.length > 1 ? shots[0]!.data : null, to: to.data };
  let prompt = end;
  while (prompt >= 0) {
    const entry = branch[prompt]!;
    if (entry.type === 'message' && entry.message.role === 'user') break;
    prompt--;
  }
  const before = shots.filter((shot) => shot.at < prompt).at(-1);
  return { from: before?.data ?? null, to: to.data };
}

import path from 'node:path';
import type { SessionChangeEvent } from '../../shared/agent-events.js';
import type { AgentMessage, UserContent } from '../../shared/messages.js';
import type {
  SessionContext,
  SessionEntry,
  SessionHeader,
  TreeNode,
} from '../../shared/session-entries.js';
import { BodyCache } from './body-cache.js';
import { contextAt } from './context-plan.js';
import type { ContextChange } from './context-edit-rule.js';
import { EntryChangeRefused, EntryNotFoundError } from './entry-errors.js';
import { buildEntry } from './entry-factory.js';
import { EntryLog } from './entry-log.js';
import type { FileLock } from './file-lock.js';
import { branchWithSummary, moveLeafTo, resetLeaf } from './leaf-moves.js';
import {
  appendCompaction,
  appendContextEdit,
  appendCustomEntry,
  appendMessage,
} from './message-appends.js';
import {
  emptyState,
  newFileState,
  openExisting,
  readSessionFile,
  releasingOnFailure,
} from './open-session-file.js';
import type { OpenMode, OpenOptions, StoreState } from './open-session-file.js';
import { newHeader, pathLines, userMessageText, writeBranchedFile } from './session-branching.js';
import { appendLabelChange, appendSessionInfo } from './session-labels.js';
import type { EntryRecord, SessionIndex } from './session-index.js';
import type { OpenReport } from './session-loader.js';
import { resolveTargetDir } from './session-paths.js';
import { WriteAccess } from './write-access.js';
import { mostRecentSessionFile } from './recent-session-file.js';

export type { OpenReport } from './session-loader.js';
export { NotASessionFileError } from './session-loader.js';

/*
 * A session tree kept in a pi-compatible JSONL file (pi-session-format.md; decisions 001–003).
 *
 * Memory holds the skeleton of every entry, the small bodies, and the bodies on the active path;
 * other bodies are read from the file by position when asked for. Every append is one line written
 * with one write(2) under the file's lock (entry-log.ts); `sync()` makes them durable. The rules
 * of the appends are in message-appends.ts and session-labels.ts, those of leaf moves in
 * leaf-moves.ts, the context in context-plan.ts.
 *
 * Change events, in order: `entry_appended` for every append (the new entry is the leaf from then
 * on), `label_changed` after a label entry, `session_info_changed` after a session_info entry,
 * `leaf_moved` for `branch`/`resetLeaf` only.
 */

export type { OpenOptions } from './open-session-file.js';

export class SessionStore {
  readonly file: string | undefined;
  readonly header: SessionHeader;
  readonly openReport: OpenReport;
  private readonly index: SessionIndex;
  private readonly bodies: BodyCache;
  /** Whether and when the file can be written (read-only, now, or on demand). */
  readonly access: WriteAccess;
  private readonly log: EntryLog;

  private constructor(state: StoreState) {
    this.file = state.file;
    this.header = state.header;
    this.openReport = state.report;
    this.index = state.index;
    this.bodies = new BodyCache(state.bodies, state.source, (record) => {
      // A line indexed from its first bytes turned out unreadable: report it now.
      this.openReport.badLines.push(record.line);
      this.openReport.problems.push({ line: record.line, reason: 'unreadable entry body' });
    });
    this.access = WriteAccess.of(state);
    this.log = new EntryLog(state.file, this.index, this.bodies, this.access, state.nextLine);
  }

  // ---------------------------------------------------------------- factories

  /** A new session file in `sessionDir`, its header written (fsynced with the first turn's sync). */
  static create(opts: { cwd: string; sessionDir: string; parentSession?: string }): SessionStore {
    return new SessionStore(newFileState(opts));
  }

  /**
   * Opens an existing session file: takes its lock, cuts a torn last line, migrates v1/v2 files
   * (the original is kept until the new one is complete). A file whose first line is not a session
   * header is refused and left untouched.
   */
  static open(file: string, options: OpenOptions = {}): SessionStore {
    return openExisting(file, options, (resolved, lock, mode) =>
      SessionStore.load(resolved, lock, mode),
    );
  }

  /** Opens a file for reading only: no lock taken, nothing on disk changed. */
  static openReadOnly(file: string): SessionStore {
    return SessionStore.open(file, { readOnly: true });
  }

  /** The most recently modified session in `sessionDir` (by file mtime, as pi), else a new one. */
  static continueRecent(cwd: string, sessionDir: string): SessionStore {
    const recent = mostRecentSessionFile(sessionDir);
    return recent ? SessionStore.open(recent) : SessionStore.create({ cwd, sessionDir });
  }

  /** A session without a file (tests, scratch runs). */
  static inMemory(cwd: string = process.cwd()): SessionStore {
    return new SessionStore(emptyState(undefined, newHeader(cwd)));
  }

  private static load(file: string, lock: FileLock | undefined, mode: OpenMode): SessionStore {
    const opened = readSessionFile(file, mode !== 'write');
    const store = new SessionStore({
      ...opened.state,
      lock,
      ...(mode === 'on demand' && opened.pending ? { pending: opened.pending } : {}),
      source: opened.source,
    });
    try {
      store.buildSessionContext();
    } catch (error) {
      opened.source.close();
      throw error;
    }
    store.bodies.source = opened.laterSource();
    return store;
  }

  /** Makes the file writable now (WriteAccess.ensure); every append and every writer calls it. */
  ensureWritable(): void {
    this.log.ensureWritable();
  }

  // ---------------------------------------------------------------- reading

  get sessionId(): string {
    return this.header.id;
  }

  get cwd(): string {
    return this.header.cwd ?? process.cwd();
  }

  /** The directory of the session file (where pi puts new sessions made from this one). */
  get sessionDir(): string | undefined {
    return this.file === undefined ? undefined : path.dirname(this.file);
  }

  getLeafId(): string | null {
    return this.log.leafId;
  }

  getNode(id: string): TreeNode | undefined {
    return this.index.getNode(id);
  }

  getTree(): Readonly<TreeNode>[] {
    return this.index.getTree();
  }

  getChildren(parentId: string | null): TreeNode[] {
    return this.index.getChildren(parentId);
  }

  getEntry(id: string): SessionEntry | undefined {
    const record = this.index.byId.get(id);
    return record ? this.bodies.get(record, false) : undefined;
  }

  /** Entries from a root to `fromId` (default: the leaf), leaf markers left out. */
  getBranch(fromId?: string | null): SessionEntry[] {
    const start = fromId === undefined ? this.log.leafId : fromId;
    const records = this.index.pathTo(start).filter((record) => !record.marker);
    return this.bodies.readAll(records);
  }

  /**
   * Every entry in file order (leaf markers left out), read in batches and not kept in memory:
   * for a fold over the whole session (its statistics).
   */
  forEachEntry(visit: (entry: SessionEntry) => void): void {
    const records = this.index.order
      .map((id) => this.index.byId.get(id))
      .filter((record): record is EntryRecord => record !== undefined && !record.marker);
    for (let i = 0; i < records.length; i += 512)
      for (const entry of this.bodies.readAll(records.slice(i, i + 512))) visit(entry);
  }

  getLabel(id: string): string | undefined {
    return this.index.labels.get(id)?.label;
  }

  getSessionName(): string | undefined {
    return this.index.sessionName;
  }

  /**
   * pi's context for `leafId` (default: the leaf). `null` gives the empty context; an unknown id
   * falls back to the last entry of the file, as pi does.
   */
  buildSessionContext(leafId?: string | null): SessionContext {
    const target = leafId === undefined ? this.log.leafId : leafId;
    return contextAt(this.index, this.bodies, target, target === this.log.leafId);
  }

  // ---------------------------------------------------------------- appending

  /** Appends a message; custom-role messages become custom_message entries (as pi's agent does). */
  appendMessage(message: AgentMessage, author?: string): string {
    return appendMessage(this.log, message, author);
  }

  appendThinkingLevelChange(level: string): string {
    return this.log.append(buildEntry.thinkingLevelChange(this.log.base(), level));
  }

  appendModelChange(provider: string, modelId: string): string {
    return this.log.append(buildEntry.modelChange(this.log.base(), provider, modelId));
  }

  /** Appends a compaction, with pi 1.6's checkpoint of the context at the leaf. */
  appendCompaction(
    summary: string,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
  ): string {
    const fields = { summary, firstKeptEntryId, tokensBefore, details, fromHook };
    return appendCompaction(this.log, fields, this.buildSessionContext());
  }

  /** Appends a custom entry (pi's extension data); the leaf markers' type is refused. */
  appendCustomEntry(customType: string, data?: unknown): string {
    return appendCustomEntry(this.log, customType, data);
  }

  appendCustomMessageEntry(
    customType: string,
    content: UserContent,
    display: boolean,
    details?: unknown,
  ): string {
    return this.log.append(
      buildEntry.customMessage(this.log.base(), customType, content, display, details),
    );
  }

  /** Sets an entry's label, trimmed (blank or undefined: clears it); refuses an unknown id. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    return appendLabelChange(this.log, targetId, label);
  }

  /** Names the session as pi 1.6 writes names (sessionNameOf); refuses a name left empty. */
  appendSessionInfo(name: string): string {
    return appendSessionInfo(this.log, name);
  }

  /** Appends a pi 1.6 context_edit of `targetId` at the leaf (context-edit-rule.ts says which). */
  appendContextEdit(targetId: string, change: ContextChange): string {
    return appendContextEdit(this.log, targetId, change, this.getBranch());
  }

  // ---------------------------------------------------------------- moving the leaf

  /** Moves the leaf to `id`; persisted with a leaf marker (decision 001). */
  branch(id: string): void {
    moveLeafTo(this.log, id);
  }

  /** Moves the leaf before the first entry: the next append starts a new root. */
  resetLeaf(): void {
    resetLeaf(this.log);
  }

  /**
   * Moves the leaf to `branchFromId` (null: the root) and appends a branch_summary there, which
   * becomes the leaf (leaf-moves.ts).
   */
  branchWithSummary(
    branchFromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
  ): string {
    return branchWithSummary(this.log, branchFromId, summary, details, fromHook);
  }

  // ---------------------------------------------------------------- fork and clone

  /**
   * A new session holding the path up to the parent of user message `entryId` (pi's fork), with
   * `parentSession` set; `text` is the message's text for the editor. A root user message gives an
   * empty new session.
   */
  forkFrom(entryId: string, sessionDir: string): { store: SessionStore; text: string } {
    const entry = this.getEntry(entryId);
    if (!entry) throw new EntryNotFoundError(entryId);
    if (entry.type !== 'message' || entry.message.role !== 'user') {
      throw new EntryChangeRefused('Only a user message can be forked from.');
    }
    const text = userMessageText(entry.message.content);
    const dir = resolveTargetDir(sessionDir);
    const store =
      entry.parentId === null
        ? SessionStore.create({ cwd: this.cwd, sessionDir: dir, parentSession: this.file })
        : this.writeBranchedSession(entry.parentId, dir);
    return { store, text };
  }

  /** A new session holding the active path (pi's clone), with `parentSession` set. */
  cloneTo(sessionDir: string): SessionStore {
    resolveTargetDir(sessionDir);
    const leafId = this.log.leafId;
    if (leafId === null) {
      return SessionStore.create({ cwd: this.cwd, sessionDir, parentSession: this.file });
    }
    return this.writeBranchedSession(leafId, sessionDir);
  }

  private writeBranchedSession(leafId: string, sessionDir: string): SessionStore {
    const lines = pathLines(this.index.pathTo(leafId), this.bodies);
    const { file, lock } = writeBranchedFile(
      sessionDir,
      this.cwd,
      this.file,
      lines,
      this.index.labels,
    );
    return releasingOnFailure(lock, () => SessionStore.load(file, lock, 'write'));
  }

  // ---------------------------------------------------------------- lifecycle

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (change: SessionChangeEvent) => void): () => void {
    return this.log.onChange(listener);
  }

  /** Makes every append so far durable (fsync). */
  sync(): void {
    this.access.sync();
  }

  /** fsync, close the file, release the lock. Further appends throw. */
  close(): void {
    this.log.close();
  }
}

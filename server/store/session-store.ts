import fs from 'node:fs';
import path from 'node:path';
import type { SessionChangeEvent } from '../../shared/agent-events.js';
import { AgentMessageSchema, type AgentMessage, type UserContent } from '../../shared/messages.js';
import { currentSystemMessage } from '../../shared/system-prompt.js';
import type {
  SessionContext,
  SessionEntry,
  SessionHeader,
  TreeNode,
} from '../../shared/session-entries.js';
import { BodyCache, fileSource } from './body-cache.js';
import { planFromAncestry } from './context-plan.js';
import { replacementFor, type ContextChange } from './context-edit-rule.js';
import { EntryChangeRefused, EntryNotFoundError } from './entry-errors.js';
import { buildEntry, sessionNameOf, type EntryBase } from './entry-factory.js';
import { generateEntryId } from './entry-ids.js';
import { acquireLock, type FileLock } from './file-lock.js';
import { createSessionFile } from './new-session-file.js';
import { emptyState, openMode, readSessionFile } from './open-session-file.js';
import type { OpenMode, OpenOptions, StoreState } from './open-session-file.js';
import { newHeader, pathLines, userMessageText, writeBranchedFile } from './session-branching.js';
import { contextFromPlan, emptyContext } from './session-context.js';
import { LEAF_MARKER_TYPE, type EntryRecord, type SessionIndex } from './session-index.js';
import { serializeLine } from './session-lines.js';
import {
  applyBookkeeping,
  recordOfParsed,
  SMALL_LINE_BYTES,
  type OpenReport,
} from './session-loader.js';
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
 * with one write(2) under the file's lock; `sync()` makes them durable.
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
  private readonly listeners = new Set<(change: SessionChangeEvent) => void>();
  private leafId: string | null;
  private nextLine: number;
  private closed = false;

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
    this.nextLine = state.nextLine;
    this.leafId = this.index.leafOnOpen();
  }

  // ---------------------------------------------------------------- factories

  /** A new session file in `sessionDir`, its header written and fsynced at once. */
  static create(opts: { cwd: string; sessionDir: string; parentSession?: string }): SessionStore {
    const header = newHeader(opts.cwd, opts.parentSession);
    // Only a header: durable with the first turn's sync, so starting a session never waits on disk.
    const { file, lock, writer } = createSessionFile(
      opts.sessionDir,
      header,
      serializeLine(header),
      false,
    );
    return new SessionStore({
      ...emptyState(file, header),
      writer,
      source: fileSource(file),
      lock,
      nextLine: 2,
    });
  }

  /**
   * Opens an existing session file: takes its lock, cuts a torn last line, migrates v1/v2 files
   * (the original is kept until the new one is complete). A file whose first line is not a session
   * header is refused and left untouched.
   */
  static open(file: string, options: OpenOptions = {}): SessionStore {
    const resolved = path.resolve(file);
    if (!fs.existsSync(resolved)) throw new Error(`No such session file: ${resolved}`);
    const mode = openMode(resolved, options);
    if (mode !== 'write') return SessionStore.load(resolved, undefined, mode);
    const lock = acquireLock(resolved);
    try {
      return SessionStore.load(resolved, lock, 'write');
    } catch (error) {
      lock.release();
      throw error;
    }
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
    if (this.closed) throw new Error('The session is closed');
    // A migrated file now holds, at the same offsets, the bytes the skeleton was built from.
    if (this.access.ensure() && this.file) this.bodies.source = fileSource(this.file);
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
    return this.leafId;
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
    const start = fromId === undefined ? this.leafId : fromId;
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
    const target = leafId === undefined ? this.leafId : leafId;
    if (target === null) return emptyContext();
    const start = this.index.byId.has(target) ? target : (this.index.lastId ?? null);
    if (start === null) return emptyContext();
    const retain = target === this.leafId;
    const load = (record: EntryRecord) => this.bodies.get(record, retain);
    const plan = planFromAncestry(this.index, start, load);
    return contextFromPlan(plan, load, (records) => this.bodies.prefetch(records, retain));
  }

  // ---------------------------------------------------------------- appending

  /** Appends a message; custom-role messages become custom_message entries (as pi's agent does). */
  appendMessage(message: AgentMessage): string {
    const parsed = AgentMessageSchema.safeParse(message);
    if (!parsed.success) throw new Error(`Invalid message: ${parsed.error.message}`);
    if (message.role === 'custom') {
      return this.appendCustomMessageEntry(
        message.customType,
        message.content,
        message.display ?? false,
        message.details,
      );
    }
    if (
      message.role === 'branchSummary' ||
      message.role === 'compactionSummary' ||
      message.role === 'hookMessage'
    ) {
      throw new Error(
        `A ${message.role} message cannot be appended; use branchWithSummary or appendCompaction`,
      );
    }
    return this.appendEntry(buildEntry.message(this.base(), message));
  }

  appendThinkingLevelChange(level: string): string {
    return this.appendEntry(buildEntry.thinkingLevelChange(this.base(), level));
  }

  appendModelChange(provider: string, modelId: string): string {
    return this.appendEntry(buildEntry.modelChange(this.base(), provider, modelId));
  }

  appendCompaction(
    summary: string,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
  ): string {
    // pi 1.6's checkpoint: the prompt and tools the context replays to at the boundary.
    const checkpoint = currentSystemMessage(this.buildSessionContext().messages);
    const fields = { summary, firstKeptEntryId, tokensBefore, details, fromHook };
    return this.appendEntry(buildEntry.compaction(this.base(), fields, checkpoint));
  }

  appendCustomEntry(customType: string, data?: unknown): string {
    if (customType === LEAF_MARKER_TYPE) {
      throw new Error(`The custom type "${LEAF_MARKER_TYPE}" is reserved for leaf markers`);
    }
    return this.appendEntry(buildEntry.custom(this.base(), customType, data));
  }

  appendCustomMessageEntry(
    customType: string,
    content: UserContent,
    display: boolean,
    details?: unknown,
  ): string {
    return this.appendEntry(
      buildEntry.customMessage(this.base(), customType, content, display, details),
    );
  }

  /** Sets an entry's label, trimmed (blank or undefined: clears it); refuses an unknown id. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    const target = this.index.byId.get(targetId);
    if (!target || target.marker) throw new EntryNotFoundError(targetId);
    const trimmed = label?.trim() || undefined;
    const id = this.appendEntry(buildEntry.label(this.base(), targetId, trimmed));
    this.emit({ type: 'label_changed', targetId, label: trimmed });
    return id;
  }

  /** Names the session as pi 1.6 writes names (sessionNameOf); refuses a name left empty. */
  appendSessionInfo(name: string): string {
    if (!sessionNameOf(name)) throw new EntryChangeRefused('A session name cannot be empty.');
    const id = this.appendEntry(buildEntry.sessionInfo(this.base(), name));
    this.emit({ type: 'session_info_changed', name: this.index.sessionName });
    return id;
  }

  /** Appends a pi 1.6 context_edit of `targetId` at the leaf (context-edit-rule.ts says which). */
  appendContextEdit(targetId: string, change: ContextChange): string {
    const exists = this.index.byId.get(targetId)?.marker === false;
    const replacement = replacementFor(this.getBranch(), targetId, exists, change);
    return this.appendEntry(buildEntry.contextEdit(this.base(), targetId, replacement));
  }

  // ---------------------------------------------------------------- moving the leaf

  /** Moves the leaf to `id`; persisted with a leaf marker (decision 001). */
  branch(id: string): void {
    const record = this.index.byId.get(id);
    if (!record || record.marker) throw new Error(`Entry ${id} not found`);
    this.moveLeaf(id);
  }

  /** Moves the leaf before the first entry: the next append starts a new root. */
  resetLeaf(): void {
    this.moveLeaf(null);
  }

  /**
   * Moves the leaf to `branchFromId` (null: the root) and appends a branch_summary there, which
   * becomes the leaf. `fromId` in the entry is the leaf that was left, or "root" (pi 1.6's
   * `branchWithSummary`; pi 0.73 wrote the new parent).
   */
  branchWithSummary(
    branchFromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
  ): string {
    if (branchFromId !== null) {
      const record = this.index.byId.get(branchFromId);
      if (!record || record.marker) throw new Error(`Entry ${branchFromId} not found`);
    }
    this.ensureWritable();
    const left = this.leafId ?? 'root';
    this.leafId = branchFromId;
    this.bodies.releaseOffPath(this.index, this.leafId);
    return this.appendEntry(
      buildEntry.branchSummary(this.base(branchFromId), left, summary, details, fromHook),
    );
  }

  private moveLeaf(target: string | null): void {
    if (target === this.leafId) return;
    this.ensureWritable();
    if (this.access.appender) {
      const marker = buildEntry.custom(this.base(target), LEAF_MARKER_TYPE, { leafId: target });
      this.writeEntry(marker);
    }
    this.leafId = target;
    this.bodies.releaseOffPath(this.index, this.leafId);
    this.emit({ type: 'leaf_moved', leafId: target });
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
    if (this.leafId === null) {
      return SessionStore.create({ cwd: this.cwd, sessionDir, parentSession: this.file });
    }
    return this.writeBranchedSession(this.leafId, sessionDir);
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
    try {
      return SessionStore.load(file, lock, 'write');
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  // ---------------------------------------------------------------- lifecycle

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (change: SessionChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Makes every append so far durable (fsync). */
  sync(): void {
    this.access.sync();
  }

  /** fsync, close the file, release the lock. Further appends throw. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.access.close();
    } finally {
      this.bodies.close();
      this.listeners.clear();
    }
  }

  /** A new id, the parent (default: the leaf) and the time, for an entry about to be appended. */
  private base(parentId: string | null = this.leafId): EntryBase {
    return {
      id: generateEntryId(this.index.byId),
      parentId,
      timestamp: new Date().toISOString(),
    };
  }

  /** Writes and indexes an entry without touching the leaf or telling listeners. */
  private writeEntry(entry: SessionEntry): EntryRecord {
    this.ensureWritable();
    const text = serializeLine(entry);
    const writer = this.access.appender;
    const offset = writer ? writer.append(text) : -1;
    const length = writer ? Buffer.byteLength(text) - 1 : 0;
    const indexed = recordOfParsed({ kind: 'entry', entry }, this.nextLine, offset, length);
    if (writer) this.nextLine++;
    if (!indexed) throw new Error('unreachable: an entry always yields a record');
    this.index.add(indexed.record);
    applyBookkeeping(this.index, entry);
    // Small bookkeeping bodies stay for good; messages and large ones while on the active path.
    this.bodies.add(
      entry.id,
      entry,
      writer !== undefined && (length > SMALL_LINE_BYTES || entry.type === 'message'),
    );
    return indexed.record;
  }

  private appendEntry(entry: SessionEntry): string {
    const record = this.writeEntry(entry);
    this.leafId = entry.id;
    this.emit({ type: 'entry_appended', node: this.index.nodeOf(record) });
    return entry.id;
  }

  private emit(change: SessionChangeEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        process.emitWarning(`A session change listener threw: ${String(error)}`);
      }
    }
  }
}

import fs from 'node:fs';
import path from 'node:path';
import type { SessionChangeEvent } from '../../shared/agent-events.js';
import { AgentMessageSchema, type AgentMessage, type UserContent } from '../../shared/messages.js';
import type {
  BranchSummaryEntry,
  CompactionEntry,
  CustomEntry,
  CustomMessageEntry,
  LabelEntry,
  MessageEntry,
  ModelChangeEntry,
  SessionContext,
  SessionEntry,
  SessionHeader,
  SessionInfoEntry,
  ThinkingLevelChangeEntry,
  TreeNode,
} from '../../shared/session-entries.js';
import { generateEntryId } from './entry-ids.js';
import { acquireLock, type FileLock } from './file-lock.js';
import { branchedContent, newHeader, userMessageText, type PathLine } from './session-branching.js';
import {
  contextFromPlan,
  emitsMessage,
  planFromPath,
  type ContextPlan,
} from './session-context.js';
import { emptyContext } from './session-context.js';
import { LEAF_MARKER_TYPE, SessionIndex, type EntryRecord } from './session-index.js';
import { serializeLine } from './session-lines.js';
import {
  applyBookkeeping,
  emptyReport,
  loadSessionBytes,
  parseBody,
  recordOfParsed,
  SMALL_LINE_BYTES,
  type OpenReport,
} from './session-loader.js';
import { migrateContent, writeMigratedFile } from './session-migration.js';
import { resolveTargetDir, sessionFileName } from './session-paths.js';
import { fsyncDirectory, SessionWriter } from './session-writer.js';

export type { OpenReport } from './session-loader.js';
export { NotASessionFileError } from './session-loader.js';
export { SessionLockedError } from './file-lock.js';

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

export interface OpenOptions {
  /** No lock, no repair, no migration on disk (a v1/v2 file is migrated in memory only). */
  readOnly?: boolean;
}

/** Where bodies that are not in memory are read from. */
interface BodySource {
  read(offset: number, length: number): string;
  readBytes(offset: number, length: number): Buffer;
  close(): void;
}

function bufferSource(bytes: Buffer): BodySource {
  return {
    read: (offset, length) => bytes.toString('utf8', offset, offset + length),
    readBytes: (offset, length) => bytes.subarray(offset, offset + length),
    close() {},
  };
}

function fileSource(file: string): BodySource {
  const fd = fs.openSync(file, 'r');
  let open = true;
  const readBytes = (offset: number, length: number): Buffer => {
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = fs.readSync(fd, buffer, done, length - done, offset + done);
      if (n === 0) break;
      done += n;
    }
    return buffer.subarray(0, done);
  };
  return {
    read: (offset, length) => readBytes(offset, length).toString('utf8'),
    readBytes,
    close() {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}

interface StoreState {
  file: string | undefined;
  header: SessionHeader;
  report: OpenReport;
  index: SessionIndex;
  bodies: Map<string, SessionEntry>;
  readOnly: boolean;
  writer?: SessionWriter;
  source?: BodySource;
  lock?: FileLock;
  nextLine: number;
}

export class SessionStore {
  readonly file: string | undefined;
  readonly header: SessionHeader;
  readonly openReport: OpenReport;
  readonly readOnly: boolean;
  private readonly index: SessionIndex;
  private readonly bodies: Map<string, SessionEntry>;
  /** Large bodies held because they are on the active path. */
  private readonly retained = new Set<string>();
  /**
   * Bodies read recently but not on the active path, least recently used first, up to
   * RECENT_BODY_BYTES of line bytes: moving the leaf back and forth does not re-read them.
   */
  private readonly recent = new Map<string, { entry: SessionEntry; bytes: number }>();
  private recentBytes = 0;
  private readonly writer: SessionWriter | undefined;
  private source: BodySource | undefined;
  private readonly lock: FileLock | undefined;
  private readonly listeners = new Set<(change: SessionChangeEvent) => void>();
  private leafId: string | null;
  private nextLine: number;
  private closed = false;

  private constructor(state: StoreState) {
    this.file = state.file;
    this.header = state.header;
    this.openReport = state.report;
    this.readOnly = state.readOnly;
    this.index = state.index;
    this.bodies = state.bodies;
    this.writer = state.writer;
    this.source = state.source;
    this.lock = state.lock;
    this.nextLine = state.nextLine;
    this.leafId = this.leafOnOpen();
  }

  // ---------------------------------------------------------------- factories

  /** A new session file in `sessionDir`, its header written and fsynced at once. */
  static create(opts: { cwd: string; sessionDir: string; parentSession?: string }): SessionStore {
    const dir = path.resolve(opts.sessionDir);
    fs.mkdirSync(dir, { recursive: true });
    const header = newHeader(opts.cwd, opts.parentSession);
    const file = path.join(dir, sessionFileName(header.timestamp, header.id));
    const lock = acquireLock(file);
    try {
      const writer = SessionWriter.create(file, serializeLine(header));
      fsyncDirectory(dir);
      return new SessionStore({
        file,
        header,
        report: emptyReport(),
        index: finalized(new SessionIndex()),
        bodies: new Map(),
        readOnly: false,
        writer,
        source: fileSource(file),
        lock,
        nextLine: 2,
      });
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /**
   * Opens an existing session file: takes its lock, cuts a torn last line, migrates v1/v2 files
   * (the original is kept until the new one is complete). A file whose first line is not a session
   * header is refused and left untouched.
   */
  static open(file: string, options: OpenOptions = {}): SessionStore {
    const resolved = path.resolve(file);
    if (!fs.existsSync(resolved)) throw new Error(`No such session file: ${resolved}`);
    if (options.readOnly) return SessionStore.load(resolved, undefined, true);
    const lock = acquireLock(resolved);
    try {
      return SessionStore.load(resolved, lock, false);
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
    return new SessionStore({
      file: undefined,
      header: newHeader(cwd),
      report: emptyReport(),
      index: finalized(new SessionIndex()),
      bodies: new Map(),
      readOnly: false,
      nextLine: 0,
    });
  }

  private static load(file: string, lock: FileLock | undefined, readOnly: boolean): SessionStore {
    let bytes: Buffer = fs.readFileSync(file);
    if (bytes.length === 0) {
      if (readOnly) throw new Error(`${file} is empty`);
      // Nothing to lose: give the empty file a header, as pi does.
      fs.appendFileSync(file, serializeLine(newHeader(process.cwd())));
      bytes = fs.readFileSync(file);
    }
    let loaded = loadSessionBytes(bytes, file);
    let migratedFrom: number | undefined;
    let migratedInMemory = false;
    if ('migrate' in loaded) {
      const result = migrateContent(bytes.toString('utf8'));
      if (!readOnly) writeMigratedFile(file, result);
      else migratedInMemory = true;
      migratedFrom = result.fromVersion;
      bytes = result.bytes;
      loaded = loadSessionBytes(bytes, file);
      if ('migrate' in loaded) throw new Error(`Migration of ${file} did not reach version 3`);
      loaded.report.tornTailBytes += result.tornTailBytes;
    }
    const report = loaded.report;
    if (migratedFrom !== undefined) report.migratedFromVersion = migratedFrom;
    let writer: SessionWriter | undefined;
    if (!readOnly) {
      if (report.tornTailBytes > 0 && migratedFrom === undefined) {
        fs.truncateSync(file, loaded.validLength);
      }
      writer = SessionWriter.open(file);
      if (report.missingFinalNewline) writer.append('\n');
      if (report.tornTailBytes > 0 || report.missingFinalNewline) writer.sync();
    }
    const store = new SessionStore({
      file,
      header: loaded.header,
      report,
      index: loaded.index,
      bodies: loaded.bodies,
      readOnly,
      writer,
      // Bodies of the active path come from the bytes in hand; the file takes over afterwards.
      source: bufferSource(loaded.bytes),
      lock,
      nextLine: loaded.lineCount + 1,
    });
    store.retainActivePath();
    store.source = migratedInMemory ? bufferSource(loaded.bytes) : fileSource(file);
    return store;
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

  getTree(): TreeNode[] {
    return this.index.getTree();
  }

  getChildren(parentId: string | null): TreeNode[] {
    return this.index.getChildren(parentId);
  }

  getEntry(id: string): SessionEntry | undefined {
    const record = this.index.byId.get(id);
    return record ? this.bodyOf(record, false) : undefined;
  }

  /** Entries from a root to `fromId` (default: the leaf), leaf markers left out. */
  getBranch(fromId?: string | null): SessionEntry[] {
    const start = fromId === undefined ? this.leafId : fromId;
    const records = this.index.pathTo(start).filter((record) => !record.marker);
    // Read in few large reads; these bodies are not kept beyond the recent-bodies budget.
    const entries: SessionEntry[] = [];
    for (let i = 0; i < records.length; i += GET_BRANCH_BATCH) {
      const batch = records.slice(i, i + GET_BRANCH_BATCH);
      const read = new Map<string, SessionEntry>();
      this.prefetch(batch, false, read);
      for (const record of batch) {
        const entry = read.get(record.id) ?? this.bodyOf(record, false);
        if (entry) entries.push(entry);
      }
    }
    return entries;
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
    const load = (record: EntryRecord) => this.bodyOf(record, retain);
    const plan = this.planAt(start, load);
    return contextFromPlan(plan, load, (records) => this.prefetch(records, retain));
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
        message.display,
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
    const entry: MessageEntry = {
      type: 'message',
      id: this.newId(),
      parentId: this.leafId,
      timestamp: new Date().toISOString(),
      message,
    };
    return this.appendEntry(entry);
  }

  appendThinkingLevelChange(level: string): string {
    const entry: ThinkingLevelChangeEntry = {
      type: 'thinking_level_change',
      id: this.newId(),
      parentId: this.leafId,
      timestamp: new Date().toISOString(),
      thinkingLevel: level,
    };
    return this.appendEntry(entry);
  }

  appendModelChange(provider: string, modelId: string): string {
    const entry: ModelChangeEntry = {
      type: 'model_change',
      id: this.newId(),
      parentId: this.leafId,
      timestamp: new Date().toISOString(),
      provider,
      modelId,
    };
    return this.appendEntry(entry);
  }

  appendCompaction(
    summary: string,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
  ): string {
    const entry: CompactionEntry = {
      type: 'compaction',
      id: this.newId(),
      parentId: this.leafId,
      timestamp: new Date().toISOString(),
      summary,
      firstKeptEntryId,
      tokensBefore,
      details,
      fromHook,
    };
    return this.appendEntry(entry);
  }

  appendCustomEntry(customType: string, data?: unknown): string {
    if (customType === LEAF_MARKER_TYPE) {
      throw new Error(`The custom type "${LEAF_MARKER_TYPE}" is reserved for leaf markers`);
    }
    const entry: CustomEntry = {
      type: 'custom',
      customType,
      data,
      id: this.newId(),
      parentId: this.leafId,
      timestamp: new Date().toISOString(),
    };
    return this.appendEntry(entry);
  }

  appendCustomMessageEntry(
    customType: string,
    content: UserContent,
    display: boolean,
    details?: unknown,
  ): string {
    const entry: CustomMessageEntry = {
      type: 'custom_message',
      customType,
      content,
      display,
      details,
      id: this.newId(),
      parentId: this.leafId,
      timestamp: new Date().toISOString(),
    };
    return this.appendEntry(entry);
  }

  /** Sets (or, with undefined or '', clears) the label of an entry. Throws for an unknown id. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    const target = this.index.byId.get(targetId);
    if (!target || target.marker) throw new Error(`Entry ${targetId} not found`);
    const entry: LabelEntry = {
      type: 'label',
      id: this.newId(),
      parentId: this.leafId,
      timestamp: new Date().toISOString(),
      targetId,
      label: label || undefined,
    };
    const id = this.appendEntry(entry);
    this.emit({ type: 'label_changed', targetId, label: entry.label });
    return id;
  }

  appendSessionInfo(name: string): string {
    const entry: SessionInfoEntry = {
      type: 'session_info',
      id: this.newId(),
      parentId: this.leafId,
      timestamp: new Date().toISOString(),
      name: name.trim(),
    };
    const id = this.appendEntry(entry);
    this.emit({ type: 'session_info_changed', name: this.index.sessionName });
    return id;
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
   * Moves the leaf to `fromId` (null: the root) and appends a branch_summary there, which becomes
   * the leaf. `fromId` in the entry is the new parent, or "root" (pi's code, not pi's docs).
   */
  branchWithSummary(
    fromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
  ): string {
    if (fromId !== null) {
      const record = this.index.byId.get(fromId);
      if (!record || record.marker) throw new Error(`Entry ${fromId} not found`);
    }
    this.assertWritable();
    this.leafId = fromId;
    this.releaseOffPath();
    const entry: BranchSummaryEntry = {
      type: 'branch_summary',
      id: this.newId(),
      parentId: fromId,
      timestamp: new Date().toISOString(),
      fromId: fromId ?? 'root',
      summary,
      details,
      fromHook,
    };
    return this.appendEntry(entry);
  }

  private moveLeaf(target: string | null): void {
    if (target === this.leafId) return;
    this.assertWritable();
    if (this.writer) {
      const marker: CustomEntry = {
        type: 'custom',
        customType: LEAF_MARKER_TYPE,
        data: { leafId: target },
        id: this.newId(),
        parentId: target,
        timestamp: new Date().toISOString(),
      };
      this.writeEntry(marker);
    }
    this.leafId = target;
    this.releaseOffPath();
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
    if (!entry || entry.type !== 'message' || entry.message.role !== 'user') {
      throw new Error(`Only a user message can be forked from; ${entryId} is not one`);
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
    const dir = resolveTargetDir(sessionDir);
    fs.mkdirSync(dir, { recursive: true });
    const lines: PathLine[] = [];
    for (const record of this.index.pathTo(leafId)) {
      const entry = this.bodyOf(record, false);
      if (entry) {
        lines.push({ kind: 'entry', entry, skip: record.marker || entry.type === 'label' });
      } else if (this.source && record.offset >= 0) {
        lines.push({
          kind: 'raw',
          id: record.id,
          text: this.source.read(record.offset, record.length),
        });
      }
    }
    const header = newHeader(this.cwd, this.file);
    const content = branchedContent(header, lines, this.index.labels);
    const file = path.join(dir, sessionFileName(header.timestamp, header.id));
    const lock = acquireLock(file);
    try {
      const writer = SessionWriter.create(file, content);
      writer.close();
      fsyncDirectory(dir);
      return SessionStore.load(file, lock, false);
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
    this.writer?.sync();
  }

  /** fsync, close the file, release the lock. Further appends throw. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.writer?.close();
    } finally {
      this.source?.close();
      this.lock?.release();
      this.listeners.clear();
    }
  }

  // ---------------------------------------------------------------- internals

  private leafOnOpen(): string | null {
    const lastId = this.index.lastId;
    if (lastId === undefined) return null;
    const last = this.index.byId.get(lastId);
    if (!last?.marker) return lastId;
    return last.parentId !== null && this.index.byId.has(last.parentId) ? last.parentId : null;
  }

  private newId(): string {
    return generateEntryId(this.index.byId);
  }

  private assertWritable(): void {
    if (this.closed) throw new Error('The session is closed');
    if (this.readOnly) throw new Error('The session was opened read-only');
  }

  /** Writes and indexes an entry without touching the leaf or telling listeners. */
  private writeEntry(entry: SessionEntry): EntryRecord {
    this.assertWritable();
    const text = serializeLine(entry);
    const offset = this.writer ? this.writer.append(text) : -1;
    const length = this.writer ? Buffer.byteLength(text) - 1 : 0;
    const indexed = recordOfParsed({ kind: 'entry', entry }, this.nextLine, offset, length);
    if (this.writer) this.nextLine++;
    if (!indexed) throw new Error('unreachable: an entry always yields a record');
    this.index.add(indexed.record);
    applyBookkeeping(this.index, entry);
    this.bodies.set(entry.id, entry);
    if (this.writer && (length > SMALL_LINE_BYTES || entry.type === 'message')) {
      this.retained.add(entry.id);
    }
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

  /**
   * The body of `record`: from memory, else read by position. With `retain`, the body stays in
   * memory while its entry is on the active path; otherwise it joins the recent bodies.
   */
  private bodyOf(record: EntryRecord, retain: boolean): SessionEntry | undefined {
    const cached = this.bodies.get(record.id);
    if (cached) return cached;
    const recent = this.recent.get(record.id);
    if (recent) {
      this.recent.delete(record.id);
      this.recentBytes -= recent.bytes;
      if (retain) this.keep(record.id, recent.entry);
      else this.remember(record.id, recent.entry, recent.bytes);
      return recent.entry;
    }
    if (!record.usable || !this.source || record.offset < 0) return undefined;
    if (this.closed && this.file !== undefined) {
      throw new Error(`The session ${this.file} is closed; its bodies can no longer be read`);
    }
    const entry = parseBody(this.source.read(record.offset, record.length));
    if (!entry || entry.id !== record.id) {
      // A line indexed by its first bytes turned out unreadable: report it now.
      record.usable = false;
      this.openReport.badLines.push(record.line);
      this.openReport.problems.push({ line: record.line, reason: 'unreadable entry body' });
      return undefined;
    }
    if (retain) this.keep(record.id, entry);
    else this.remember(record.id, entry, record.length);
    return entry;
  }

  /**
   * Reads the bodies of `records` that are not in memory with as few reads as possible: lines
   * close together in the file (a branch is mostly written in one go) come in one read.
   */
  private prefetch(
    records: EntryRecord[],
    retain: boolean,
    into?: Map<string, SessionEntry>,
  ): void {
    const source = this.source;
    if (!source) return;
    const missing = records
      .filter((r) => r.usable && r.offset >= 0 && !this.bodies.has(r.id) && !this.recent.has(r.id))
      .sort((a, b) => a.offset - b.offset);
    let i = 0;
    while (i < missing.length) {
      const first = missing[i]!;
      let j = i;
      let end = first.offset + first.length;
      while (j + 1 < missing.length) {
        const next = missing[j + 1]!;
        if (
          next.offset - end > PREFETCH_GAP_BYTES ||
          next.offset + next.length - first.offset > PREFETCH_MAX_BYTES
        )
          break;
        j++;
        end = Math.max(end, next.offset + next.length);
      }
      const chunk = source.readBytes(first.offset, end - first.offset);
      for (let k = i; k <= j; k++) {
        const record = missing[k]!;
        const at = record.offset - first.offset;
        const entry = parseBody(chunk.toString('utf8', at, at + record.length));
        if (!entry || entry.id !== record.id) continue; // bodyOf reports it
        into?.set(record.id, entry);
        if (retain) this.keep(record.id, entry);
        else this.remember(record.id, entry, record.length);
      }
      i = j + 1;
    }
  }

  private keep(id: string, entry: SessionEntry): void {
    this.bodies.set(id, entry);
    this.retained.add(id);
  }

  private remember(id: string, entry: SessionEntry, bytes: number): void {
    this.recent.set(id, { entry, bytes });
    this.recentBytes += bytes;
    for (const [oldId, old] of this.recent) {
      if (this.recentBytes <= RECENT_BODY_BYTES) break;
      this.recent.delete(oldId);
      this.recentBytes -= old.bytes;
    }
  }

  /**
   * pi's plan for the context at `leafId`, found from the entries the context contains: the
   * ancestry gives the last compaction, thinking change and model source, so only the stretch
   * from the compaction's first kept entry to the leaf is walked, not the path to the root.
   */
  private planAt(
    leafId: string,
    load: (record: EntryRecord) => SessionEntry | undefined,
  ): ContextPlan<EntryRecord> {
    const leaf = this.index.byId.get(leafId);
    const byPath = () => planFromPath(this.index.pathTo(leafId), load);
    // Duplicate ids make "the parent" ambiguous; the plain walk follows pi exactly there.
    if (!leaf || this.index.duplicateIds.length > 0) return byPath();
    this.index.ancestry(leaf);
    const compactionRecord = leaf.compaction;
    const compactionBody = compactionRecord ? load(compactionRecord) : undefined;
    if (compactionRecord && compactionBody?.type !== 'compaction') return byPath();
    const compaction = compactionBody?.type === 'compaction' ? compactionBody : undefined;

    const after: EntryRecord[] = [];
    for (let r: EntryRecord | undefined = leaf; r && r !== compactionRecord;) {
      if (emitsMessage(r.type)) after.push(r);
      r = this.parentOf(r);
    }
    after.reverse();
    const before: EntryRecord[] = [];
    if (compactionRecord && compaction) {
      let found = false;
      for (let r = this.parentOf(compactionRecord); r; r = this.parentOf(r)) {
        if (emitsMessage(r.type)) before.push(r);
        if (r.id === compaction.firstKeptEntryId) {
          found = true;
          break;
        }
      }
      if (!found) before.length = 0;
      before.reverse();
    }
    return {
      thinking: leaf.thinking,
      model: leaf.model,
      compaction,
      emitted: before.length ? [...before, ...after] : after,
    };
  }

  /** The parent record by `parentId` as written (undefined at a root, a gap or a cycle). */
  private parentOf(record: EntryRecord): EntryRecord | undefined {
    if (record.parentId === null) return undefined;
    const parent = this.index.byId.get(record.parentId);
    return parent && parent.depth >= 0 && parent.depth < record.depth ? parent : undefined;
  }

  /** Reads the bodies the active context needs, so they stay in memory. */
  private retainActivePath(): void {
    this.buildSessionContext();
  }

  /** Moves bodies that are no longer on the active path to the recent ones. */
  private releaseOffPath(): void {
    if (this.retained.size === 0) return;
    // Only the part of the new path as deep as the shallowest retained entry can hold them.
    let shallowest = Infinity;
    for (const id of this.retained) {
      const record = this.index.byId.get(id);
      if (record) shallowest = Math.min(shallowest, this.index.ancestry(record).depth);
    }
    const onPath = new Set<string>();
    const leaf = this.leafId === null ? undefined : this.index.byId.get(this.leafId);
    for (
      let r = leaf && this.index.ancestry(leaf);
      r && r.depth >= shallowest;
      r = this.parentOf(r)
    ) {
      onPath.add(r.id);
    }
    for (const id of this.retained) {
      if (onPath.has(id)) continue;
      this.retained.delete(id);
      const entry = this.bodies.get(id);
      this.bodies.delete(id);
      const record = this.index.byId.get(id);
      if (entry && record) this.remember(id, entry, Math.max(record.length, 0));
    }
  }
}

/** getBranch reads bodies in batches of this many entries. */
const GET_BRANCH_BATCH = 512;

/** Lines at most this far apart are read together when several bodies are needed. */
const PREFETCH_GAP_BYTES = 256 * 1024;
const PREFETCH_MAX_BYTES = 16 * 1024 * 1024;

/** Budget of the recent-bodies cache, in bytes of JSON lines. */
const RECENT_BODY_BYTES = 32 * 1024 * 1024;

function finalized(index: SessionIndex): SessionIndex {
  index.finalize();
  return index;
}

/** The newest `*.jsonl` in `dir` (by mtime) whose first line is a session header. */
export function mostRecentSessionFile(dir: string): string | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return undefined;
  }
  let best: { file: string; mtime: number } | undefined;
  for (const name of names) {
    const file = path.join(dir, name);
    if (!startsWithHeader(file)) continue;
    const mtime = fs.statSync(file).mtimeMs;
    if (!best || mtime > best.mtime) best = { file, mtime };
  }
  return best?.file;
}

function startsWithHeader(file: string): boolean {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(4096);
      const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
      const newline = buffer.indexOf(0x0a);
      const first = buffer.toString('utf8', 0, newline === -1 || newline > n ? n : newline);
      const value: unknown = JSON.parse(first);
      return (
        typeof value === 'object' &&
        value !== null &&
        (value as { type?: unknown }).type === 'session' &&
        typeof (value as { id?: unknown }).id === 'string'
      );
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

import type { SessionChangeEvent } from '../../shared/agent-events.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import { fileSource, type BodyCache } from './body-cache.js';
import type { EntryBase } from './entry-factory.js';
import { generateEntryId } from './entry-ids.js';
import type { EntryRecord, SessionIndex } from './session-index.js';
import { serializeLine } from './session-lines.js';
import { applyBookkeeping, recordOfParsed, SMALL_LINE_BYTES } from './session-loader.js';
import type { WriteAccess } from './write-access.js';

/*
 * The part of a SessionStore that writing changes: the leaf, the next line number, the listeners.
 * Every entry comes in through `write`: its line goes to the file first (one write(2) under the
 * lock), then into the index, the bookkeeping (labels, the name) and the body cache, so memory
 * never holds an entry the file does not.
 */
export class EntryLog {
  /** The entry the next append hangs from; null: the next append starts a new root. */
  leafId: string | null;
  private nextLine: number;
  private closed = false;
  private readonly listeners = new Set<(change: SessionChangeEvent) => void>();

  constructor(
    readonly file: string | undefined,
    readonly index: SessionIndex,
    readonly bodies: BodyCache,
    readonly access: WriteAccess,
    nextLine: number,
  ) {
    this.nextLine = nextLine;
    this.leafId = index.leafOnOpen();
  }

  /** Makes the file writable now (WriteAccess.ensure); every append and every writer calls it. */
  ensureWritable(): void {
    if (this.closed) throw new Error('The session is closed');
    // A migrated file now holds, at the same offsets, the bytes the skeleton was built from.
    if (this.access.ensure() && this.file) this.bodies.source = fileSource(this.file);
  }

  /** A new id, the parent (default: the leaf) and the time, for an entry about to be appended. */
  base(parentId: string | null = this.leafId): EntryBase {
    return {
      id: generateEntryId(this.index.byId),
      parentId,
      timestamp: new Date().toISOString(),
    };
  }

  /** Writes and indexes an entry without touching the leaf or telling listeners. */
  write(entry: SessionEntry): EntryRecord {
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

  /** Writes an entry that becomes the leaf, and tells listeners (`entry_appended`). */
  append(entry: SessionEntry): string {
    const record = this.write(entry);
    this.leafId = entry.id;
    this.emit({ type: 'entry_appended', node: this.index.nodeOf(record) });
    return entry.id;
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (change: SessionChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener, in order; a listener that throws is reported, not passed on. */
  emit(change: SessionChangeEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        process.emitWarning(`A session change listener threw: ${String(error)}`);
      }
    }
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
}

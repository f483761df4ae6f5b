import fs from 'node:fs';
import { LRUCache } from 'lru-cache';
import type { SessionEntry } from '../../shared/session-entries.js';
import type { EntryRecord, SessionIndex } from './session-index.js';
import { parseBody } from './session-loader.js';
import { openRegularFileSync } from './regular-file.js';

/*
 * Entry bodies in memory: the small ones for good, those of the active path while they are on it
 * ("retained"), and recently read ones up to a byte budget. Everything else is read from the
 * file by position when asked for, several lines at once when they are close together.
 */

/** Where bodies that are not in memory are read from. */
export interface BodySource {
  read(offset: number, length: number): string;
  readBytes(offset: number, length: number): Buffer;
  close(): void;
}

export function bufferSource(bytes: Buffer): BodySource {
  return {
    read: (offset, length) => bytes.toString('utf8', offset, offset + length),
    readBytes: (offset, length) => bytes.subarray(offset, offset + length),
    close() {},
  };
}

export function fileSource(file: string): BodySource {
  return fdSource(openRegularFileSync(file), file);
}

/** Reads by position through `fd` (open for reading), which `close` closes. */
export function fdSource(fd: number, file: string): BodySource {
  let open = true;
  const readBytes = (offset: number, length: number): Buffer => {
    if (!open)
      throw new Error(`The session file ${file} is closed; its bodies can no longer be read`);
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

/** `readAll` reads bodies in batches of this many entries. */
const READ_ALL_BATCH = 512;

/** Lines at most this far apart are read together when several bodies are needed. */
const PREFETCH_GAP_BYTES = 256 * 1024;
const PREFETCH_MAX_BYTES = 16 * 1024 * 1024;

/** Budget of the recent-bodies cache, in bytes of JSON lines. */
const RECENT_BODY_BYTES = 32 * 1024 * 1024;

export class BodyCache {
  /** Large bodies held because their entries are on the active path. */
  private readonly retained = new Set<string>();
  /**
   * Bodies read recently but not on the active path, each weighing its line's bytes; the least
   * recently used leave first once they pass the budget.
   */
  private readonly recent = new LRUCache<string, SessionEntry>({ maxSize: RECENT_BODY_BYTES });

  constructor(
    /** Bodies held for good (small ones) and retained ones. */
    private readonly bodies: Map<string, SessionEntry>,
    public source: BodySource | undefined,
    /** Told when a line indexed from its first bytes turns out not to be a usable entry. */
    private readonly onUnreadable: (record: EntryRecord) => void,
  ) {}

  get retainedIds(): ReadonlySet<string> {
    return this.retained;
  }

  /** Holds `entry` for good, or (`retain`) while it is on the active path. */
  add(id: string, entry: SessionEntry, retain: boolean): void {
    this.bodies.set(id, entry);
    if (retain) this.retained.add(id);
  }

  /**
   * The body of `record`: from memory, else read by position. With `retain`, the body stays in
   * memory while its entry is on the active path; otherwise it joins the recent bodies.
   */
  get(record: EntryRecord, retain: boolean): SessionEntry | undefined {
    const cached = this.bodies.get(record.id);
    if (cached) return cached;
    const recent = this.recent.get(record.id);
    if (recent) {
      this.recent.delete(record.id);
      this.hold(record, recent, retain);
      return recent;
    }
    if (!record.usable || !this.source || record.offset < 0) return undefined;
    const entry = parseBody(this.source.read(record.offset, record.length));
    if (!entry || entry.id !== record.id) {
      record.usable = false;
      this.onUnreadable(record);
      return undefined;
    }
    this.hold(record, entry, retain);
    return entry;
  }

  /** The raw line of `record` (for copying lines this version cannot interpret). */
  rawLine(record: EntryRecord): string | undefined {
    return this.source && record.offset >= 0
      ? this.source.read(record.offset, record.length)
      : undefined;
  }

  /**
   * Reads the bodies of `records` that are not in memory with as few reads as possible: lines
   * close together in the file (a branch is mostly written in one go) come in one read.
   */
  prefetch(records: EntryRecord[], retain: boolean, into?: Map<string, SessionEntry>): void {
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
        const gap = next.offset - end;
        if (
          gap > PREFETCH_GAP_BYTES ||
          next.offset + next.length - first.offset > PREFETCH_MAX_BYTES
        ) {
          break;
        }
        j++;
        end = Math.max(end, next.offset + next.length);
      }
      const chunk = source.readBytes(first.offset, end - first.offset);
      for (let k = i; k <= j; k++) {
        const record = missing[k]!;
        const at = record.offset - first.offset;
        const entry = parseBody(chunk.toString('utf8', at, at + record.length));
        if (!entry || entry.id !== record.id) continue; // `get` reports it when asked
        into?.set(record.id, entry);
        this.hold(record, entry, retain);
      }
      i = j + 1;
    }
  }

  /** The bodies of `records` in order (unusable ones left out), read in few large reads. */
  readAll(records: EntryRecord[]): SessionEntry[] {
    const entries: SessionEntry[] = [];
    for (let i = 0; i < records.length; i += READ_ALL_BATCH) {
      const batch = records.slice(i, i + READ_ALL_BATCH);
      const read = new Map<string, SessionEntry>();
      this.prefetch(batch, false, read);
      for (const record of batch) {
        const entry = read.get(record.id) ?? this.get(record, false);
        if (entry) entries.push(entry);
      }
    }
    return entries;
  }

  /** Moves retained bodies whose entries are not on the path to `leafId` to the recent ones. */
  releaseOffPath(index: SessionIndex, leafId: string | null): void {
    if (this.retained.size === 0) return;
    // Only the part of the new path as deep as the shallowest retained entry can hold them.
    let shallowest = Infinity;
    for (const id of this.retained) {
      const record = index.byId.get(id);
      if (record) shallowest = Math.min(shallowest, index.ancestry(record).depth);
    }
    const onPath = index.pathIdsDownTo(leafId, shallowest);
    for (const id of this.retained) {
      if (onPath.has(id)) continue;
      this.retained.delete(id);
      const entry = this.bodies.get(id);
      this.bodies.delete(id);
      if (entry) this.remember(id, entry, Math.max(index.byId.get(id)?.length ?? 0, 0));
    }
  }

  close(): void {
    this.source?.close();
  }

  private hold(record: EntryRecord, entry: SessionEntry, retain: boolean): void {
    if (retain) this.add(record.id, entry, true);
    else this.remember(record.id, entry, Math.max(record.length, 0));
  }

  private remember(id: string, entry: SessionEntry, bytes: number): void {
    // lru-cache weighs each item at a positive whole number; a body bigger than the whole budget
    // is not kept (and, unlike a plain loop over a Map, does not push out everything else).
    this.recent.set(id, entry, { size: Math.max(1, bytes) });
  }
}

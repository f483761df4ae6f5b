import fs from 'node:fs';
import type { SessionEntry, SessionHeader } from '../../shared/session-entries.js';
import { parseLine, type ParsedLine } from './session-lines.js';
import { EntryRecord, LEAF_MARKER_TYPE, SessionIndex } from './session-index.js';
import { nodeOfEntry, nodeOfEnvelope } from './tree-node.js';
import { LineScanner, NODE } from './line-scan.js';
import { CodedError } from '../errors/coded-error.js';

/*
 * Reading a session file into a skeleton. The file is read once, in chunks of a megabyte, and cut
 * at newlines; each line becomes a record with its byte range, so bodies can be read again later
 * by position. Only small bodies are kept, and the file is never held whole in memory: the bodies
 * the caller needs are read by position afterwards, through the descriptor the scan used.
 */

export interface LineProblem {
  line: number;
  reason: string;
}

export interface OpenReport {
  /** 1-based line numbers of lines that are not usable entries (kept in the file untouched). */
  badLines: number[];
  /** Bytes of an incomplete last line (cut off on a writable open, ignored on a read-only one). */
  tornTailBytes: number;
  /** Extra `type:"session"` lines after the first, ignored as pi ignores them. */
  duplicateHeaders: number;
  /** Entries whose parent is missing (or themselves); the tree shows them as roots. */
  orphans: string[];
  migratedFromVersion?: number;
  /** Why each bad line was rejected. */
  problems: LineProblem[];
  /** Ids that occur on more than one line (the last one wins, as in pi). */
  duplicateIds: string[];
  /** The last line was complete but lacked its newline (a writable open adds it). */
  missingFinalNewline: boolean;
}

export function emptyReport(): OpenReport {
  return {
    badLines: [],
    tornTailBytes: 0,
    duplicateHeaders: 0,
    orphans: [],
    problems: [],
    duplicateIds: [],
    missingFinalNewline: false,
  };
}

export class NotASessionFileError extends CodedError {
  readonly code = 'not_a_session_file';
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file} is not a session file (${reason}); it was left untouched`);
    this.name = 'NotASessionFileError';
  }
}

/** Bodies whose line is at most this long stay in memory; longer ones are read by position. */
export const SMALL_LINE_BYTES = 1024;

export interface LoadedFile {
  header: SessionHeader;
  /** Header's line range (the first line). */
  headerLength: number;
  index: SessionIndex;
  /** Bodies kept in memory: every small one. */
  bodies: Map<string, SessionEntry>;
  report: OpenReport;
  /** Length of the file up to and including the last complete line. */
  validLength: number;
  /** Number of lines up to `validLength`. */
  lineCount: number;
}

/** True when the header's version needs the v1/v2 → v3 migration. */
export function needsMigration(header: SessionHeader): boolean {
  return (header.version ?? 1) < 3;
}

/** Index one v3 line into `index`/`bodies`. Exported for the append path of the store. */
export function recordOfParsed(
  parsed: ParsedLine,
  line: number,
  offset: number,
  length: number,
): { record: EntryRecord; entry?: SessionEntry } | undefined {
  if (parsed.kind === 'entry') {
    const entry = parsed.entry;
    const marker = entry.type === 'custom' && entry.customType === LEAF_MARKER_TYPE;
    return {
      entry,
      record: new EntryRecord(
        entry.id,
        entry.parentId,
        entry.type,
        entry.type === 'message'
          ? entry.message.role
          : entry.type === 'custom_message'
            ? 'custom'
            : undefined,
        nodeOfEntry(entry),
        line,
        offset,
        length,
        true,
        marker,
      ),
    };
  }
  if (parsed.kind === 'foreign') {
    return {
      record: new EntryRecord(
        parsed.envelope.id,
        parsed.envelope.parentId,
        parsed.envelope.type,
        undefined,
        nodeOfEnvelope(parsed.envelope),
        line,
        offset,
        length,
        false,
        false,
      ),
    };
  }
  return undefined;
}

/** Applies the bookkeeping of an entry (labels, name) to the index. */
export function applyBookkeeping(index: SessionIndex, entry: SessionEntry): void {
  if (entry.type === 'label') index.applyLabel(entry.targetId, entry.label, entry.timestamp);
  else if (entry.type === 'session_info') index.sessionName = entry.name?.trim() || undefined;
}

const NEWLINE = 0x0a;

function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** The file is read in chunks of this size (a line longer than a chunk grows the buffer). */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The lines of one file, fed in order: `line` takes the bytes `bytes[start, end)` at file offset
 * `base + start`, with or without their newline, and knows whether any byte follows them.
 */
class LineIndexer {
  readonly report = emptyReport();
  readonly index = new SessionIndex();
  readonly bodies = new Map<string, SessionEntry>();
  header: SessionHeader | undefined;
  headerLength = 0;
  validLength = 0;
  lineNo = 0;

  constructor(private readonly file: string) {}

  /**
   * Indexes the line of `scanner`'s row `row` (a complete line, not the last). Message lines the
   * scan recognised are indexed from its result, without JSON.parse; their bodies are parsed
   * (and checked by the schema) when they are read. Anything else goes to `line`.
   */
  scanned(scanner: LineScanner, row: number, base: number): 'migrate' | 'torn' | undefined {
    const start = scanner.start(row);
    const end = scanner.end(row);
    if (scanner.kind(row) !== NODE || this.header === undefined) {
      return this.line(scanner.input, start, end, base, true);
    }
    const index = this.index;
    const node = scanner.node(row, index.lastId);
    this.validLength = base + end + 1;
    index.add(
      new EntryRecord(
        node.id,
        node.parentId,
        'message',
        node.role,
        node,
        ++this.lineNo,
        base + start,
        end - start,
        true,
        false,
      ),
    );
    return undefined;
  }

  /**
   * Indexes one line by parsing it; `complete` when its newline was read. Returns 'migrate' when
   * the header needs the migration, 'torn' for a torn last line; either ends the reading.
   */
  line(
    bytes: Buffer,
    start: number,
    end: number,
    base: number,
    complete: boolean,
  ): 'migrate' | 'torn' | undefined {
    const { report, index } = this;
    const lineNo = ++this.lineNo;
    const offset = base + start;
    if (isBlank(bytes, start, end)) {
      if (complete) this.validLength = base + end + 1;
      return undefined;
    }
    const parsed = parseLine(bytes.toString('utf8', start, end));
    if (!complete) {
      // The last line has no newline: a torn write unless it parses as a whole line.
      if (parsed.kind === 'bad') {
        if (this.header === undefined) {
          throw new NotASessionFileError(this.file, 'no complete header line');
        }
        report.tornTailBytes = end - start;
        return 'torn';
      }
      report.missingFinalNewline = true;
      this.validLength = base + end;
    } else {
      this.validLength = base + end + 1;
    }
    if (this.header === undefined) {
      if (parsed.kind !== 'header') {
        throw new NotASessionFileError(
          this.file,
          parsed.kind === 'bad' ? `first line: ${parsed.reason}` : 'first line is not a header',
        );
      }
      this.header = parsed.header;
      this.headerLength = end - start;
      return needsMigration(parsed.header) ? 'migrate' : undefined;
    }
    if (parsed.kind === 'header') {
      report.duplicateHeaders++;
    } else if (parsed.kind === 'bad') {
      report.badLines.push(lineNo);
      report.problems.push({ line: lineNo, reason: parsed.reason });
    } else {
      const indexed = recordOfParsed(parsed, lineNo, offset, end - start);
      if (indexed) {
        index.add(indexed.record);
        if (indexed.entry) {
          applyBookkeeping(index, indexed.entry);
          if (end - start <= SMALL_LINE_BYTES) this.bodies.set(indexed.record.id, indexed.entry);
        }
        if (parsed.kind === 'foreign') {
          report.badLines.push(lineNo);
          report.problems.push({ line: lineNo, reason: parsed.reason });
        }
      }
    }
    return undefined;
  }

  /** The loaded file once every line is in (`stop`: what ended the reading, if anything). */
  finish(stop: 'migrate' | 'torn' | undefined): LoadedFile | { migrate: SessionHeader } {
    const { header, index, report } = this;
    if (header === undefined) throw new NotASessionFileError(this.file, 'the file is empty');
    if (stop === 'migrate') return { migrate: header };
    index.finalize();
    report.orphans = [...index.orphans];
    report.duplicateIds = [...index.duplicateIds];
    const lineCount = report.tornTailBytes > 0 ? this.lineNo - 1 : this.lineNo;
    return {
      header,
      headerLength: this.headerLength,
      index,
      bodies: this.bodies,
      report,
      validLength: this.validLength,
      lineCount,
    };
  }
}

/** Reads up to `length` bytes at file offset `position` into `into[at…]`; 0 at the end. */
type Read = (into: Buffer, at: number, length: number, position: number) => number;

/**
 * Reads and indexes a v3 file from `fd` (read from its start, in chunks, until its end), or
 * returns the header alone when it needs migration (the caller migrates and loads again). Refuses,
 * without touching the file, anything whose first line is not a session header. `file` names it
 * in errors; `chunkBytes` is the size of each read (tests make it tiny).
 */
export function loadSessionFd(
  fd: number,
  file: string,
  chunkBytes = CHUNK_BYTES,
): LoadedFile | { migrate: SessionHeader } {
  return loadLines(
    (into, at, length, position) => fs.readSync(fd, into, at, length, position),
    file,
    chunkBytes,
  );
}

/** As `loadSessionFd`, over bytes already in hand (a migrated file). */
export function loadSessionBytes(
  bytes: Buffer,
  file: string,
): LoadedFile | { migrate: SessionHeader } {
  return loadLines(
    (into, at, length, position) =>
      bytes.copy(into, at, position, Math.min(bytes.length, position + length)),
    file,
    CHUNK_BYTES,
  );
}

function loadLines(
  read: Read,
  file: string,
  chunkBytes: number,
): LoadedFile | { migrate: SessionHeader } {
  const indexer = new LineIndexer(file);
  // The bytes are read into the scan's memory (no copy between the read and the scan).
  const scanner = new LineScanner(chunkBytes);
  /** `scanner.input[0, filled)` holds the file's bytes from offset `base` on. */
  let base = 0;
  let filled = 0;
  /** No newline in `input[0, searched)` but the one that may end the file: a long line is searched once. */
  let searched = 0;
  let stop: 'migrate' | 'torn' | undefined;
  for (;;) {
    if (filled === scanner.input.length) {
      // One line fills the buffer: make room for the rest of it.
      scanner.ensureInput(scanner.input.length * 2);
    }
    const count = read(scanner.input, filled, scanner.input.length - filled, base + filled);
    const eof = count === 0;
    filled += count;
    let start = 0;
    // Every complete line but one whose newline is the last byte read: through the scan.
    while (stop === undefined) {
      const rows = scanner.scan(start, filled);
      for (let row = 0; row < rows && stop === undefined; row++) {
        stop = indexer.scanned(scanner, row, base);
      }
      if (rows === 0) break;
      start = scanner.next;
      if (rows < scanner.batchSize) break;
    }
    const bytes = scanner.input.subarray(0, filled);
    while (stop === undefined) {
      const newline = bytes.indexOf(NEWLINE, Math.max(start, searched));
      if (newline === -1) {
        searched = filled;
        break;
      }
      // A newline that ends the bytes read so far may end the file: read on to know.
      if (newline + 1 === filled && !eof) {
        searched = newline;
        break;
      }
      stop = indexer.line(bytes, start, newline, base, true);
      start = newline + 1;
    }
    if (stop !== undefined) break;
    if (eof) {
      if (start < filled) stop = indexer.line(bytes, start, filled, base, false);
      break;
    }
    bytes.copy(bytes, 0, start, filled);
    base += start;
    filled -= start;
    searched = Math.max(0, searched - start);
  }
  return indexer.finish(stop);
}

/** Reads one line's body again from `bytes` or a file descriptor; undefined if unusable. */
export function parseBody(text: string): SessionEntry | undefined {
  const parsed = parseLine(text);
  return parsed.kind === 'entry' ? parsed.entry : undefined;
}

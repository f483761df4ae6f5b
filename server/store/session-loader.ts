import fs from 'node:fs';
import type { SessionEntry, SessionHeader } from '../../shared/session-entries.js';
import { classifyValue, parseLine, type ParsedLine } from './session-lines.js';
import { LEAF_MARKER_TYPE, NO_ANCESTRY, SessionIndex, type EntryRecord } from './session-index.js';
import { nodeOfEntry, nodeOfEnvelope } from './tree-node.js';
import { scanMessageLine } from './fast-scan.js';

/*
 * Reading a session file into a skeleton. The file is read once as bytes and cut at newlines; each
 * line becomes a record with its byte range, so bodies can be read again later by position. Only
 * small bodies are kept; the caller decides which large ones it needs while the bytes are in hand.
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

export class NotASessionFileError extends Error {
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
  /** The whole file as read, so the caller can take the bodies it needs without more reads. */
  bytes: Buffer;
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
      record: {
        id: entry.id,
        parentId: entry.parentId,
        type: entry.type,
        role:
          entry.type === 'message'
            ? entry.message.role
            : entry.type === 'custom_message'
              ? 'custom'
              : undefined,
        node: nodeOfEntry(entry),
        line,
        offset,
        length,
        usable: true,
        marker,
        ...NO_ANCESTRY,
      },
    };
  }
  if (parsed.kind === 'foreign') {
    return {
      record: {
        id: parsed.envelope.id,
        parentId: parsed.envelope.parentId,
        type: parsed.envelope.type,
        role: undefined,
        node: nodeOfEnvelope(parsed.envelope),
        line,
        offset,
        length,
        usable: false,
        marker: false,
        ...NO_ANCESTRY,
      },
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

/**
 * Reads and indexes a v3 file, or returns the header alone when it needs migration (the caller
 * migrates and loads again). Refuses, without touching the file, anything whose first line is not
 * a session header.
 */
export function loadSessionFile(file: string): LoadedFile | { migrate: SessionHeader } {
  return loadSessionBytes(fs.readFileSync(file), file);
}

/** As `loadSessionFile`, over bytes already in hand (`file` names them in errors). */
export function loadSessionBytes(
  bytes: Buffer,
  file: string,
): LoadedFile | { migrate: SessionHeader } {
  const report = emptyReport();
  const index = new SessionIndex();
  const bodies = new Map<string, SessionEntry>();
  let header: SessionHeader | undefined;
  let headerLength = 0;
  let validLength = 0;
  let lineNo = 0;
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, start);
    const complete = newline !== -1;
    const end = complete ? newline : bytes.length;
    lineNo++;
    if (isBlank(bytes, start, end)) {
      if (complete) validLength = end + 1;
      start = end + 1;
      continue;
    }
    // Message lines (not the last, whose completeness matters) are indexed without JSON.parse;
    // their bodies are parsed (and checked by the schema) when they are read.
    if (header !== undefined && complete && end + 1 < bytes.length) {
      const node = scanMessageLine(bytes, start, end);
      if (node) {
        validLength = end + 1;
        index.add({
          id: node.id,
          parentId: node.parentId,
          type: 'message',
          role: node.role,
          node,
          line: lineNo,
          offset: start,
          length: end - start,
          usable: true,
          marker: false,
          ...NO_ANCESTRY,
        });
        start = end + 1;
        continue;
      }
    }
    const parsed = parseLine(bytes.toString('utf8', start, end));
    if (!complete) {
      // The last line has no newline: a torn write unless it parses as a whole line.
      if (parsed.kind === 'bad') {
        if (header === undefined) throw new NotASessionFileError(file, 'no complete header line');
        report.tornTailBytes = end - start;
        break;
      }
      report.missingFinalNewline = true;
      validLength = end;
    } else {
      validLength = end + 1;
    }
    if (header === undefined) {
      if (parsed.kind !== 'header') {
        throw new NotASessionFileError(
          file,
          parsed.kind === 'bad' ? `first line: ${parsed.reason}` : 'first line is not a header',
        );
      }
      header = parsed.header;
      headerLength = end - start;
      if (needsMigration(header)) return { migrate: header };
      start = end + 1;
      continue;
    }
    if (parsed.kind === 'header') {
      report.duplicateHeaders++;
    } else if (parsed.kind === 'bad') {
      report.badLines.push(lineNo);
      report.problems.push({ line: lineNo, reason: parsed.reason });
    } else {
      const indexed = recordOfParsed(parsed, lineNo, start, end - start);
      if (indexed) {
        index.add(indexed.record);
        if (indexed.entry) {
          applyBookkeeping(index, indexed.entry);
          if (end - start <= SMALL_LINE_BYTES) bodies.set(indexed.record.id, indexed.entry);
        }
        if (parsed.kind === 'foreign') {
          report.badLines.push(lineNo);
          report.problems.push({ line: lineNo, reason: parsed.reason });
        }
      }
    }
    start = end + 1;
  }
  if (header === undefined) throw new NotASessionFileError(file, 'the file is empty');
  index.finalize();
  report.orphans = [...index.orphans];
  report.duplicateIds = [...index.duplicateIds];
  const lineCount = report.tornTailBytes > 0 ? lineNo - 1 : lineNo;
  return { header, headerLength, index, bodies, report, validLength, bytes, lineCount };
}

/** Reads one line's body again from `bytes` or a file descriptor; undefined if unusable. */
export function parseBody(text: string): SessionEntry | undefined {
  const parsed = parseLine(text);
  return parsed.kind === 'entry' ? parsed.entry : undefined;
}

export { classifyValue };
